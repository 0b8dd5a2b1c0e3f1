import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeText } from '../../src/sms/index.js';
import type { SlackMessage } from '../../workspace/index.js';
import { parseExposition, sampleSum } from '../metrics/scrape.js';
import { channels, type Harness, openAppHome, startHarness, users } from '../support/slack-harness.js';

/**
 * Segments as a person reads them after a day of mixed sends: single batches and a campaign in chunks, GSM-7,
 * Turkish single shift and UCS-2, one and several segments, and a personalised send whose messages differ in
 * length. App Home's "Today's sends", each card and `/sms status` must agree with what the texts need.
 */

let h: Harness;

beforeAll(async () => {
  h = await startHarness({
    sending: { submitChunkSize: 3, confirmRecipients: 100 },
    env: { SUBMIT_CHUNK_INTERVAL_MS: '0', METRICS_PORT: '9464' },
  });
});
afterAll(() => h.close());

const numbers = (from: number, count: number) =>
  Array.from({ length: count }, (_, i) => `90532${1_000_000 + from + i}`);

const blockText = (x: { blocks?: unknown[] }) => JSON.stringify(x.blocks ?? []);

/** Each message's own segments in the coding smsops picks: what the test expects, summed. */
const segmentsOf = (text: string) => analyzeText(text).segments;

async function sendSame(text: string, to: string[]): Promise<void> {
  const view = await h.openCompose('send');
  const result = await h.submitCompose(view, { recipients: to.join('\n'), text });
  expect(result.outcome.kind).toBe('updated');
}

async function cardOf(match: RegExp, after: number): Promise<SlackMessage> {
  return h.fake.state.waitForMessage(
    (m) => m.channel === channels.smsOps && match.test(`${m.text}\n${blockText(m)}`),
    { after },
  );
}

/** The batch sent with this text once its card is posted: the bot writes it after the ack. */
async function batchCard(text: string): Promise<SlackMessage> {
  for (;;) {
    const seq = h.fake.state.journal.seq;
    const row = (await h.store.outbox.recent(100)).find(
      (r) => r.text === text && r.state === 'submitted' && r.messageTs !== null,
    );
    if (row) return h.fake.state.messages.history(channels.smsOps).find((m) => m.ts === row.messageTs)!;
    await h.fake.state.waitFor('call', () => true, { timeoutMs: 5_000, after: seq });
  }
}

async function homeText(): Promise<string> {
  return (await openAppHome(h, users.admin)).text;
}

describe("segments summed over a day's mixed sends", () => {
  it('App Home, the cards and /sms status count each message once, in its own segments', async () => {
    const start = h.fake.state.journal.seq;
    const expected: number[] = [];

    // A campaign: 8 recipients in chunks of 3, 3 and 2, one GSM-7 segment each.
    const campaignText = 'Kampanya: bu hafta sonu indirim';
    await sendSame(campaignText, numbers(0, 8));
    expected.push(8 * segmentsOf(campaignText));
    while ((await h.bot.campaigns.tick()) > 0);
    const campaignCard = await cardOf(/^SMS campaign C-\d+:.*8 of 8 sent/, start);
    expect(blockText(campaignCard)).toMatch(new RegExp(`Segments\\*\\\\n${8 * segmentsOf(campaignText)}"`));

    // Turkish single shift, two segments, to three numbers (one batch).
    const turkish = 'Sayın müşterimiz, şubemiz Çarşı’da değil; İstiklal Caddesi’ne taşındı. '
      .repeat(2)
      .trim();
    expect(analyzeText(turkish).encoding).not.toBe('GSM7');
    expect(segmentsOf(turkish)).toBeGreaterThan(1);
    await sendSame(turkish, numbers(100, 3));
    expected.push(3 * segmentsOf(turkish));
    const turkishCard = await batchCard(turkish);
    expect(blockText(turkishCard)).toMatch(new RegExp(`Segments\\*\\\\n${3 * segmentsOf(turkish)}"`));

    // UCS-2 (an emoji), to two numbers.
    const emoji = 'Teşekkürler 🎉 görüşmek üzere';
    expect(analyzeText(emoji).encoding).toBe('UCS2');
    await sendSame(emoji, numbers(200, 2));
    expected.push(2 * segmentsOf(emoji));
    await batchCard(emoji);

    // Personalised: one short message and one long one, so the messages differ in segments.
    const view = await h.chooseInCompose(await h.openCompose('send'), 'mode', 'personalised');
    const [short, long] = numbers(300, 2);
    const longName = 'Abdurrahman'.repeat(16);
    const csv = `number,name\n${short},Ali\n${long},${longName}`;
    const personalised = await h.submitCompose(view, { csv, text: 'Merhaba {{name}}' });
    expect(personalised.outcome.kind).toBe('updated');
    expected.push(segmentsOf('Merhaba Ali') + segmentsOf(`Merhaba ${longName}`));
    expect(segmentsOf(`Merhaba ${longName}`)).toBeGreaterThan(1);
    await batchCard('Merhaba {{name}}');

    const total = expected.reduce((a, b) => a + b, 0);
    const home = await homeText();
    expect(home).toMatch(/Recipients\*\\n15"/);
    expect(home).toMatch(new RegExp(`Segments\\*\\\\n${total}"`));

    const metrics = parseExposition(await (await fetch(h.bot.metrics!.url)).text());
    expect(sampleSum(metrics, 'smsops_sms_segments_total')).toBe(total);

    // /sms status of one campaign chunk: that chunk's messages only.
    const chunk = (await h.store.outbox.recent(50)).find(
      (r) => r.text === campaignText && r.recipientCount === 3,
    )!;
    await h.sms(`status ${chunk.messageId}`);
    const status = await h.ephemeral(users.admin, new RegExp(`SMS batch ${chunk.messageId}`));
    expect(blockText(status)).toMatch(new RegExp(`Segments\\*\\\\n${3 * segmentsOf(campaignText)}"`));
  });
});
