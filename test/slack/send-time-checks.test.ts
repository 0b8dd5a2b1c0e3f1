import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createInboundPoster, createInboundRelay } from '../../src/bot.js';
import { silentLogger } from '../../src/log.js';
import { executeSend } from '../../src/sending/send.js';
import { sendPolicyOf } from '../../src/slack/permissions.js';
import type { ViewOutput } from '../../workspace/index.js';
import { channels, type Harness, startHarness, users } from '../support/slack-harness.js';

/**
 * Opt-outs, roles, limits and the text are checked again when the gateway is about to be called: a
 * confirm clicked long after the compose must not reach a number that sent STOP meanwhile, nor send for
 * someone whose role was taken away. A refused send leaves a failed outbox row and an audit entry.
 */

let h: Harness;

beforeAll(async () => {
  // Three recipients ask for confirmation, so there is a gap between compose and send.
  h = await startHarness({ sending: { confirmRecipients: 2 } });
});
afterAll(() => h.close());
beforeEach(() => h.control.reset());

/** Three numbers no other test uses; their opt-outs stay in this file's store. */
function threeNumbers(n: number) {
  const msisdns = [0, 1, 2].map((i) => `90532${n}00000${i}`);
  return { msisdns, typed: msisdns.map((m) => `+${m}`).join('\n') };
}

function blockText(view: { blocks: unknown[] }): string {
  return JSON.stringify(view.blocks);
}

/** Compose and submit as `user`; returns the confirmation view the bot pushed. */
async function composeAwaitingConfirm(recipients: string, text: string, user: string = users.admin) {
  const view = await h.openCompose('send', user);
  const result = await h.submitCompose(view, { recipients, text }, user);
  expect(result.outcome.kind).toBe('pushed');
  return (result.outcome as { view: ViewOutput }).view;
}

/** Confirms, and waits until the modal shows the outcome of the send (the outbox row is final by then). */
async function confirm(view: ViewOutput, user: string = users.admin): Promise<string> {
  const after = h.fake.state.journal.seq;
  const acked = await h.driver.viewSubmission({ userId: user, view });
  // The confirmation closes; the compose view below it shows the outcome.
  expect(acked.outcome.kind).toBe('closed');
  const below = view.root_view_id ?? view.id;
  const shown = await h.fake.state.waitFor(
    'view',
    (e) => e.action === 'updated' && e.view.id === below && !blockText(e.view).includes('Sending to'),
    { after },
  );
  return blockText(shown.view);
}

async function rowWithText(text: string) {
  const row = (await h.store.outbox.recent(50)).find((r) => r.text === text);
  expect(row, `an outbox row for “${text}”`).toBeDefined();
  return row!;
}

async function stopFrom(msisdn: string): Promise<void> {
  await h.control.inbound({ MSISDN: msisdn, Text: 'STOP' });
  // A relay as the bot builds it, new for each STOP: the simulator is reset between tests and hands out
  // its inbound ids again, which a relay that remembered them would take for messages already seen.
  const relay = createInboundRelay(h.bot.config, {
    gateway: h.bot.gateway,
    store: h.store,
    logger: silentLogger,
    poster: createInboundPoster(h.bot.config, {
      botToken: h.fake.botToken,
      apiUrl: h.fake.apiUrl,
      adminUserIds: [users.admin],
      logger: silentLogger,
    }),
    instanceId: `stop-${msisdn}`,
  });
  const polled = await relay.pollOnce();
  expect(polled.ok).toBe(true);
  expect(await h.store.optOuts.has(msisdn)).toBe(true);
}

describe('opt-outs are read again when the send is confirmed', () => {
  it('a number that sent STOP after the compose is left out; the others get the message, and the user is told', async () => {
    const { msisdns, typed } = threeNumbers(1);
    const confirmView = await composeAwaitingConfirm(typed, 'Sale ends tonight');
    expect(blockText(confirmView)).toContain('Send 3 SMS');

    // The number answers an earlier SMS with STOP; the inbound relay records the opt-out.
    await stopFrom(msisdns[1]!);

    const shown = await confirm(confirmView);
    expect(shown).toContain('Sent.');
    expect(shown).toMatch(
      /1 number opted out after this send was composed and was left out \(\+90 532 100 00 01\)/,
    );
    const { batches, callCounts } = await h.control.state();
    expect(callCounts.Submit).toBe(1);
    expect(batches).toHaveLength(1);
    expect(batches[0]!.recipients.map((r) => r.to).sort()).toEqual([msisdns[0], msisdns[2]]);
    const row = await rowWithText('Sale ends tonight');
    expect(row).toMatchObject({ state: 'submitted', recipientCount: 2, segments: 2 });
    expect(row.estimatedCost).toBeCloseTo(0.1);
    expect(row.payload).toMatchObject({ optedOutAtSending: [msisdns[1]] });
  });

  it('when every recipient opted out meanwhile, nothing is sent and the failed row says why', async () => {
    const { msisdns, typed } = threeNumbers(2);
    const confirmView = await composeAwaitingConfirm(typed, 'Nobody left');
    for (const msisdn of msisdns) await stopFrom(msisdn);

    const shown = await confirm(confirmView);
    expect(shown).toContain(
      'Nothing was sent or charged. Every recipient has opted out since this send was composed',
    );
    expect(await h.control.callCount('Submit')).toBe(0);
    const row = await rowWithText('Nobody left');
    expect(row.state).toBe('failed');
    expect(row.reason).toBe('refused at sending: every recipient opted out (3)');
  });
});

