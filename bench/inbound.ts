// Inbound burst: 1,000 SMS from 1,000 numbers arrive at once; how long until every one is visible in
// Slack, through the simulator over HTTP and a fake Slack that enforces about one post per second per
// channel (burst 3), as Slack does. The floor is what grouping allows at best: 1,000 divided by the
// messages one post carries, at one post a second. Run alone with `npx tsx bench/inbound.ts`;
// bench/run.ts imports benchInbound().
import { pathToFileURL } from 'node:url';
import { createInboundPoster } from '../src/bot.js';
import { silentLogger } from '../src/log.js';
import { startTestBot } from '../test/support/bot.js';
import { SIGNING_SECRET } from '../test/support/slack-harness.js';
import { SEEDED, startFakeSlack } from '../workspace/index.js';
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
  const fake = await startFakeSlack({ rateLimits: { postsPerSecondPerChannel: 1, burst: 3 } });
  const { bot, close } = await startTestBot({
    SLACK_BOT_TOKEN: fake.botToken,
    SLACK_SIGNING_SECRET: SIGNING_SECRET,
    SLACK_API_URL: fake.apiUrl,
    INBOUND_CHANNEL: CHANNEL,
    INBOUND_POLL_SECONDS: '1',
    REPORT_TIMEZONE: 'UTC',
  });
  const { relay } = bot;
  const simUrl = bot.simulatorUrl!;
  const perPost = createInboundPoster(bot.config, {
    botToken: fake.botToken,
    adminUserIds: [],
    logger: silentLogger,
  }).capacity.items;
  try {
    relay.start();
    await relay.pollOnce();
    const started = performance.now();
    const ids = await injectInboundBurst(simUrl, BURST, '90532');
    const finished = await allVisible(fake, new Set(ids));
    const seconds = Math.round((finished - started) / 100) / 10;
    const posts = fake.state.calls('chat.postMessage').filter((c) => c.status === 200).length;
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
    await close();
    await fake.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const figure of await benchInbound()) console.log(formatFigure(figure));
}
