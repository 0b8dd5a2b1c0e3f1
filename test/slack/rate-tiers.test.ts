import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/log.js';
import { CARD_UPDATES_PER_MINUTE, CardUpdater } from '../../src/slack/card-updates.js';
import type { SlackDeps } from '../../src/slack/deps.js';
import { deliveryCard } from '../../src/slack/ui/card.js';
import type { OutboxRow } from '../../src/store/index.js';
import { TIER_PER_MINUTE } from '../../workspace/web-api/rate-limiter.js';
import { channels, type Harness, startHarness, users } from '../support/slack-harness.js';
import { clientFor, fakeSlack } from '../workspace/helpers.js';

// What a card needs of the bot's settings: the zone it shows times in, whether the gateway is simulated, and
// SUBMIT_CHUNK_SIZE (a scheduled send's card says whether it will go as a campaign).
const deps = {
  settings: {
    adminUserIds: [users.admin],
    reportTimeZone: 'UTC',
    simulated: true,
    sending: { submitChunkSize: 1000 },
  },
  logger: silentLogger,
} as unknown as SlackDeps;

/** A batch's row as the tracker reports it: `delivered` of 10 delivered so far. */
function progress(id: number, ts: string, delivered: number): OutboxRow {
  const now = new Date('2026-11-20T06:00:00Z');
  return {
    id,
    messageId: String(100000 + id),
    sender: 'SMSOPS',
    slackUser: users.admin,
    channel: channels.smsOps,
    messageTs: ts,
    recipientCount: 10,
    segments: 10,
    estimatedCost: 0.5,
    text: 'Your order is ready',
    createdAt: now,
    submittedAt: now,
    state: 'submitted',
    delivery: {
      delivered,
      undelivered: 0,
      count: 10,
      state: 'Sending',
      final: false,
      lastPolledAt: null,
      nextPollAt: null,
    },
  } as unknown as OutboxRow;
}

/** The card's blocks as the bot builds them for this row, and as the workspace shows them (its block ids aside). */
const cardOf = (row: OutboxRow) =>
  shown(deliveryCard(row, { reportTimeZone: 'UTC', simulated: true }).blocks);
const shown = (blocks: unknown) =>
  JSON.stringify(blocks, (key, value) => (key === 'block_id' ? undefined : value));

describe('delivery-card updates within chat.update’s tier', () => {
  let updater: CardUpdater | undefined;
  afterEach(async () => {
    await updater?.stop();
    updater = undefined;
  });

  it('paces under Tier 3 and coalesces: each card ends showing its latest state, far fewer calls than reports', async () => {
    expect(CARD_UPDATES_PER_MINUTE).toBeLessThan(TIER_PER_MINUTE['chat.update']!);
    // Tier limits on; posts spread over bursts the per-channel limit allows.
    const fake = await fakeSlack({ rateLimits: { burst: 10 } });
    const client = clientFor(fake, { rejectRateLimitedCalls: true });
    const cards = [];
    for (let i = 1; i <= 6; i++)
      cards.push((await client.chat.postMessage({ channel: channels.smsOps, text: `card ${i}` })).ts!);
    // Fast pace for the test; the coalescing is what is measured.
    updater = new CardUpdater({ deps, client, logger: silentLogger, perMinute: 1200 });
    for (let delivered = 1; delivered <= 10; delivered++) {
      for (const [i, ts] of cards.entries()) updater.update(progress(i + 1, ts, delivered));
    }
    await updater.idle();
    const updates = fake.state.calls('chat.update');
    expect(updates.length).toBeLessThanOrEqual(12);
    expect(updates.every((c) => c.status === 200)).toBe(true);
    cards.forEach((ts, i) => {
      expect(shown(fake.state.messages.find(channels.smsOps, ts)!.blocks)).toEqual(
        cardOf(progress(i + 1, ts, 10)),
      );
    });
  });

  it('holds back only the card updates for a 429’s Retry-After, then shows the latest state', async () => {
    const fake = await fakeSlack();
    const client = clientFor(fake, { rejectRateLimitedCalls: true });
    const { ts } = await client.chat.postMessage({ channel: channels.smsOps, text: 'card' });
    fake.injectFault({ method: 'chat.update', status: 429, retryAfter: 1 });
    updater = new CardUpdater({ deps, client, logger: silentLogger, perMinute: 1200 });
    updater.update(progress(1, ts!, 3));
    updater.update(progress(1, ts!, 7));
    await updater.idle();
    const calls = fake.state.calls('chat.update');
    expect(calls.map((c) => c.status)).toEqual([429, 200]);
    expect(calls[1]!.at - calls[0]!.at).toBeGreaterThanOrEqual(950);
    expect(JSON.stringify(fake.state.messages.find(channels.smsOps, ts!)!.blocks)).toMatch(
      /7 delivered|delivered.*7/i,
    );
  });
});

describe('a 429 on one method and the modals’ 3-second trigger', () => {
  let h: Harness;
  afterEach(() => h?.close());

  it('opens the compose modal at once while another method waits out a long Retry-After', async () => {
    h = await startHarness();
    h.fake.injectFault({ method: 'views.publish', status: 429, retryAfter: 10 });
    await h.driver.appHomeOpened(users.admin);
    await h.fake.state.waitForCall('views.publish', (c) => c.status === 429);
    const started = Date.now();
    const view = await h.openCompose('send');
    expect(view.callback_id).toBe('compose');
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(h.fake.state.calls('views.open').every((c) => c.result.ok === true)).toBe(true);
  });
});
