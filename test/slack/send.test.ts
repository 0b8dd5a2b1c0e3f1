import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ViewOutput } from '../../workspace/index.js';
import {
  channels,
  ephemeralText,
  type Harness,
  startHarness,
  textBlockOf,
  users,
} from '../support/slack-harness.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness({ sending: { maxRecipients: 10_000 } });
  await h.store.permissions.grant(users.alice, 'sender', users.admin);
});
afterAll(() => h.close());
/** Journal position at the start of each test: waits never match what an earlier test caused. */
let start = 0;
beforeEach(async () => {
  await h.control.reset();
  start = h.fake.state.journal.seq;
});

const THREE = '0532 123 45 67\n+90 533 123 45 67, 905341234567';

function openCompose(text = 'send', user: string = users.admin): Promise<ViewOutput> {
  return h.openCompose(text, user);
}

function blockText(view: { blocks: unknown[] }): string {
  return JSON.stringify(view.blocks);
}

async function submitCompose(view: ViewOutput, values: Record<string, string>, user: string = users.admin) {
  const textBlock = (view.blocks as { block_id?: string }[]).find((b) => b.block_id?.startsWith('text'))!
    .block_id!;
  const given: Record<string, Record<string, string>> = {};
  for (const [field, value] of Object.entries(values)) {
    const block = field === 'text' ? textBlock : field;
    given[block] = { [field]: value };
  }
  return h.driver.viewSubmission({ userId: user, view, values: given });
}

async function cardFor(messageId: number | string) {
  return h.fake.state.waitForMessage(
    (m) => m.channel === channels.smsOps && m.text.startsWith(`SMS batch ${messageId}:`),
    { after: start },
  );
}

describe('/sms send: the compose modal', () => {
  it('opens prefilled from the arguments, with the live estimate', async () => {
    const view = await openCompose('send 0532 123 45 67 Your order is ready');
    const text = blockText(view);
    expect(text).toContain('0532 123 45 67');
    expect(text).toContain('Your order is ready');
    expect(text).toMatch(/GSM-7.*19 characters.*1 segment per message.*1 recipient/);
    expect(text).toContain('Simulated gateway');
    // The sender list comes from GetSenders, the default preselected.
    expect(text).toContain('SMSOPS (default)');
  });

  it('updates the estimate while the user types, naming what forces UCS-2', async () => {
    const view = await openCompose('send');
    const textBlock = textBlockOf(view);
    const after = h.fake.state.journal.seq;
    await h.driver.blockAction({
      userId: users.admin,
      view,
      actionId: 'text',
      blockId: textBlock,
      value: 'Merhaba 😀',
      values: { recipients: { recipients: THREE }, [textBlock]: { text: 'Merhaba 😀' } },
    });
    const call = await h.fake.state.waitForCall('views.update', () => true, { after });
    const updated = JSON.stringify((call.args.view as { blocks: unknown[] }).blocks);
    expect(updated).toContain('UCS-2');
    expect(updated).toContain('3 recipients');
    expect(updated).toContain('“😀”');
  });
});

describe('/sms send: the estimate while typing fast', () => {
  it('ends showing the latest text when keystrokes race, each update with the hash as last seen', async () => {
    const view = await openCompose('send');
    const textBlock = textBlockOf(view);
    const after = h.fake.state.journal.seq;
    const typed = ['Hi', 'Hi there', `Hi there, ${'long text '.repeat(20)}`];
    // Three keystrokes' actions leave before the bot has answered any: each carries the hash of the view as
    // it was when typed, as Slack's do.
    await Promise.all(
      typed.map((text) =>
        h.driver.blockAction({
          userId: users.admin,
          view,
          actionId: 'text',
          blockId: textBlock,
          value: text,
          values: { recipients: { recipients: THREE }, [textBlock]: { text } },
        }),
      ),
    );
    const latest = /210 characters.*2 segments per message/;
    await h.fake.state.waitFor(
      'view',
      (e) => e.view.id === view.id && latest.test(JSON.stringify(e.view.blocks)),
      { after, timeoutMs: 5_000 },
    );
    // No update went out with a hash Slack had already replaced.
    const updates = h.fake.state.calls('views.update').filter((c) => c.seq > after);
    expect(updates.filter((c) => c.result.error === 'hash_conflict')).toEqual([]);
  });
});

