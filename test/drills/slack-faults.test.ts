import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ApiCall } from '../../workspace/index.js';
import {
  type BotProcess,
  channels,
  type DrillWorld,
  sendThroughModal,
  startBot,
  startDrillWorld,
  until,
} from './bot-process.js';

/**
 * Drill: Slack answers 429 storms and 5xx while the real bot relays inbound SMS and posts a delivery
 * card. Nothing is lost or doubled, and after a 429 the next post waits for Retry-After.
 */

let fake: DrillWorld['fake'];
let sim: DrillWorld['sim'];
let control: DrillWorld['control'];
let world: DrillWorld;
let bot: BotProcess;
let start = 0;

beforeAll(async () => {
  world = await startDrillWorld('slack');
  ({ fake, sim, control } = world);
  bot = await startBot({ fake, gatewayUrl: sim.url, databaseUrl: world.databaseUrl });
}, 40_000);
afterAll(async () => {
  await bot?.stop();
  await world.close();
});
beforeEach(() => {
  start = fake.state.journal.seq;
});

const posts = (): ApiCall[] => fake.state.calls('chat.postMessage').filter((c) => c.seq > start);

/** Every injected 429 is followed by a post no sooner than its Retry-After (1 s; 50 ms clock slack). */
function expectRetryAfterHonoured(): void {
  const calls = posts();
  const limited = calls.filter((c) => c.status === 429);
  expect(limited.length).toBeGreaterThan(0);
  for (const c of limited) {
    const next = calls.find((n) => n.seq > c.seq);
    expect(next, 'a post after the 429').toBeDefined();
    expect(next!.at - c.at).toBeGreaterThanOrEqual(950);
  }
}

function countMarkers(mark: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const m of fake.state.messages.all()) {
    if (m.channel !== channels.smsOps) continue;
    for (const marker of new Set(JSON.stringify(m.blocks ?? []).match(new RegExp(`${mark}\\d+x`, 'g')) ?? []))
      counts.set(marker, (counts.get(marker) ?? 0) + 1);
  }
  return counts;
}

async function burst(mark: string, size: number, offset: number): Promise<void> {
  await control.inbound(
    Array.from({ length: size }, (_, i) => ({
      MSISDN: `90533${String(offset + i).padStart(7, '0')}`,
      Text: `storm ${mark}${i}x`,
    })),
  );
  await until('the burst in Slack', () => countMarkers(mark).size === size, 45_000, 50);
  const counts = countMarkers(mark);
  expect([...counts.values()].every((n) => n === 1)).toBe(true);
}

const cards = () =>
  fake.state.messages.all().filter((m) => m.channel === channels.smsOps && /^SMS batch \d+:/.test(m.text));

describe('Slack 429 storms and 5xx under the running bot', () => {
  it('a 429 storm during an inbound burst: everything posted once, Retry-After honoured', async () => {
    fake.injectFault({ method: 'chat.postMessage', status: 429, retryAfter: 1, times: 5 });
    await burst('r429-', 40, 0);
    expect(posts().filter((c) => c.status === 429)).toHaveLength(5);
    expectRetryAfterHonoured();
  }, 60_000);

  it('500s and 503s during an inbound burst: everything posted once', async () => {
    fake.injectFault({ method: 'chat.postMessage', status: 500, times: 3 });
    fake.injectFault({ method: 'chat.postMessage', status: 503, times: 2 });
    await burst('r5xx-', 40, 100);
    expect(posts().filter((c) => c.status >= 500)).toHaveLength(5);
  }, 60_000);

  it('a 429 storm and a 500 while a send posts its card: one Submit, one card, after Retry-After', async () => {
    const submits = await control.callCount('Submit');
    const cardsBefore = cards().length;
    fake.injectFault({ method: 'chat.postMessage', status: 429, retryAfter: 1, times: 3 });
    await sendThroughModal(bot, fake, 'storm send');
    await until('the card', () => cards().length === cardsBefore + 1, 30_000, 50);
    expectRetryAfterHonoured();

    start = fake.state.journal.seq;
    fake.injectFault({ method: 'chat.postMessage', status: 500, times: 1 });
    await sendThroughModal(bot, fake, 'storm send two');
    await until('the second card', () => cards().length === cardsBefore + 2, 30_000, 50);
    expect(await control.callCount('Submit')).toBe(submits + 2);
    // Still exactly two cards once things settle: a retried post never doubles a card.
    const polls = await control.callCount('Receive');
    await until('two more polls', async () => (await control.callCount('Receive')) >= polls + 2);
    expect(cards().length).toBe(cardsBefore + 2);
  }, 60_000);
});
