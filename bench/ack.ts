// Ack latency of `/sms balance` while the gateway takes 2 s to answer GetBalance: the HTTP round trip of a signed
// slash command to the bot, next to a bare Bolt app that only acks (bench/bare-bolt.mjs: same HTTP receiver, same
// fake Slack), requests interleaved so both see the same machine. Each app runs in a process of its own, as
// production runs the bot: `npm start`'s build and node flags, the gateway simulator in a third process, the fake
// Slack and the timing client in this one. (Until 2026-11-27 both apps, the fake Slack, the simulator and the
// client shared this process and its heap: a collection that our handler's allocations set off landed on our
// request, whatever else had filled the heap.) Slack gives an app 3 s; the ack must not wait for the gateway.
// Run alone with `npx tsx bench/ack.ts`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ensureBuilt } from '../scripts/build.mjs';
import { closedPort } from '../test/support/raw-server.js';
import { SimulatorControl } from '../test/support/simulator.js';
import { SIGNING_SECRET } from '../test/support/slack-harness.js';
import { createSlackDriver, SEEDED, startFakeSlack } from '../workspace/index.js';
import { type BenchFigure, type Figure, percentile, round } from './figure.js';
import { startNodeFlags } from './node-flags.js';
import { type Spawned, spawnNode, spawnSimulator, untilHealthy } from './process.js';
import { formatFigure } from './storage.js';

const REQUESTS = 200;
const WARMUP = 10;
const GATEWAY_DELAY_MS = 2_000;
const { users, channels } = SEEDED;

export async function benchAck(): Promise<Figure[]> {
  await ensureBuilt();
  const dir = mkdtempSync(join(tmpdir(), 'smsops-bench-ack-'));
  const fake = await startFakeSlack();
  const sim = await spawnSimulator();
  const control = new SimulatorControl({ url: sim.url });
  const env = (port: number) => ({
    SLACK_BOT_TOKEN: fake.botToken,
    SLACK_SIGNING_SECRET: SIGNING_SECRET,
    SLACK_API_URL: fake.apiUrl,
    PORT: String(port),
  });
  const oursPort = await closedPort();
  const barePort = await closedPort();
  const apps: Spawned[] = [];
  try {
    const ours = spawnNode([...startNodeFlags(), 'scripts/start.mjs'], {
      ...env(oursPort),
      DATABASE_URL: `sqlite:${join(dir, 'ack.db')}`,
      ADMIN_USER_IDS: users.admin,
      SMS_GATEWAY_URL: sim.url,
      SMS_GATEWAY_USERNAME: 'demo',
      SMS_GATEWAY_PASSWORD: 'demo',
      SMS_GATEWAY_TIMEOUT_MS: '10000',
    });
    apps.push(ours);
    const bare = spawnNode(['bench/bare-bolt.mjs'], env(barePort));
    apps.push(bare);
    await untilHealthy(ours, oursPort);
    await untilHealthy(bare, barePort);
    return await measure(
      control,
      createSlackDriver({
        botUrl: `http://127.0.0.1:${oursPort}/slack/events`,
        signingSecret: SIGNING_SECRET,
        fake,
      }),
      createSlackDriver({
        botUrl: `http://127.0.0.1:${barePort}/slack/events`,
        signingSecret: SIGNING_SECRET,
        fake,
      }),
    );
  } finally {
    // The GetBalance calls still held are the bot's to park on SIGTERM; nothing waits for them.
    for (const app of apps) await app.stop();
    await sim.process.stop();
    await fake.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function measure(
  control: SimulatorControl,
  oursDriver: ReturnType<typeof createSlackDriver>,
  bareDriver: ReturnType<typeof createSlackDriver>,
): Promise<Figure[]> {
  const balance = async (driver: typeof oursDriver) => {
    const ack = await driver.slashCommand({
      command: '/sms',
      text: 'balance',
      userId: users.admin,
      channelId: channels.smsOps,
    });
    if (ack.status !== 200) throw new Error(`/sms balance: HTTP ${ack.status}`);
    return ack.elapsedMs;
  };

  await control.fault({
    operation: 'GetBalance',
    kind: 'timeout',
    delayMs: GATEWAY_DELAY_MS,
    times: REQUESTS + WARMUP,
  });
  for (let i = 0; i < WARMUP; i++) {
    await balance(oursDriver);
    await balance(bareDriver);
  }
  const oursMs: number[] = [];
  const bareMs: number[] = [];
  for (let i = 0; i < REQUESTS; i++) {
    // Alternate who goes first, so neither always runs right after the other's work.
    if (i % 2 === 0) {
      oursMs.push(await balance(oursDriver));
      bareMs.push(await balance(bareDriver));
    } else {
      bareMs.push(await balance(bareDriver));
      oursMs.push(await balance(oursDriver));
    }
  }
  // The target is on p99, what a person waiting on a slow ack feels; p50 is shown beside it.
  const target = { of: 'ratio', atMost: 1.2 } as const;
  const figures: BenchFigure[] = [
    {
      name: `/sms balance ack, gateway answering in ${GATEWAY_DELAY_MS / 1000} s: p50 (${REQUESTS} signed requests; no target)`,
      value: round(percentile(oursMs, 50), 2),
      unit: 'ms',
      baseline: { name: 'bare Bolt app that only acks, p50', value: round(percentile(bareMs, 50), 2) },
    },
    {
      name: `/sms balance ack, gateway answering in ${GATEWAY_DELAY_MS / 1000} s: p99`,
      value: round(percentile(oursMs, 99), 2),
      unit: 'ms',
      baseline: { name: 'bare Bolt app that only acks, p99', value: round(percentile(bareMs, 99), 2) },
      target,
    },
    {
      name: '/sms balance acks later than 3 s (Slack’s deadline)',
      value: oursMs.filter((ms) => ms > 3_000).length,
      unit: 'acks',
      target: { of: 'value', atMost: 0 },
    },
  ];
  return figures;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const figure of await benchAck()) console.log(formatFigure(figure));
}