describe('/sms send: validation changes nothing', () => {
  it('lists invalid numbers with their line and reason', async () => {
    const view = await openCompose();
    const result = await submitCompose(view, { recipients: '0532 123 45 67\n12\nhello', text: 'Hi' });
    expect(result.outcome.kind).toBe('errors');
    const errors = (result.outcome as { errors: Record<string, string> }).errors;
    expect(errors.recipients).toMatch(/Line 2: “12” — too short/);
    expect(errors.recipients).toMatch(/Line 3: “hello” — not a phone number/);
    expect(await h.store.outbox.recent(10)).toEqual([]);
    expect(await h.control.callCount('Submit')).toBe(0);
  });

  it('refuses empty text, too many segments and an over-long recipient list', async () => {
    const view = await openCompose();
    const empty = await submitCompose(view, { recipients: THREE, text: '   ' });
    expect((empty.outcome as { errors: Record<string, string> }).errors).toMatchObject({
      [(view.blocks as { block_id?: string }[]).find((b) => b.block_id?.startsWith('text'))!.block_id!]:
        'Write the message text.',
    });
    const long = await submitCompose(view, { recipients: THREE, text: 'x'.repeat(153 * 6 + 1) });
    expect(JSON.stringify(long.outcome)).toMatch(/needs 7 segments; the limit is 6/);
    // MAX_RECIPIENTS is 100,000 by default; this bot runs with 10,000 so the list stays a paste.
    const many = Array.from({ length: 10_001 }, (_, i) => `90532${1_000_000 + i}`).join('\n');
    const tooMany = await submitCompose(view, { recipients: many, text: 'hi' });
    expect(JSON.stringify(tooMany.outcome)).toMatch(/10,001 recipients is more than the limit of 10,000/);
    expect(await h.control.callCount('Submit')).toBe(0);
  });

  it('merges duplicates and removes opted-out numbers, with a notice', async () => {
    await h.store.optOuts.add('905341234567', { source: 'manual', by: users.admin });
    const view = await openCompose();
    const result = await submitCompose(view, { recipients: `${THREE}\n0532 123 45 67`, text: 'Hello' });
    expect(result.outcome.kind).toBe('updated');
    const card = await h.fake.state.waitForMessage(
      (m) => m.channel === channels.smsOps && /SMS batch \d+:/.test(m.text),
      { after: start },
    );
    expect(card.text).toMatch(/2 pending/);
    const resultView = await h.fake.state.waitFor(
      'view',
      (e) => e.action === 'updated' && blockText(e.view).includes('Sent.'),
      { after: start },
    );
    expect(resultView).toBeDefined();
    await h.store.optOuts.remove('905341234567');
  });

  it('refuses a template placeholder with no column', async () => {
    const view = await openCompose();
    const personal = await h.chooseInCompose(view, 'mode', 'personalised');
    expect(blockText(personal)).toContain('Recipients as CSV');
    const result = await submitCompose(personal, {
      csv: 'number,name\n05321234567,Ayşe',
      text: 'Hello {{name}}, code {{code}}',
    });
    expect(JSON.stringify(result.outcome)).toMatch(/No column for \{\{code\}\}/);
  });
});

