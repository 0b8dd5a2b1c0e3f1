import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { OutboxRow } from '../../src/store/index.js';
import type { SlackMessage, ViewOutput } from '../../workspace/index.js';
import { startTestBot } from '../support/bot.js';
import {
  channels,
  ephemeralText,
  type Harness,
  SIGNING_SECRET,
  startHarness,
  textBlockOf,
  users,
} from '../support/slack-harness.js';

/**
 * A send whose state is unknown is resolved from Slack, never by sending again: a MessageId that comes
 * late still lands; Check the gateway finds the batch (one match is confirmed by its sender or an admin)
 * or finds none (an admin marks it not sent); `/sms status` takes the reference its card shows.
 */

let h: Harness;
let start = 0;
let submitsBefore = 0;

beforeAll(async () => {
  h = await startHarness();
  await h.store.permissions.grant(users.alice, 'sender', users.admin);
});
afterAll(() => h.close());
// The simulator is not reset between tests: a gateway never hands out a MessageId twice, and a batch id
// already recorded on another send is, rightly, never a candidate.
beforeEach(async () => {
  start = h.fake.state.journal.seq;
  submitsBefore = await h.control.callCount('Submit');
});

/** The MessageId the gateway gave its newest batch. */
const newestBatch = async () => String(Math.max(...(await h.control.state()).batches.map((b) => b.id)));
const submitsSince = async () => (await h.control.callCount('Submit')) - submitsBefore;

const blocksOf = (m: { blocks?: unknown[] }) => JSON.stringify(m.blocks ?? []);

async function compose(text: string, user: string = users.alice): Promise<void> {
  const view: ViewOutput = await h.openCompose('send', user);
  await h.driver.viewSubmission({
    userId: user,
    view,
    values: { recipients: { recipients: '0532 123 45 67\n0533 123 45 67' }, [textBlockOf(view)]: { text } },
  });
}

async function rowWith(text: string, accept: (row: OutboxRow) => boolean = () => true): Promise<OutboxRow> {
  for (;;) {
    const seq = h.fake.state.journal.seq;
    const row = (await h.store.outbox.recent(100)).find((r) => r.text === text && accept(r));
    if (row) return row;
    await h.fake.state.waitFor('call', () => true, { timeoutMs: 10_000, after: seq });
  }
}

function unknownCard(text: string): Promise<SlackMessage> {
  return h.fake.state.waitForMessage(
    (m) =>
      m.channel === channels.smsOps && blocksOf(m).includes('State unknown') && blocksOf(m).includes(text),
    { after: start },
  );
}

/** A send the gateway took while its reply never came in time: unknown, with its batch at the gateway. */
async function unknownButSent(text: string): Promise<{ row: OutboxRow; card: SlackMessage }> {
  await h.control.fault({ operation: 'Submit', kind: 'timeout', delayMs: 5_000 });
  await compose(text);
  const card = await unknownCard(text);
  return { row: await rowWith(text, (r) => r.state === 'unknown'), card };
}

describe('a MessageId that arrives after the send was marked unknown', () => {
  it('is recorded: the send becomes submitted, the audit says resolved late, and the one card shows the batch', async () => {
    // The reply trickles in for 3 s; meanwhile an instance whose clock is ten minutes ahead takes the
    // send for abandoned and posts its unknown card.
    await h.control.fault({ operation: 'Submit', kind: 'trickle', delayMs: 3_000 });
    const text = 'trickled late';
    await compose(text);
    await h.fake.state.waitFor('call', () => true, { after: start });
    const pending = await rowWith(text);
    expect(pending.state).toBe('pending');
    // A second instance, built as production builds it, on the same database and gateway.
    const skewed = await startTestBot(
      {
        SLACK_BOT_TOKEN: h.fake.botToken,
        SLACK_SIGNING_SECRET: SIGNING_SECRET,
        SLACK_API_URL: h.fake.apiUrl,
        ADMIN_USER_IDS: users.admin,
        DATABASE_URL: h.bot.config.databaseUrl,
        SMS_GATEWAY_URL: h.control.sim.url,
        SMS_GATEWAY_USERNAME: 'demo',
        SMS_GATEWAY_PASSWORD: 'demo',
      },
      { now: () => new Date(Date.now() + 10 * 60_000) },
    );
    expect(await skewed.bot.tracker.reconcileStale()).toBe(1);
    const card = await unknownCard(text);

    const modal = await h.fake.state.waitFor('view', (e) => blocksOf(e.view).includes('Sent. Batch *'), {
      after: start,
    });
    const id = await newestBatch();
    const row = await h.store.outbox.get(pending.id);
    expect(row).toMatchObject({ state: 'submitted', messageId: id });
    expect(row!.reason).toMatch(/reply came late/);
    expect(blocksOf(modal.view)).toContain(`Sent. Batch *${id}*`);
    expect(blocksOf(modal.view)).toContain('shown as state unknown meanwhile');
    const audit = (await h.store.audit.recent(20)).find((a) => a.action === 'send' && a.target === id);
    expect(audit).toMatchObject({ actor: users.alice });
    expect(JSON.stringify(audit!.details)).toMatch(
      /"resolved":"late: the send had been marked state unknown/,
    );

    // The unknown card is brought up to date in place; no second card is posted.
    await h.fake.state.waitForMessage(
      (m) =>
        m.ts === card.ts && m.text.startsWith(`SMS batch ${id}:`) && blocksOf(m).includes('reply came late'),
      { after: start },
    );
    const cards = h.fake.state.messages.history(channels.smsOps).filter((m) => blocksOf(m).includes(text));
    expect(cards).toHaveLength(1);
    expect(await submitsSince()).toBe(1);
    await skewed.close();
  });
});

