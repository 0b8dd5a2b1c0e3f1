import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SimulatorHandle } from '../../src/simulator/server.js';
import {
  createSlackDriver,
  type FakeSlack,
  type FakeSlackOptions,
  SEEDED,
  type SlackDriver,
  startFakeSlack,
} from '../../workspace/index.js';
import { closedPort } from '../support/raw-server.js';
import { type SimulatorControl, startTestSimulator } from '../support/simulator.js';
import { textBlockOf } from '../support/slack-harness.js';

export const SECRET = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';
export const { users, channels } = SEEDED;

export interface BotProcess {
  child: ChildProcess;
  port: number;
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  driver: SlackDriver;
  /** `/sms <text>` from the admin in #sms-ops, signed as Slack would; resolves with the ack. */
  sms(text: string): ReturnType<SlackDriver['slashCommand']>;
  health(): Promise<{ status: number; body: Record<string, unknown> }>;
  /** SIGKILL, resolved once the process is gone. */
  crash(): Promise<void>;
  /** SIGTERM (or SIGKILL if it has not stopped after 10 s), resolved once gone. */
  stop(): Promise<void>;
}

/** A temp folder for a drill's SQLite file; remove() when done. */
export function tempDir(prefix: string): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), `smsops-drill-${prefix}-`));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** What every drill stands on: the local workspace's Slack, the gateway simulator and a SQLite file of its own. */
export interface DrillWorld {
  fake: FakeSlack;
  sim: SimulatorHandle;
  control: SimulatorControl;
  /** The SQLite file in a temp folder of the drill's own. */
  databaseUrl: string;
  /** Closes Slack and the simulator and removes the folder; the drill's bots must be gone by then. */
  close(): Promise<void>;
}

export async function startDrillWorld(
  prefix: string,
  options: { slack?: FakeSlackOptions; simulator?: Parameters<typeof startTestSimulator>[0] } = {},
): Promise<DrillWorld> {
  const fake = await startFakeSlack(options.slack);
  const { sim, control } = await startTestSimulator(options.simulator);
  const tmp = tempDir(prefix);
  return {
    fake,
    sim,
    control,
    databaseUrl: `sqlite:${tmp.dir}/smsops.db`,
    close: async () => {
      await fake.close();
      await sim.close();
      tmp.remove();
    },
  };
}

/**
 * The real bot, `node --import tsx src/main.ts` in HTTP mode, on the fake Slack and a gateway of the
 * drill's choosing. Resolves once it printed that it is running.
 */
export async function startBot(options: {
  fake: FakeSlack;
  gatewayUrl: string;
  databaseUrl: string;
  env?: Record<string, string>;
  port?: number;
}): Promise<BotProcess> {
  const port = options.port ?? (await closedPort());
  let output = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      SLACK_BOT_TOKEN: options.fake.botToken,
      SLACK_SIGNING_SECRET: SECRET,
      SLACK_API_URL: options.fake.apiUrl,
      PORT: String(port),
      DATABASE_URL: options.databaseUrl,
      SMS_GATEWAY_URL: options.gatewayUrl,
      SMS_GATEWAY_USERNAME: 'demo',
      SMS_GATEWAY_PASSWORD: 'demo',
      INBOUND_CHANNEL: channels.smsOps,
      INBOUND_POLL_SECONDS: '1',
      ADMIN_USER_IDS: users.admin,
      LOG_LEVEL: 'info',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => {
    output += d;
  });
  child.stderr!.on('data', (d) => {
    output += d;
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const gone = () => child.exitCode !== null || child.signalCode !== null;
  const deadline = Date.now() + 30_000;
  while (!/smsops is running/.test(output)) {
    const done = await Promise.race([exited.then(() => true), sleepMs(25).then(() => false)]);
    if (done || Date.now() > deadline) {
      if (!gone()) child.kill('SIGKILL');
      throw new Error(`bot never reported running:\n${output}`);
    }
  }
  const driver = createSlackDriver({
    botUrl: `http://127.0.0.1:${port}/slack/events`,
    signingSecret: SECRET,
    fake: options.fake,
  });
  return {
    child,
    port,
    output: () => output,
    exited,
    driver,
    sms: (text) =>
      driver.slashCommand({ command: '/sms', text, userId: users.admin, channelId: channels.smsOps }),
    health: async () => {
      const res = await fetch(`http://127.0.0.1:${port}/healthz`);
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    },
    crash: async () => {
      if (!gone()) child.kill('SIGKILL');
      await exited;
    },
    stop: async () => {
      if (!gone()) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

export function sleepMs(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls `check` every `everyMs` until it returns a value other than undefined/false; throws after timeoutMs. */
export async function until<T>(
  what: string,
  check: () => Promise<T | undefined | false> | T | undefined | false,
  timeoutMs = 15_000,
  everyMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined && value !== false) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await sleepMs(everyMs);
  }
}

/** `/sms send …` through the bot's signed driver, then submit the compose modal as it was prefilled. */
export async function sendThroughModal(bot: BotProcess, fake: FakeSlack, text: string): Promise<void> {
  const after = fake.state.journal.seq;
  await bot.sms(`send 0532 123 45 67 ${text}`);
  const call = await fake.state.waitForCall(
    'views.update',
    (c) => (c.args.view as { callback_id?: string }).callback_id === 'compose',
    { after, timeoutMs: 10_000 },
  );
  const view = fake.state.views.get(String(call.args.view_id))!;
  const result = await bot.driver.viewSubmission({
    userId: users.admin,
    view,
    values: { recipients: { recipients: '0532 123 45 67' }, [textBlockOf(view)]: { text } },
  });
  if (result.status !== 200 || result.late) {
    throw new Error(
      `the compose submission was not acked in time: HTTP ${result.status}, late=${result.late}`,
    );
  }
}