describe('/sms send: sending', () => {
  it('sends once, posts a delivery card, and the card fills in as messages are delivered', async () => {
    const view = await openCompose();
    const result = await submitCompose(view, { recipients: THREE, text: 'Your order is ready' });
    expect(result.outcome.kind).toBe('updated');
    expect(blockText((result.outcome as { view: ViewOutput }).view)).toContain('Sending to 3 recipients');
    const row = await waitForRow(
      (r) => r.text === 'Your order is ready' && r.state === 'submitted' && r.messageTs !== null,
    );
    expect(row.recipientCount).toBe(3);
    const card = await cardFor(row.messageId!);
    expect(card.text).toBe(`SMS batch ${row.messageId}: 0 delivered, 0 undelivered, 3 pending`);
    expect(await h.control.callCount('Submit')).toBe(1);

    await h.control.advance({ deliver: 2 / 3 });
    await h.tracker.pollNow(row.id);
    const updated = await h.fake.state.waitForMessage(
      (m) =>
        m.ts === card.ts && m.text === `SMS batch ${row.messageId}: 2 delivered, 1 undelivered, 0 pending`,
      { after: start },
    );
    expect(JSON.stringify(updated.blocks)).toContain('Final: PartiallyDelivered');
    // Final cards lose their buttons: nothing left to refresh or cancel.
    expect(JSON.stringify(updated.blocks)).not.toContain('card_cancel');
  });

  it('a repeated submission (Slack retry or double click) sends nothing twice', async () => {
    const view = await openCompose();
    const values = { recipients: THREE, text: 'Only once' };
    const first = submitCompose(view, values);
    const second = submitCompose(view, values);
    await Promise.all([first, second]);
    await waitForRow((r) => r.text === 'Only once' && r.state === 'submitted');
    await h.fake.state.waitFor('view', (e) => blockText(e.view).includes('already made'), { after: start });
    expect(await h.control.callCount('Submit')).toBe(1);
    expect((await h.store.outbox.recent(50)).filter((r) => r.text === 'Only once')).toHaveLength(1);
  });

  it('asks for confirmation above CONFIRM_RECIPIENTS; only the confirm button sends', async () => {
    const view = await openCompose();
    const numbers = Array.from({ length: 60 }, (_, i) => `90532${1_000_000 + i}`).join('\n');
    const result = await submitCompose(view, { recipients: numbers, text: 'Big send' });
    expect(result.outcome.kind).toBe('pushed');
    const confirm = (result.outcome as { view: ViewOutput }).view;
    expect(blockText(confirm)).toMatch(/Send 60 SMS for about 3,00 ₺\?/);
    expect(await h.control.callCount('Submit')).toBe(0);
    const sent = await h.driver.viewSubmission({ userId: users.admin, view: confirm });
    // The confirmation closes; the compose view below it shows the send, so one modal is left.
    expect(sent.outcome.kind).toBe('closed');
    expect(h.fake.state.views.stack(users.admin)).toHaveLength(1);
    const row = await waitForRow((r) => r.text === 'Big send' && r.state === 'submitted');
    expect(row.recipientCount).toBe(60);
    expect(await h.control.callCount('Submit')).toBe(1);
  });

  it('a gateway rejection is shown with its description and the row is failed', async () => {
    await h.control.fault({ operation: 'Submit', kind: 'status', code: 402 });
    const view = await openCompose();
    await submitCompose(view, { recipients: THREE, text: 'No money' });
    await h.fake.state.waitFor('view', (e) => blockText(e.view).includes('The gateway refused the send'), {
      after: start,
    });
    const row = await waitForRow((r) => r.text === 'No money');
    expect(row.state).toBe('failed');
    expect(row.reason).toContain('Simulated fault');
  });

  it('a timeout after the gateway took the send leaves the row unknown and never resends', async () => {
    await h.control.fault({ operation: 'Submit', kind: 'timeout', delayMs: 10_000 });
    const view = await openCompose();
    await submitCompose(view, { recipients: THREE, text: 'Maybe sent' });
    await h.fake.state.waitFor('view', (e) => blockText(e.view).includes('State unknown'), { after: start });
    const row = await waitForRow((r) => r.text === 'Maybe sent');
    expect(row.state).toBe('unknown');
    const card = await h.fake.state.waitForMessage(
      (m) => m.channel === channels.smsOps && JSON.stringify(m.blocks).includes('State unknown'),
      { after: start },
    );
    expect(card).toBeDefined();
    expect(await h.control.callCount('Submit')).toBe(1);
  });
});