describe('Check the gateway on an unknown card', () => {
  it('one match: a stranger may not confirm it; the sender confirms it, and it is submitted and tracked', async () => {
    const text = 'reached the gateway';
    const { row, card } = await unknownButSent(text);
    const id = await newestBatch();
    expect(blocksOf(card)).toContain('Check the gateway');
    // Another batch at the same time that is not this send (other text) must not count as a match.
    await h.deps.gateway.submit({ from: 'SMSOPS', to: ['905321234567', '905331234567'], message: 'other' });

    h.mark();
    await h.driver.blockAction({ userId: users.bob, message: card, actionId: 'card_check_gateway' });
    await h.ephemeral(users.bob, /You need the \*viewer\* role/);

    await h.store.permissions.grant(users.bob, 'sender', users.admin);
    h.mark();
    await h.driver.blockAction({ userId: users.bob, message: card, actionId: 'card_check_gateway' });
    const bobSees = await h.ephemeral(users.bob, /one batch matching send S-\d+/);
    expect(ephemeralText(bobSees)).toContain(`batch *${id}*`);
    expect(ephemeralText(bobSees)).not.toContain('unknown_confirm_match');

    h.mark();
    await h.driver.blockAction({ userId: users.alice, message: card, actionId: 'card_check_gateway' });
    const found = await h.ephemeral(users.alice, /one batch matching send S-\d+/);
    expect(ephemeralText(found)).toContain(`It is batch ${id}`);

    // Bob presses a confirm button he was never shown: refused.
    h.mark();
    await h.driver.blockAction({ userId: users.bob, message: found, actionId: 'unknown_confirm_match' });
    await h.ephemeral(users.bob, /Only <@U\w+>, who made send S-\d+, or an admin may confirm it/);
    expect((await h.store.outbox.get(row.id))?.state).toBe('unknown');

    h.mark();
    await h.driver.blockAction({ userId: users.alice, message: found, actionId: 'unknown_confirm_match' });
    await h.ephemeral(users.alice, new RegExp(`is batch \\*${id}\\*.*Nothing was sent`));
    expect(await h.store.outbox.get(row.id)).toMatchObject({ state: 'submitted', messageId: id });
    const audit = await h.store.audit.recent(10);
    expect(audit.find((a) => a.action === 'send resolved' && a.target === id)).toMatchObject({
      actor: users.alice,
    });
    await h.fake.state.waitForMessage((m) => m.ts === card.ts && m.text.startsWith(`SMS batch ${id}:`), {
      after: start,
    });

    // Tracked: delivery shows up on the same card.
    await h.control.advance({ deliver: 1 });
    await h.tracker.pollNow(row.id);
    await h.fake.state.waitForMessage(
      (m) => m.ts === card.ts && m.text.startsWith(`SMS batch ${id}: 2 delivered`),
      { after: start },
    );
    expect(await submitsSince()).toBe(2);
    await h.store.permissions.revoke(users.bob);
  });

  it('no match: only an admin may mark it not sent, and the card, outbox and audit say so', async () => {
    // HTTP 500: the send may have arrived as far as smsops can tell, but the gateway never took it.
    await h.control.fault({ operation: 'Submit', kind: 'http500' });
    const text = 'never reached the gateway';
    await compose(text);
    const card = await unknownCard(text);
    const row = await rowWith(text, (r) => r.state === 'unknown');

    h.mark();
    await h.driver.blockAction({ userId: users.alice, message: card, actionId: 'card_check_gateway' });
    const aliceSees = await h.ephemeral(users.alice, /No batch at the gateway matches send S-\d+/);
    expect(ephemeralText(aliceSees)).toContain('An admin may mark it not sent');
    expect(ephemeralText(aliceSees)).not.toContain('unknown_mark_not_sent');

    h.mark();
    await h.driver.blockAction({ userId: users.admin, message: card, actionId: 'card_check_gateway' });
    const adminSees = await h.ephemeral(users.admin, /No batch at the gateway matches send S-\d+/);
    expect(ephemeralText(adminSees)).toContain('Mark not sent');

    h.mark();
    await h.driver.blockAction({
      userId: users.alice,
      message: adminSees,
      actionId: 'unknown_mark_not_sent',
    });
    await h.ephemeral(users.alice, /You need the \*admin\* role/);
    expect((await h.store.outbox.get(row.id))?.state).toBe('unknown');

    h.mark();
    await h.driver.blockAction({
      userId: users.admin,
      message: adminSees,
      actionId: 'unknown_mark_not_sent',
    });
    await h.ephemeral(users.admin, /is recorded as not sent\. Nothing was sent/);
    expect(await h.store.outbox.get(row.id)).toMatchObject({ state: 'failed', messageId: null });
    const audit = await h.store.audit.recent(10);
    expect(audit.find((a) => a.action === 'send marked not sent')).toMatchObject({
      actor: users.admin,
      target: `S-${row.id}`,
    });
    await h.fake.state.waitForMessage(
      (m) => m.ts === card.ts && blocksOf(m).includes('Not sent: marked not sent by an admin'),
      { after: start },
    );
    expect(await submitsSince()).toBe(1);
  });

  it('mark not sent asks the gateway again: a batch that turned up meanwhile stops it', async () => {
    await h.control.fault({ operation: 'Submit', kind: 'http500' });
    const text = 'filed late at the gateway';
    await compose(text);
    const card = await unknownCard(text);
    const row = await rowWith(text, (r) => r.state === 'unknown');
    h.mark();
    await h.driver.blockAction({ userId: users.admin, message: card, actionId: 'card_check_gateway' });
    const adminSees = await h.ephemeral(users.admin, /No batch at the gateway matches/);
    // The same batch appears at the gateway (sender, text and count alike) before the admin clicks.
    await h.deps.gateway.submit({ from: 'SMSOPS', to: ['905321234567', '905331234567'], message: text });
    h.mark();
    await h.driver.blockAction({
      userId: users.admin,
      message: adminSees,
      actionId: 'unknown_mark_not_sent',
    });
    await h.ephemeral(
      users.admin,
      new RegExp(`The gateway now has a matching batch \\(${await newestBatch()}\\)`),
    );
    expect((await h.store.outbox.get(row.id))?.state).toBe('unknown');
  });
});

