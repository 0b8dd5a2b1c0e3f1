// The real process (`node --import tsx src/main.ts`): time from spawn to a healthy /healthz and resident
// memory (VmRSS) once idle, in local mode and in HTTP mode, beside a bare `node -e` HTTP server
// answering /healthz (the floor of starting a Node process). Then, in HTTP mode against a simulator
// and a fake Slack of ours, 1,000 inbound SMS arrive at once: RSS once they are all posted, beside the
// same process's idle RSS. Run alone with `npx tsx bench/startup.ts`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { closedPort } from '../test/support/raw-server.js';
import { type FakeSlack, SEEDED, startFakeSlack } from '../workspace/index.js';
import { type BenchFigure, type Figure, median, round } from './figure.js';
import {
  injectInboundBurst,
  rssMiB,
  type Spawned,
  spawnNode,
  spawnSimulator,
  untilHealthy,
} from './process.js';
import { formatFigure } from './storage.js';

const STARTS = 3;
const IDLE_MS = 2_000;
const BURST = 1_000;
const BURST_TIMEOUT_MS = 60_000;
const SECRET = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';
const CHANNEL = SEEDED.channels.smsOps;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Start {
  healthyMs: number;
  idleRss: number;
}

/** Spawns, waits for 200 on /healthz, lets it idle, reads RSS; `then` runs before SIGTERM. */
async function measure(
  spawnIt: (port: number) => Spawned,
  then?: (p: Spawned) => Promise<void>,
): Promise<Start> {
  const port = await closedPort();
  const p = spawnIt(port);
  try {
    const healthyMs = await untilHealthy(p, port);
    await sleep(IDLE_MS);
    const idleRss = rssMiB(p.child.pid!);
    await then?.(p);
    return { healthyMs, idleRss };
  } finally {
    const code = await p.stop();
    if (code !== 0 && code !== null) console.error(`process exited ${code}:\n${p.output().slice(-2_000)}`);
  }
}

const bare = (port: number) =>
  spawnNode(
    [
      '-e',
      `require('node:http').createServer((q, s) => { s.writeHead(q.url === '/healthz' ? 200 : 404, { 'content-type': 'application/json' }); s.end('{"ok":true}'); }).listen(${port}, '127.0.0.1')`,
    ],
    {},
  );

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
  const dir = mkdtempSync(join(tmpdir(), 'smsops-bench-startup-'));
  const fake = await startFakeSlack();
  const sim = await spawnSimulator();
  let run = 0;
  const local = (port: number) =>
    spawnNode(['--import', 'tsx', 'src/main.ts'], {
      PORT: String(port),
      DATABASE_URL: `sqlite:${join(dir, `local-${++run}.db`)}`,
    });
  const http = (port: number) =>
    spawnNode(['--import', 'tsx', 'src/main.ts'], {
      SLACK_BOT_TOKEN: fake.botToken,
      SLACK_SIGNING_SECRET: SECRET,
      SLACK_API_URL: fake.apiUrl,
      PORT: String(port),
      DATABASE_URL: `sqlite:${join(dir, `http-${++run}.db`)}`,
      SMS_GATEWAY_URL: sim.url,
      SMS_GATEWAY_USERNAME: 'demo',
      SMS_GATEWAY_PASSWORD: 'demo',
      INBOUND_CHANNEL: CHANNEL,
      INBOUND_POLL_SECONDS: '1',
    });
  try {
    const starts = { bare: [] as Start[], local: [] as Start[], http: [] as Start[] };
    // Interleaved, so a busy spell of the machine hits every kind alike.
    for (let i = 0; i < STARTS; i++) {
      starts.bare.push(await measure(bare));
      starts.local.push(await measure(local));
      starts.http.push(await measure(http));
    }

    // One more HTTP-mode start, with the burst.
    let burst = { seen: 0, seconds: 0, rss: 0, idle: 0 };
    await measure(http, async (p) => {
      const idle = rssMiB(p.child.pid!);
      const started = performance.now();
      const ids = await injectInboundBurst(sim.url, BURST, '90533');
      const seen = await posted(fake, new Set(ids), BURST_TIMEOUT_MS);
      const seconds = (performance.now() - started) / 1000;
      burst = { seen, seconds, rss: rssMiB(p.child.pid!), idle };
    });

    const healthy = (s: Start[]) => Math.round(median(s.map((x) => x.healthyMs)));
    const rss = (s: Start[]) => round(median(s.map((x) => x.idleRss)), 1);
    const floorName = 'bare `node -e` HTTP server answering /healthz';
    const figures: BenchFigure[] = [
      {
        name: `start to healthy /healthz, local mode (median of ${STARTS})`,
        value: healthy(starts.local),
        unit: 'ms',
        baseline: { name: floorName, value: healthy(starts.bare) },
      },
      {
        name: `start to healthy /healthz, HTTP mode (median of ${STARTS})`,
        value: healthy(starts.http),
        unit: 'ms',
        baseline: { name: floorName, value: healthy(starts.bare) },
      },
      {
        name: `idle RSS ${IDLE_MS / 1000} s after healthy, local mode (median of ${STARTS})`,
        value: rss(starts.local),
        unit: 'MiB',
        baseline: { name: floorName, value: rss(starts.bare) },
      },
      {
        name: `idle RSS ${IDLE_MS / 1000} s after healthy, HTTP mode (median of ${STARTS})`,
        value: rss(starts.http),
        unit: 'MiB',
        baseline: { name: floorName, value: rss(starts.bare) },
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
    await fake.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const figure of await benchStartup()) console.log(formatFigure(figure));
}
