import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPort } from '../support/raw-server.js';
import { textBlockOf } from '../support/slack-harness.js';
import {
  type BotProcess,
  channels,
  type DrillWorld,
  startBot,
  startDrillWorld,
  until,
  users,
} from './bot-process.js';

/**
 * Drill: the bot is SIGKILLed in the middle of a campaign and started again on the same database. The restarted
 * bot takes the campaign up where it stopped: every number gets the SMS, and none gets it twice.
 */

let world: DrillWorld;
let bot: BotProcess | undefined;

beforeAll(async () => {
  world = await startDrillWorld('campaign');
});
afterAll(async () => {
  await bot?.crash();
  await world.close();
});

/** Thirty numbers in chunks of 3: ten chunks, one every 300 ms. */
const NUMBERS = Array.from({ length: 30 }, (_, i) => `90532${2_000_000 + i}`);
const ENV = { SUBMIT_CHUNK_SIZE: '3', SUBMIT_CHUNK_INTERVAL_MS: '300', SMS_GATEWAY_TIMEOUT_MS: '3000' };

async function start(port: number): Promise<BotProcess> {
  bot = await startBot({
    fake: world.fake,
    gatewayUrl: world.sim.url,
    databaseUrl: world.databaseUrl,
    env: ENV,
    port,
  });
  return bot;
}

/** `/sms send` through the bot's signed driver, then the compose modal submitted with the thirty numbers. */
async function sendCampaign(b: BotProcess, text: string): Promise<void> {
  const { fake } = world;
  const after = fake.state.journal.seq;
  await b.sms('send');
  const call = await fake.state.waitForCall(
    'views.update',
    (c) => (c.args.view as { callback_id?: string }).callback_id === 'compose',
    { after, timeoutMs: 10_000 },
  );
  const view = fake.state.views.get(String(call.args.view_id))!;
  const result = await b.driver.viewSubmission({
    userId: users.admin,
    view,
    values: { recipients: { recipients: NUMBERS.join('\n') }, [textBlockOf(view)]: { text } },
  });
  expect(result.status).toBe(200);
}

async function receivedPerNumber(): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const batch of (await world.control.state()).batches) {
    for (const r of batch.recipients) counts.set(r.to, (counts.get(r.to) ?? 0) + 1);
  }
  return counts;
}

const submittedLines = (b: BotProcess) =>
  b
    .output()
    .split('\n')
    .filter((l) => l.includes('SMS batch submitted')).length;

describe('kill -9 in the middle of a campaign', () => {
  it('the restarted bot resumes where it stopped: every number gets the SMS once, none twice', async () => {
    const port = await closedPort();
    const first = await start(port);
    await sendCampaign(first, 'campaign drill');
    // Killed between chunks: three went (each recorded, as its log line says), seven did not yet.
    await until('three chunks recorded as submitted', () => submittedLines(first) >= 3, 20_000, 10);
    await first.crash();
    bot = undefined;
    const before = (await world.control.state()).batches.length;
    expect(before).toBeGreaterThanOrEqual(3);
    expect(before).toBeLessThan(10);

    const second = await start(port);
    await until(
      'every chunk at the gateway',
      async () => (await world.control.state()).batches.length >= 10,
      30_000,
    );
    const counts = await receivedPerNumber();
    expect(NUMBERS.map((n) => counts.get(n) ?? 0)).toEqual(NUMBERS.map(() => 1));
    // The one card says so, updated by the restarted bot.
    await world.fake.state.waitForMessage(
      (m) => m.channel === channels.smsOps && /^SMS campaign C-\d+: 30 of 30 sent, 0 not sent/.test(m.text),
      { timeoutMs: 30_000 },
    );
    expect((await world.control.state()).batches).toHaveLength(10);
    expect(second.output()).not.toMatch(/"level":50/);
    await second.stop();
    bot = undefined;
  }, 90_000);

  it('killed while the gateway holds a chunk’s reply: after the restart that chunk is unknown and never resent; Send the rest sends the others', async () => {
    // A bot the first drill left running (had it timed out) would take this drill's gateway fault.
    await bot?.crash();
    bot = undefined;
    await world.control.reset();
    const after = world.fake.state.journal.seq;
    const port = await closedPort();
    const first = await start(port);
    // The gateway takes the first chunk and holds its reply; the bot is killed meanwhile.
    await world.control.fault({ operation: 'Submit', kind: 'timeout', delayMs: 60_000, times: 1 });
    await sendCampaign(first, 'held chunk drill');
    await until('the gateway received chunk 1', async () => (await world.control.callCount('Submit')) >= 1);
    await first.crash();
    bot = undefined;

    const second = await start(port);
    // Chunk 1's lease runs out (2 x 3 s + 10 s after its last renewal); the tracker marks it unknown, the
    // campaign stops, and the card says so with the exact counts.
    const stopped = await world.fake.state.waitForMessage(
      (m) =>
        m.channel === channels.smsOps &&
        /^SMS campaign C-\d+: 0 of 30 sent, 27 not sent, 3 unknown/.test(m.text) &&
        JSON.stringify(m.blocks).includes('campaign_send_rest'),
      { after, timeoutMs: 60_000 },
    );
    expect(JSON.stringify(stopped.blocks)).toContain('Chunk 1 of 10 is of unknown fate');
    expect(await world.control.callCount('Submit')).toBe(1);

    await second.driver.blockAction({
      userId: users.admin,
      message: stopped,
      actionId: 'campaign_send_rest',
    });
    await until(
      'every other chunk at the gateway',
      async () => (await world.control.state()).batches.length >= 10,
      30_000,
    );
    await world.fake.state.waitForMessage(
      (m) => m.ts === stopped.ts && /27 of 30 sent, 0 not sent, 3 unknown/.test(m.text),
      { after, timeoutMs: 30_000 },
    );
    const counts = await receivedPerNumber();
    // The gateway did take chunk 1 before the kill: every number once, none twice.
    expect(NUMBERS.map((n) => counts.get(n) ?? 0)).toEqual(NUMBERS.map(() => 1));
    expect(await world.control.callCount('Submit')).toBe(10);
  }, 120_000);
});
