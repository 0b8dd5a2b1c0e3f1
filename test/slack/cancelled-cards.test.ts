import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SlackMessage } from '../../workspace/index.js';
import { channels, type Harness, startHarness, users } from '../support/slack-harness.js';

/**
 * The card of a cancelled batch or campaign, as a person reads it afterwards: what was delivered before the
 * Cancel, what the gateway cancelled, and no more polling once the gateway's report is final. The simulator
 * cancels every message still queued and reports the batch final (Cancelled or PartiallyDelivered).
 */

let h: Harness;

beforeAll(async () => {
  h = await startHarness({
    sending: { submitChunkSize: 3, confirmRecipients: 100 },
    env: { SUBMIT_CHUNK_INTERVAL_MS: '0' },
  });
});
afterAll(() => h.close());

let start = 0;
beforeEach(async () => {
  // What an earlier test left open must not take this test's polls.
  while ((await h.bot.campaigns.tick()) > 0);
  await h.control.reset();
  start = h.fake.state.journal.seq;
});

const NUMBERS = Array.from({ length: 8 }, (_, i) => `90533${1_000_000 + i}`);
const blockText = (x: { blocks?: unknown[] }) => JSON.stringify(x.blocks ?? []);

function cardShows(card: SlackMessage, match: RegExp): Promise<SlackMessage> {
  return h.fake.state.waitForMessage((m) => m.ts === card.ts && match.test(`${m.text}\n${blockText(m)}`), {
    after: start,
    timeoutMs: 15_000,
  });
}

/** Every due poll, until the tracker finds none: what its loop would do over the next minutes. */
async function trackerSettles(): Promise<void> {
  while ((await h.tracker.tick()) > 0);
}

describe('a cancelled campaign’s card', () => {
  it('shows what was delivered before and what the gateway cancelled, and stops being tracked', async () => {
    const view = await h.openCompose('send');
    await h.submitCompose(view, { recipients: NUMBERS.join('\n'), text: 'Cancel me midway' });
    const card = await h.fake.state.waitForMessage(
      (m) => m.channel === channels.smsOps && /^SMS campaign C-\d+:/.test(m.text),
      { after: start },
    );
    // Two chunks of three go; one of each is delivered; then the campaign is cancelled.
    expect(await h.bot.campaigns.tick({ maxChunks: 2 })).toBe(2);
    await h.control.advance({ share: 0.34, deliver: 1 });
    const sent = await cardShows(card, /6 of 8 sent/);
    await h.driver.blockAction({ userId: users.admin, message: sent, actionId: 'campaign_cancel' });
    await cardShows(card, /Cancelled by/);
    expect(await h.control.callCount('Cancel')).toBe(2);

    await trackerSettles();
    const final = await cardShows(card, /2 delivered, 0 undelivered, 4 cancelled/);
    expect(final.text).toMatch(/6 of 8 sent, 2 not sent/);
    expect(blockText(final)).toContain('the gateway cancelled what it had not sent');
    expect(blockText(final)).not.toContain('pending');
    expect(blockText(final)).not.toContain('campaign_refresh');

    // Tracked no more: nothing of it is ever due for a poll again.
    const id = Number(/C-(\d+)/.exec(card.text)![1]);
    const tomorrow = new Date(Date.now() + 24 * 3_600_000);
    expect((await h.store.outbox.dueForPoll(tomorrow, 100)).filter((r) => r.campaignId === id)).toEqual([]);
  });
});

describe('a cancelled batch’s card', () => {
  it('shows what was delivered before the Cancel and what was cancelled', async () => {
    const view = await h.openCompose('send');
    await h.submitCompose(view, { recipients: NUMBERS.slice(0, 3).join('\n'), text: 'Cancel this batch' });
    const card = await h.fake.state.waitForMessage(
      (m) => m.channel === channels.smsOps && /^SMS batch \d+:/.test(m.text),
      { after: start },
    );
    const messageId = /SMS batch (\d+)/.exec(card.text)![1]!;
    await h.control.advance({ share: 0.34, deliver: 1 });

    await h.sms(`cancel ${messageId}`);
    const question = await h.ephemeral(users.admin, /Cancel batch/);
    h.mark();
    await h.driver.blockAction({ userId: users.admin, message: question, actionId: 'cancel_confirm' });
    await h.ephemeral(users.admin, new RegExp(`Batch ${messageId} cancelled`));

    await trackerSettles();
    const final = await cardShows(card, /cancelled; 1 delivered, 0 undelivered, 2 cancelled/);
    expect(blockText(final)).toContain('2 cancelled');
    expect(blockText(final)).not.toContain('card_cancel');
    const row = await h.store.outbox.getByMessageId(messageId);
    expect(row?.delivery.final).toBe(true);
  });
});
