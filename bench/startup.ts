// The real process, started as `npm start` starts it (`node scripts/start.mjs`: the compiled build in dist/),
// beside a bare Bolt app (bench/bare-bolt.mjs: plain JavaScript, one listener that only acks, /healthz)
// against the same fake Slack and the same fake gateway, started alternately in the same run:
// - time from spawn to a healthy /healthz (Socket Mode: and the socket connected), and resident memory
//   (VmRSS) once idle, in HTTP mode and in Socket Mode (against a fake Socket Mode server);
// - local mode, beside the bare Bolt app in HTTP mode (no target: local mode also runs the simulator and
//   the local workspace);
// - one more HTTP-mode start: 1,000 inbound SMS arrive at once; RSS once they are all posted.
// Run alone with `npx tsx bench/startup.ts`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ensureBuilt } from '../scripts/build.mjs';
import { closedPort } from '../test/support/raw-server.js';
import { type SocketModeServer, startSocketModeServer } from '../test/support/socket-mode-server.js';
import { type FakeSlack, SEEDED, startFakeSlack } from '../workspace/index.js';
import { type BenchFigure, type Figure, median, round } from './figure.js';
import { startNodeFlags } from './node-flags.js';
import {
  injectInboundBurst,
  rssMiB,
  type Spawned,
  spawnNode,
  spawnSimulator,
  untilHealthy,
} from './process.js';
import { formatFigure } from './storage.js';

// Nine, not five: on a shared two-core machine the bare app's own start moved by 100 ms between runs of five
// (459 to 558 ms), enough to move a ratio by 0.3.
const STARTS = Number(process.env.BENCH_STARTS ?? 9);
const IDLE_MS = 2_000;
const BURST = 1_000;
const BURST_TIMEOUT_MS = 60_000;
const SECRET = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';
const APP_TOKEN = 'xapp-1-bench';
const CHANNEL = SEEDED.channels.smsOps;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Start {
  healthyMs: number;
  idleRss: number;
}

/** Spawns, waits for 200 on /healthz (and `ready`), lets it idle, reads RSS; `whileIdle` runs before SIGTERM. */
async function measure(
  spawnIt: (port: number) => Spawned,
  options: { ready?: () => Promise<void>; whileIdle?: (p: Spawned) => Promise<void> } = {},
): Promise<Start> {
  const port = await closedPort();
  const p = spawnIt(port);
  try {
    await untilHealthy(p, port);
    await options.ready?.();
    const healthyMs = performance.now() - p.startedAt;
    await sleep(IDLE_MS);
    const idleRss = rssMiB(p.child.pid!);
    await options.whileIdle?.(p);
    return { healthyMs, idleRss };
  } finally {
    const code = await p.stop();
    if (code !== 0 && code !== null) console.error(`process exited ${code}:\n${p.output().slice(-2_000)}`);
  }
}

/** Resolves once the fake Socket Mode server has one more connection than `before`. */
async function connected(sockets: SocketModeServer, before: number, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (sockets.connections.length <= before) {
    if (Date.now() > deadline) throw new Error('the app never opened its Socket Mode connection');
    await sleep(5);
  }
}

/** Resolves with how many of `ids` were posted to Slack, once all are or after the timeout. */
function posted(fake: FakeSlack, ids: Set<number>, timeoutMs: number): Promise<number> {
  const seen = new Set<number>();
  return new Promise((resolve) => {
    const finish = () => {
      clearTimeout(timer);
      stop();
      resolve(seen.size);
    };
    const timer = setTimeout(finish, timeoutMs);
    const stop = fake.state.journal.on('message', ({ action, message }) => {
      if (action !== 'posted') return;
      for (const block of message.blocks ?? []) {
        const id = Number(((block as { block_id?: string }).block_id ?? '').replace(/^inbound_/, ''));
        if (ids.has(id)) seen.add(id);
      }
      if (seen.size >= ids.size) finish();
    });
  });
}