describe('roles are read again when the send is confirmed', () => {
  it('a role revoked between compose and confirm refuses the send, with a clear message and a record', async () => {
    await h.store.permissions.grant(users.alice, 'sender', users.admin);
    const { typed } = threeNumbers(3);
    const confirmView = await composeAwaitingConfirm(typed, 'Sent by Alice?', users.alice);
    await h.sms('revoke <@U0ALICE|alice>');
    await h.ephemeral(users.admin, /alice/i);
    expect(await h.store.permissions.getRole(users.alice)).toBeUndefined();

    const shown = await confirm(confirmView, users.alice);
    expect(shown).toContain('Nothing was sent or charged.');
    expect(shown).toContain('You need the *sender* role to send or cancel SMS; you have no smsops role yet');
    expect(await h.control.callCount('Submit')).toBe(0);
    const row = await rowWithText('Sent by Alice?');
    expect(row).toMatchObject({
      state: 'failed',
      reason: 'refused at sending: the user no longer has the sender role',
    });
    const [audit] = await h.store.audit.recent(1);
    expect(audit).toMatchObject({ actor: users.alice, action: 'send_refused', target: `outbox ${row.id}` });
  });
});

describe('the send path itself checks, whoever calls it', () => {
  const plan = (recipients: string[], text: string) => ({
    sender: 'SMSOPS',
    recipients,
    text,
    encoding: 'GSM7',
    dataCoding: 'Default' as const,
    validityMinutes: 60,
    totalSegments: recipients.length,
    estimatedCost: recipients.length * 0.05,
  });

  it('a user without the sender role is refused before the gateway is called', async () => {
    const outcome = await executeSend(
      { ...h.deps, policy: sendPolicyOf(h.deps) },
      {
        idempotencyKey: 'test:no-role',
        slackUser: users.bob,
        channel: channels.smsOps,
        plan: plan(['905321234567'], 'from a scheduled job'),
      },
    );
    expect(outcome).toMatchObject({ kind: 'refused', refusal: { kind: 'role' }, row: { state: 'failed' } });
    expect(await h.control.callCount('Submit')).toBe(0);
  });

  it('text no SMS can carry is refused, naming the character, even when it never went through the composer', async () => {
    const outcome = await executeSend(
      { ...h.deps, policy: sendPolicyOf(h.deps) },
      {
        idempotencyKey: 'test:surrogate',
        slackUser: users.admin,
        channel: channels.smsOps,
        plan: plan(['905321234567'], 'Hi \uD83D there'),
      },
    );
    expect(outcome).toMatchObject({
      kind: 'refused',
      refusal: { kind: 'unsendable-text', characters: [{ position: 4, kind: 'unpaired-surrogate' }] },
    });
    expect(outcome.row.reason).toBe(
      'refused at sending: character 4 of the text cannot be sent (unpaired-surrogate)',
    );
    expect(await h.control.callCount('Submit')).toBe(0);
  });

  it('personalised envelopes of numbers that opted out are dropped, the rest sent by SubmitMulti', async () => {
    await h.store.optOuts.add('905327000002', { source: 'manual', by: users.admin });
    const outcome = await executeSend(
      { ...h.deps, policy: sendPolicyOf(h.deps) },
      {
        idempotencyKey: 'test:envelopes',
        slackUser: users.admin,
        channel: channels.smsOps,
        plan: {
          ...plan(['905327000001', '905327000002'], 'Hello {{name}}'),
          envelopes: [
            { to: '905327000001', message: 'Hello Ada' },
            { to: '905327000002', message: 'Hello Bob' },
          ],
        },
      },
    );
    expect(outcome.kind).toBe('submitted');
    const { batches } = await h.control.state();
    expect(batches[0]!.recipients.map((r) => [r.to, r.text])).toEqual([['905327000001', 'Hello Ada']]);
    expect(outcome.row).toMatchObject({ recipientCount: 1, segments: 1 });
  });
});