describe('roles on sending and cancelling', () => {
  it('a user without the sender role cannot open the composer, and a role lost meanwhile stops the submit', async () => {
    await h.sms('send', users.bob);
    const denial = await h.ephemeral(users.bob, /You need the \*sender\* role/);
    expect(ephemeralText(denial)).toContain('/sms grant @you sender');

    await h.store.permissions.grant(users.bob, 'sender', users.admin);
    const view = await openCompose('send', users.bob);
    await h.store.permissions.revoke(users.bob);
    const result = await submitCompose(view, { recipients: THREE, text: 'sneaky' }, users.bob);
    expect(blockText((result.outcome as { view: ViewOutput }).view)).toContain('You need the *sender* role');
    expect(await h.control.callCount('Submit')).toBe(0);
  });

  it('the card Cancel button works for the batch sender, not for others; /sms cancel asks first', async () => {
    const view = await openCompose('send', users.alice);
    await submitCompose(view, { recipients: THREE, text: 'Cancel me' }, users.alice);
    const row = await waitForRow((r) => r.text === 'Cancel me' && r.messageTs !== null);
    const card = await cardFor(row.messageId!);

    h.mark();
    await h.driver.blockAction({ userId: users.bob, message: card, actionId: 'card_cancel' });
    await h.ephemeral(users.bob, /You need the \*sender\* role/);
    await h.store.permissions.grant(users.bob, 'sender', users.admin);
    h.mark();
    await h.driver.blockAction({ userId: users.bob, message: card, actionId: 'card_cancel' });
    await h.ephemeral(users.bob, /Only the sender of batch/);
    // /sms cancel applies the same rule: another sender's batch, or one smsops did not send, is refused.
    await h.sms(`cancel ${row.messageId}`, users.bob);
    await h.ephemeral(
      users.bob,
      new RegExp(`Batch ${row.messageId} was sent by <@${users.alice}>: only they or an admin may cancel it`),
    );
    await h.sms('cancel 999999', users.bob);
    await h.ephemeral(users.bob, /Batch 999999 was not sent from smsops: only an admin may cancel it/);
    expect(await h.control.callCount('Cancel')).toBe(0);

    await h.sms(`cancel ${row.messageId}`, users.alice);
    const question = await h.ephemeral(users.alice, /Cancel batch/);
    h.mark();
    await h.driver.blockAction({ userId: users.alice, message: question, actionId: 'cancel_confirm' });
    await h.ephemeral(users.alice, new RegExp(`Batch ${row.messageId} cancelled`));
    expect(await h.control.callCount('Cancel')).toBe(1);
    const cancelled = await h.store.outbox.get(row.id);
    expect(cancelled?.state).toBe('cancelled');
    await h.fake.state.waitForMessage(
      (m) => m.ts === card.ts && JSON.stringify(m.blocks).includes('Cancelled by'),
      { after: start },
    );
    await h.store.permissions.revoke(users.bob);
  });

  it('/sms status shows a batch; a malformed or unknown id gets a clear message', async () => {
    const { messageId } = await h.deps.gateway.submit({
      from: 'ACME',
      to: ['905321234567'],
      message: 'from the panel',
    });
    await h.sms(`status ${messageId}`);
    await h.ephemeral(users.admin, new RegExp(`SMS batch ${messageId}`));
    await h.sms('status abc');
    await h.ephemeral(users.admin, /“abc” is not a MessageId/);
    await h.sms('status 999999');
    await h.ephemeral(users.admin, /does not know batch 999999/);
  });
});

async function waitForRow(
  predicate: (row: Awaited<ReturnType<typeof h.store.outbox.recent>>[number]) => boolean,
) {
  // The outbox is written by the bot after the ack; its steps show in the fake Slack as they happen.
  for (;;) {
    const seq = h.fake.state.journal.seq;
    const row = (await h.store.outbox.recent(100)).find(predicate);
    if (row) return row;
    await h.fake.state.waitFor('call', () => true, { timeoutMs: 5_000, after: seq });
  }
}