export async function benchStartup(): Promise<Figure[]> {
  // What `npm start` would do first; timed starts then run the build as a deployed process does.
  await ensureBuilt();
  const dir = mkdtempSync(join(tmpdir(), 'smsops-bench-startup-'));
  const fake = await startFakeSlack();
  const sockets = await startSocketModeServer({ appToken: APP_TOKEN, upstreamApiUrl: fake.apiUrl });
  const sim = await spawnSimulator();
  let run = 0;
  const gatewayEnv = {
    SMS_GATEWAY_URL: sim.url,
    SMS_GATEWAY_USERNAME: 'demo',
    SMS_GATEWAY_PASSWORD: 'demo',
  };
  const httpEnv = (port: number) => ({
    SLACK_BOT_TOKEN: fake.botToken,
    SLACK_SIGNING_SECRET: SECRET,
    SLACK_API_URL: fake.apiUrl,
    PORT: String(port),
    ...gatewayEnv,
  });
  const socketEnv = (port: number) => ({
    SLACK_BOT_TOKEN: fake.botToken,
    SLACK_APP_TOKEN: APP_TOKEN,
    SLACK_API_URL: sockets.apiUrl,
    PORT: String(port),
    ...gatewayEnv,
  });
  // As `npm start` runs it: its node flags too (package.json's start script).
  const start = [...startNodeFlags(), 'scripts/start.mjs'];
  const bareBolt = ['bench/bare-bolt.mjs'];
  const kinds = {
    bareHttp: (port: number) => spawnNode(bareBolt, httpEnv(port)),
    // The default configuration, as for Socket Mode: what an operator's bot idles at.
    http: (port: number) =>
      spawnNode(start, { ...httpEnv(port), DATABASE_URL: `sqlite:${join(dir, `http-${++run}.db`)}` }),
    // For the burst: inbound posted to a channel, Receive polled every second.
    httpInbound: (port: number) =>
      spawnNode(start, {
        ...httpEnv(port),
        DATABASE_URL: `sqlite:${join(dir, `http-${++run}.db`)}`,
        INBOUND_CHANNEL: CHANNEL,
        INBOUND_POLL_SECONDS: '1',
      }),
    bareSocket: (port: number) => spawnNode(bareBolt, socketEnv(port)),
    socket: (port: number) =>
      spawnNode(start, { ...socketEnv(port), DATABASE_URL: `sqlite:${join(dir, `socket-${++run}.db`)}` }),
    local: (port: number) =>
      spawnNode(start, { PORT: String(port), DATABASE_URL: `sqlite:${join(dir, `local-${++run}.db`)}` }),
  };
  const socketReady = () => {
    const before = sockets.connections.length;
    return () => connected(sockets, before);
  };
  try {
    const starts = {
      bareHttp: [] as Start[],
      http: [] as Start[],
      bareSocket: [] as Start[],
      socket: [] as Start[],
      local: [] as Start[],
    };
    // Interleaved, so a busy spell of the machine hits every kind alike.
    for (let i = 0; i < STARTS; i++) {
      starts.bareHttp.push(await measure(kinds.bareHttp));
      starts.http.push(await measure(kinds.http));
      starts.bareSocket.push(await measure(kinds.bareSocket, { ready: socketReady() }));
      starts.socket.push(await measure(kinds.socket, { ready: socketReady() }));
      starts.local.push(await measure(kinds.local));
    }

    // One more HTTP-mode start, with the burst.
    let burst = { seen: 0, seconds: 0, rss: 0, idle: 0 };
    await measure(kinds.httpInbound, {
      whileIdle: async (p) => {
        const idle = rssMiB(p.child.pid!);
        const started = performance.now();
        const ids = await injectInboundBurst(sim.url, BURST, '90533');
        const seen = await posted(fake, new Set(ids), BURST_TIMEOUT_MS);
        const seconds = (performance.now() - started) / 1000;
        burst = { seen, seconds, rss: rssMiB(p.child.pid!), idle };
      },
    });

    const healthy = (s: Start[]) => Math.round(median(s.map((x) => x.healthyMs)));
    const rss = (s: Start[]) => round(median(s.map((x) => x.idleRss)), 1);
    const bareHttp = 'bare Bolt app, HTTP receiver, same fake Slack';
    const bareSocket = 'bare Bolt app, Socket Mode, same fake Socket Mode server';
    const of = `median of ${STARTS}`;
    const figures: BenchFigure[] = [
      {
        name: `start to healthy /healthz, HTTP mode, npm start's compiled build (${of})`,
        value: healthy(starts.http),
        unit: 'ms',
        baseline: { name: bareHttp, value: healthy(starts.bareHttp) },
        target: { of: 'ratio', atMost: 1.5 },
      },
      {
        name: `start to healthy /healthz and connected, Socket Mode (${of})`,
        value: healthy(starts.socket),
        unit: 'ms',
        baseline: { name: bareSocket, value: healthy(starts.bareSocket) },
        target: { of: 'ratio', atMost: 1.5 },
      },
      {
        name: `start to healthy /healthz, local mode: simulator and local workspace too (${of})`,
        value: healthy(starts.local),
        unit: 'ms',
        baseline: { name: bareHttp, value: healthy(starts.bareHttp) },
      },
      {
        name: `idle RSS ${IDLE_MS / 1000} s after healthy, HTTP mode (${of})`,
        value: rss(starts.http),
        unit: 'MiB',
        baseline: { name: bareHttp, value: rss(starts.bareHttp) },
        target: { of: 'ratio', atMost: 1.3 },
      },
      {
        name: `idle RSS ${IDLE_MS / 1000} s after connected, Socket Mode (${of})`,
        value: rss(starts.socket),
        unit: 'MiB',
        baseline: { name: bareSocket, value: rss(starts.bareSocket) },
        target: { of: 'ratio', atMost: 1.3 },
      },
      {
        name: `idle RSS ${IDLE_MS / 1000} s after healthy, local mode: simulator and local workspace too (${of})`,
        value: rss(starts.local),
        unit: 'MiB',
        baseline: { name: bareHttp, value: rss(starts.bareHttp) },
      },
      {
        name: `RSS after an inbound burst of ${BURST.toLocaleString('en-US')} SMS, HTTP mode (${burst.seen.toLocaleString('en-US')} of ${BURST.toLocaleString('en-US')} posted in ${round(burst.seconds, 1)} s)`,
        value: round(burst.rss, 1),
        unit: 'MiB',
        baseline: { name: 'the same process idle, before the burst', value: round(burst.idle, 1) },
      },
    ];
    return figures;
  } finally {
    await sim.process.stop();
    await sockets.close();
    await fake.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const figure of await benchStartup()) console.log(formatFigure(figure));
}
