// Inbound burst: 1,000 SMS from 1,000 numbers arrive at once; how long until every one is visible in
// Slack, through the simulator over HTTP and a fake Slack that enforces about one post per second per
// channel (burst 3), as Slack does. The floor is what grouping allows at best: 1,000 divided by the
// messages one post carries, at one post a second. Run alone with `npx tsx bench/inbound.ts`;
// bench/run.ts imports benchInbound().
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { GatewayClient } from '../src/gateway/index.js';
import { InboundRelay } from '../src/jobs/inbound-relay.js';
import { silentLogger } from '../src/log.js';
import { startSimulator } from '../src/simulator/server.js';
import { createSlackInboundPoster, inboundWebClient } from '../src/slack/inbound-poster.js';
import { openStore } from '../src/store/index.js';
import { SEEDED, startFakeSlack } from '../src/workspace/index.js';
import { injectInboundBurst } from './process.js';
import { type Figure, formatFigure } from './storage.js';

const BURST = 1_000;
const CHANNEL = SEEDED.channels.smsOps;
const TIMEOUT_MS = 180_000;

/** Resolves with the time at which every id of `ids` has been posted. */
function allVisible(fake: Awaited<ReturnType<typeof startFakeSlack>>, ids: Set<number>): Promise<number> {
  const seen = new Set<number>();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`only ${seen.size} of ${ids.size} visible after ${TIMEOUT_MS / 1000} s`));
    }, TIMEOUT_MS);
    const stop = fake.state.journal.on('message', ({ action, message }) => {
      if (action !== 'posted') return;
      for (const block of message.blocks ?? []) {
        const id = Number(((block as { block_id?: string }).block_id ?? '').replace(/^inbound_/, ''));
        if (ids.has(id)) seen.add(id);
      }
      if (seen.size < ids.size) return;
      clearTimeout(timer);
      stop();
      resolve(performance.now());
    });
  });
}

export async function benchInbound(): Promise<Figure[]> {
  const dir = mkdtempSync(join(tmpdir(), 'smsops-bench-inbound-'));
  const sim = await startSimulator({ port: 0 });
  const store = await openStore(`sqlite:${join(dir, 'bench.db')}`);
  const fake = await startFakeSlack({ rateLimits: { postsPerSecondPerChannel: 1, burst: 3 } });
  const gateway = new GatewayClient({ baseUrl: sim.url, username: 'demo', password: 'demo' });
  const poster = createSlackInboundPoster({
    client: inboundWebClient(fake.botToken, { apiUrl: fake.apiUrl }),
    adminUserIds: [],
    reportTimeZone: 'UTC',
    simulated: true,
    logger: silentLogger,
  });
  const relay = new InboundRelay({
    gateway,
    store,
    poster,
    logger: silentLogger,
    settings: { instanceId: 'bench', pollSeconds: 1, defaultChannel: CHANNEL },
  });
  try {
    relay.start();
    await relay.pollOnce();
    const started = performance.now();
    const ids = await injectInboundBurst(sim.url, BURST, '90532');
    const finished = await allVisible(fake, new Set(ids));
    const seconds = Math.round((finished - started) / 100) / 10;
    const posts = fake.state.calls('chat.postMessage').filter((c) => c.status === 200).length;
    const perPost = poster.capacity.items;
    return [
      {
        name: `inbound burst of ${BURST.toLocaleString('en-US')} SMS: seconds until all are visible`,
        value: seconds,
        unit: 's',
        baseline: {
          name: `floor (${BURST.toLocaleString('en-US')} / ${perPost} per post at 1 post/s)`,
          value: Math.round((BURST / perPost) * 10) / 10,
        },
      },
      {
        name: 'inbound burst: Slack posts made',
        value: posts,
        unit: 'posts',
        baseline: { name: `fewest possible at ${perPost} per post`, value: Math.ceil(BURST / perPost) },
      },
      { name: 'inbound burst: 429s received', value: fake.state.ratelimitedCount, unit: '429s' },
    ];
  } finally {
    await relay.stop();
    await gateway.close();
    await fake.close();
    await sim.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const figure of await benchInbound()) console.log(formatFigure(figure));
}