describe('Check the gateway with several matching batches', () => {
  it('lists them and offers no confirm: smsops cannot tell which one the send is', async () => {
    await h.control.fault({ operation: 'Submit', kind: 'http500' });
    const text = 'sent twice from the panel';
    await compose(text);
    const card = await unknownCard(text);
    const row = await rowWith(text, (r) => r.state === 'unknown');
    for (let i = 0; i < 2; i++) {
      await h.deps.gateway.submit({ from: 'SMSOPS', to: ['905321234567', '905331234567'], message: text });
    }
    h.mark();
    await h.driver.blockAction({ userId: users.admin, message: card, actionId: 'card_check_gateway' });
    const seen = await h.ephemeral(users.admin, /2 batches at the gateway match send S-\d+/);
    expect(ephemeralText(seen)).not.toContain('unknown_confirm_match');
    expect(ephemeralText(seen)).not.toContain('unknown_mark_not_sent');
    expect((await h.store.outbox.get(row.id))?.state).toBe('unknown');
  });
});

describe('/sms status by the reference a card shows', () => {
  it('shows the unknown send, with Check the gateway; an unknown reference gets a clear message', async () => {
    const text = 'looked up by reference';
    const { row } = await unknownButSent(text);
    // The modal names the same reference the card shows.
    await h.fake.state.waitFor('view', (e) => blocksOf(e.view).includes(`/sms status S-${row.id}`), {
      after: start,
    });
    await h.sms(`status S-${row.id}`, users.alice);
    const shown = await h.ephemeral(users.alice, new RegExp(`S-${row.id}: state unknown`));
    expect(ephemeralText(shown)).toContain('Check the gateway');
    expect(ephemeralText(shown)).toContain(text);

    // From that answer the send can be resolved as from the card.
    h.mark();
    await h.driver.blockAction({ userId: users.alice, message: shown, actionId: 'card_check_gateway' });
    await h.ephemeral(users.alice, /one batch matching send S-\d+/);

    await h.sms(`status s${row.id}`, users.alice);
    await h.ephemeral(users.alice, new RegExp(`S-${row.id}: state unknown`));
    await h.sms('status S-999999', users.alice);
    await h.ephemeral(users.alice, /There is no send S-999999 in smsops/);
  });
});
