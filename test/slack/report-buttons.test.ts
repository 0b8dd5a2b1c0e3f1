import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SEEDED, type SlackMessage } from '../../workspace/index.js';
import { openWithOpenpyxl, recordsOf } from '../reports/open-xlsx.js';
import { channels, type Harness, startHarness, users } from '../support/slack-harness.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness({
    sending: { submitChunkSize: 3, confirmRecipients: 100 },
    env: { SUBMIT_CHUNK_INTERVAL_MS: '0' },
  });
  await h.store.permissions.grant(users.bob, 'viewer', users.admin);
});
afterAll(() => h.close());

let start = 0;
beforeEach(async () => {
  start = h.fake.state.journal.seq;
});

const numbers = (n: number, base: number) => Array.from({ length: n }, (_, i) => `90532${base + i}`);

async function compose(recipients: string[], text: string) {
  const view = await h.openCompose('send');
  const result = await h.submitCompose(view, { recipients: recipients.join('\n'), text });
  expect(result.outcome.kind).toBe('updated');
}

const hasButton = (m: SlackMessage, actionId: string) =>
  JSON.stringify(m.blocks ?? []).includes(`"${actionId}"`);

/** Presses the card's Report button as `user` and opens the file the bot then shares. */
async function pressReport(card: SlackMessage, actionId: string, user: string = users.admin) {
  const after = h.fake.state.journal.seq;
  await h.driver.blockAction({ userId: user, message: card, actionId });
  const shared = await h.fake.state.waitFor('file', (e) => e.action === 'shared', { after });
  const file = h.fake.state.files.get(shared.file.id)!;
  return { file, sheets: await openWithOpenpyxl(file.bytes) };
}

describe('the Report button of a card', () => {
  it('on a delivery card: a report of that send alone with its text, sent to the clicker alone; the channel is told', async () => {
    await compose(numbers(2, 2_000_000), 'the only one in this report');
    await compose(numbers(1, 2_000_100), 'another send');
    const card = await h.fake.state.waitForMessage(
      (m) => m.channel === channels.smsOps && /^SMS batch \d+:/.test(m.text) && hasButton(m, 'report_send'),
      { after: start },
    );
    const messageId = /^SMS batch (\d+):/.exec(card.text)![1]!;
    const after = h.fake.state.journal.seq;
    const { file, sheets } = await pressReport(card, 'report_send');
    expect(file.channels).toEqual([SEEDED.ims.admin]);
    await h.fake.state.waitForMessage(
      (m) =>
        m.channel === channels.smsOps && /it is sent to them alone, in their direct messages/.test(m.text),
      { after },
    );
    expect(file.name).toBe(`sms-report-batch-${messageId}.xlsx`);
    const rows = recordsOf(sheets[0]!);
    expect(rows.map((r) => r.MessageId!.v)).toEqual([messageId]);
    const row = (await h.store.outbox.getByMessageId(messageId))!;
    expect(rows[0]!['Text or template']!.v).toBe(row.text);
    expect(rows[0]!.Recipients!.v).toBe(row.recipientCount);
  });

  it('on a campaign card: one row per chunk with its campaign; a viewer gets counts only', async () => {
    await compose(numbers(8, 3_000_000), 'campaign text');
    const card = await h.fake.state.waitForMessage(
      (m) =>
        m.channel === channels.smsOps &&
        /^SMS campaign C-\d+:/.test(m.text) &&
        hasButton(m, 'report_campaign'),
      { after: start },
    );
    const id = Number(/C-(\d+)/.exec(card.text)![1]);
    expect(await h.bot.campaigns.tick()).toBe(3);
    const { file, sheets } = await pressReport(card, 'report_campaign', users.bob);
    // Counts only: shared where the card is, as before.
    expect(file.channels).toEqual([channels.smsOps]);
    expect(file.name).toBe(`sms-report-campaign-C-${id}.xlsx`);
    const rows = recordsOf(sheets[0]!);
    const chunks = await h.store.campaigns.chunks(id);
    expect(rows.map((r) => r.MessageId!.v).sort()).toEqual(chunks.map((c) => c.messageId).sort());
    expect(rows.map((r) => r.Campaign!.v)).toEqual([1, 2, 3].map((k) => `Campaign ${id}, chunk ${k} of 3`));
    expect(rows.map((r) => r.Recipients!.v)).toEqual([3, 3, 2]);
    expect(JSON.stringify(sheets)).not.toContain('campaign text');
  });
});
