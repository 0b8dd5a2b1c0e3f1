import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { SlackMessage } from '../../workspace/index.js';
import { channels, ephemeralText, type Harness, startHarness, users } from '../support/slack-harness.js';

/**
 * Cancel against a campaign's chunks in flight, through the real bot, the local workspace and the simulator: a chunk
 * whose Submit was in flight when Cancel was pressed has no MessageId to cancel yet. Whatever path later records it
 * must cancel it at the gateway, or up to SUBMIT_CHUNK_SIZE messages go out after the Cancel. The simulator is not
 * reset between tests (a reset starts MessageIds again, which Check the gateway rightly takes for another send's).
 */

let h: Harness;
/** How far the bot's clock runs ahead of the real one: a test moves it instead of sleeping. */
let ahead = 0;

beforeAll(async () => {
  h = await startHarness({
    now: () => new Date(Date.now() + ahead),
    sending: { submitChunkSize: 3, confirmRecipients: 100 },
    env: { SUBMIT_CHUNK_INTERVAL_MS: '0' },
  });
});
afterAll(() => h.close());

/** Eight distinct numbers: chunks of 3, 3 and 2. */
const NUMBERS = Array.from({ length: 8 }, (_, i) => `90532${1_000_000 + i}`);

const blockText = (x: { blocks?: unknown[] }) => JSON.stringify(x.blocks ?? []);

async function startCampaign(text: string) {
  const start = h.fake.state.journal.seq;
  const view = await h.openCompose('send');
  const result = await h.submitCompose(view, { recipients: NUMBERS.join('\n'), text });
  expect(result.outcome.kind).toBe('updated');
  const card = await h.fake.state.waitForMessage(
    (m) =>
      m.channel === channels.smsOps && /^SMS campaign C-\d+:/.test(m.text) && blockText(m).includes(text),
    { after: start },
  );
  return { card, id: Number(/C-(\d+)/.exec(card.text)![1]), start };
}

function cardShows(card: SlackMessage, match: RegExp, after = 0): Promise<SlackMessage> {
  return h.fake.state.waitForMessage((m) => m.ts === card.ts && match.test(`${m.text}\n${blockText(m)}`), {
    after,
    timeoutMs: 15_000,
  });
}

async function submitsOf(texts: string) {
  return (await h.control.state()).batches.filter((b) => b.recipients[0]?.text === texts);
}

