import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BotProcess,
  channels,
  type DrillWorld,
  startBot,
  startDrillWorld,
  until,
} from './bot-process.js';

/**
 * Drill: the real bot process is SIGKILLed in the middle of an inbound burst and started again on the
 * same database. Every SMS must end up in Slack; only the post in flight at the kill may appear twice.
 * (test/jobs/inbound-processes.test.ts does this with the relay alone in a worker; this is main.ts.)
 */

const BURST = 300;
const MARK = 'drill1-';

let fake: DrillWorld['fake'];
let sim: DrillWorld['sim'];
let control: DrillWorld['control'];
let world: DrillWorld;
let bot: BotProcess | undefined;

beforeAll(async () => {
  // Slack's real rate limits: the burst takes long enough to be killed in the middle.
  world = await startDrillWorld('inbound', { slack: { rateLimits: true } });
  ({ fake, sim, control } = world);
});
afterAll(async () => {
  await bot?.crash();
  await world.close();
});

/** How often each marker appears across the channel's posts, and how many markers each post carries. */
function census(): { counts: Map<string, number>; perPost: number[] } {
  const counts = new Map<string, number>();
  const perPost: number[] = [];
  for (const m of fake.state.messages.all()) {
    if (m.channel !== channels.smsOps) continue;
    const found = new Set(JSON.stringify(m.blocks ?? []).match(new RegExp(`${MARK}\\d+x`, 'g')) ?? []);
    if (found.size === 0) continue;
    perPost.push(found.size);
    for (const marker of found) counts.set(marker, (counts.get(marker) ?? 0) + 1);
  }
  return { counts, perPost };
}

describe('kill -9 of the bot in the middle of an inbound burst', () => {
  // The restarted bot has the same instance id (host and port), so it takes back the claims it left
  // unposted and posts them at once instead of waiting for their lease to run out.
  it('after a restart on the same database every SMS is posted, at most one post twice', async () => {
    const { databaseUrl } = world;
    bot = await startBot({ fake, gatewayUrl: sim.url, databaseUrl });
    await until('first Receive poll', async () => (await control.callCount('Receive')) > 0);
    await control.inbound(
      Array.from({ length: BURST }, (_, i) => ({
        MSISDN: `90532${String(i).padStart(7, '0')}`,
        Text: `hello ${MARK}${i}x`,
      })),
    );
    await until('some of the burst in Slack', () => census().counts.size >= 20, 30_000, 20);
    await bot.crash();
    const before = census().counts.size;
    expect(before).toBeLessThan(BURST);

    const restartedAt = Date.now();
    // Restarted as a deployment restarts: same host, same PORT, same database.
    bot = await startBot({ fake, gatewayUrl: sim.url, databaseUrl, port: bot.port });
    await until('all of the burst in Slack', () => census().counts.size === BURST, 60_000, 100);
    const recoveryMs = Date.now() - restartedAt;

    const { counts, perPost } = census();
    for (let i = 0; i < BURST; i++) expect(counts.get(`${MARK}${i}x`) ?? 0).toBeGreaterThanOrEqual(1);
    const twice = [...counts.values()].filter((n) => n > 1);
    expect(twice.every((n) => n === 2)).toBe(true);
    // One post carries several SMS; only that one post may repeat.
    expect(twice.length).toBeLessThanOrEqual(Math.max(...perPost));
    console.info(
      `inbound drill: ${before} visible at the kill, ${twice.length} repeated, recovered in ${recoveryMs} ms`,
    );
    await bot.stop();
    bot = undefined;
  }, 120_000);
});