describe('a chunk that becomes known after its campaign was cancelled', () => {
  it('cancelled while its Submit was in flight, then found with Check the gateway: it is cancelled at the gateway too', async () => {
    const cancels = await h.control.callCount('Cancel');
    const { card, id, start } = await startCampaign('Cancelled mid-chunk');
    await h.bot.campaigns.tick({ maxChunks: 1 });
    const running = await cardShows(card, /3 of 8 sent/, start);
    // The gateway takes chunk 2, but its reply never comes within the timeout.
    await h.control.fault({ operation: 'Submit', kind: 'timeout', delayMs: 4_000, times: 1 });
    const ticking = h.bot.campaigns.tick({ maxChunks: 1 });
    await vi.waitFor(async () => {
      const rows = (await h.store.outbox.recent(10)).filter((r) => r.campaignId === id);
      expect(rows.map((r) => r.state).sort()).toEqual(['pending', 'submitted']);
    });
    h.mark();
    await h.driver.blockAction({ userId: users.admin, message: running, actionId: 'campaign_cancel' });
    await h.ephemeral(users.admin, /Campaign C-\d+ cancelled: no further chunk is sent; 1 sent chunk/);
    await ticking;
    const chunk2 = (await h.store.outbox.recent(10)).find(
      (r) => r.campaignId === id && r.state === 'unknown',
    );
    expect(chunk2, 'chunk 2 of unknown fate').toBeDefined();
    expect(await h.control.callCount('Cancel')).toBe(cancels + 1);

    // A person resolves it from /sms status, as the card says: it is the gateway's batch.
    await h.sms(`status S-${chunk2!.id}`);
    const shown = await h.ephemeral(users.admin, new RegExp(`S-${chunk2!.id}: state unknown`));
    h.mark();
    await h.driver.blockAction({ userId: users.admin, message: shown, actionId: 'card_check_gateway' });
    const found = await h.ephemeral(users.admin, /one batch matching send S-\d+/);
    h.mark();
    await h.driver.blockAction({ userId: users.admin, message: found, actionId: 'unknown_confirm_match' });
    const told = await h.ephemeral(
      users.admin,
      /a chunk of campaign C-\d+, which was cancelled: it is cancelled at the gateway now/,
    );
    // Its Submit went through before the cancel: some of it may have gone out, and the person is not told otherwise.
    expect(ephemeralText(told)).not.toContain('Nothing was sent');
    expect(ephemeralText(told)).toContain('What it sent before the cancel has gone');

    expect(await h.control.callCount('Cancel')).toBe(cancels + 2);
    expect((await h.store.outbox.get(chunk2!.id))?.state).toBe('cancelled');
    // At the gateway, chunk 2's messages are cancelled: none of them goes out after the Cancel.
    const messageId = (await h.store.outbox.get(chunk2!.id))?.messageId;
    await h.control.advance({ deliver: 1 });
    const second = (await h.control.state()).batches.find((b) => String(b.id) === messageId);
    expect(second?.cancelled).toBe(3);
    expect(second?.delivered).toBe(0);
    expect(await submitsOf('Cancelled mid-chunk')).toHaveLength(2);
  });

  it('cancelled while its Submit was in flight, and the store fails as the runner moves on: it is cancelled at the gateway all the same', async () => {
    const cancels = await h.control.callCount('Cancel');
    const { card, id, start } = await startCampaign('Cancelled, then a store blip');
    await h.bot.campaigns.tick({ maxChunks: 1 });
    const running = await cardShows(card, /3 of 8 sent/, start);
    // The gateway takes chunk 2 and answers, but only after the Cancel has been pressed.
    await h.control.fault({ operation: 'Submit', kind: 'trickle', delayMs: 1_500, times: 1 });
    const advance = vi
      .spyOn(h.store.campaigns, 'advance')
      .mockRejectedValueOnce(new Error('database is locked'));
    try {
      const ticking = h.bot.campaigns.tick({ maxChunks: 1 });
      await vi.waitFor(async () => {
        const rows = (await h.store.outbox.recent(10)).filter((r) => r.campaignId === id);
        expect(rows.map((r) => r.state).sort()).toEqual(['pending', 'submitted']);
      });
      h.mark();
      await h.driver.blockAction({ userId: users.admin, message: running, actionId: 'campaign_cancel' });
      await h.ephemeral(users.admin, /Campaign C-\d+ cancelled/);
      await ticking;
      expect(advance).toHaveBeenCalled();
    } finally {
      advance.mockRestore();
    }
    // No tracker pass yet: the runner itself cancelled chunk 2 at the gateway.
    const chunk2 = (await h.store.outbox.recent(10)).find(
      (r) => r.campaignId === id && r.campaignChunk === 1,
    );
    expect(chunk2?.state).toBe('cancelled');
    expect(await h.control.callCount('Cancel')).toBe(cancels + 2);
    const batch = (await h.control.state()).batches.find((b) => String(b.id) === chunk2?.messageId);
    expect(batch?.cancelled).toBe(3);
  });

  it('a submitted chunk whose campaign was cancelled without reaching the gateway (its process died) is cancelled by the delivery tracker', async () => {
    const cancels = await h.control.callCount('Cancel');
    const { card, id, start } = await startCampaign('Cancel cut off');
    await h.bot.campaigns.tick({ maxChunks: 1 });
    await cardShows(card, /3 of 8 sent/, start);
    const chunk1 = (await h.store.outbox.recent(10)).find((r) => r.campaignId === id)!;
    expect(chunk1.state).toBe('submitted');
    // The Cancel was recorded, and the process stopped before it reached the gateway.
    await h.store.campaigns.cancel(id, users.admin, new Date());
    expect(await h.control.callCount('Cancel')).toBe(cancels);
    ahead += 60_000; // its next poll is due
    try {
      await h.tracker.tick();
    } finally {
      ahead = 0;
    }
    expect(await h.control.callCount('Cancel')).toBe(cancels + 1);
    expect((await h.store.outbox.get(chunk1.id))?.state).toBe('cancelled');
    const batch = (await h.control.state()).batches.find((b) => String(b.id) === chunk1.messageId);
    expect(batch?.cancelled).toBe(3);
  });

  it('says on a running card what Cancel can still stop, and after a Cancel offers Send the rest: the chunks never submitted', async () => {
    const { card, id, start } = await startCampaign('Stopped short');
    await h.bot.campaigns.tick({ maxChunks: 2 });
    const running = await cardShows(card, /6 of 8 sent/, start);
    expect(blockText(running)).toContain(
      'Cancel stops the 1 chunk not submitted yet and, of the chunks already at the gateway, what it has not sent yet',
    );
    h.mark();
    await h.driver.blockAction({ userId: users.admin, message: running, actionId: 'campaign_cancel' });
    await h.ephemeral(users.admin, /Campaign C-\d+ cancelled/);
    const cancelled = await cardShows(card, /Cancelled by/, start);
    expect(blockText(cancelled)).toContain('campaign_send_rest');
    expect(blockText(cancelled)).toContain('those of the chunks never submitted before the cancel');
    expect(blockText(cancelled)).not.toContain('Cancel stops');

    h.mark();
    await h.driver.blockAction({ userId: users.admin, message: cancelled, actionId: 'campaign_send_rest' });
    await h.ephemeral(users.admin, /the chunks never sent before the cancel go now/);
    while ((await h.bot.campaigns.tick()) > 0);
    expect((await h.store.campaigns.get(id))?.state).toBe('done');
    // Only chunk 3 went again: the two cancelled at the gateway are not sent a second time.
    const batches = await submitsOf('Stopped short');
    expect(batches.map((b) => b.recipients.map((r) => r.to))).toEqual([
      NUMBERS.slice(0, 3),
      NUMBERS.slice(3, 6),
      NUMBERS.slice(6),
    ]);
  });
});
