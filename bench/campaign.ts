// Campaign: a 100,000-recipient send against the simulator (its own process part, over loopback HTTP), as the bot makes it: started
// from the validated plan (startCampaign, what the compose modal's confirm calls), then every chunk of
// SUBMIT_CHUNK_SIZE (1,000) claimed, written to the outbox and submitted through executeSend by the campaign
// runner, with SUBMIT_CHUNK_INTERVAL_MS=0 so the pace does not hide the work. Seconds until the last chunk is
// accepted, and RSS growth (peak, sampled every 20 ms, minus RSS before). The baseline is the floor: the same
// 100 Submit calls of 1,000 numbers made straight with the gateway client, no store, no checks.
// Run alone with `npx tsx bench/campaign.ts`.
import { pathToFileURL } from 'node:url';
import { startCampaign } from '../src/sending/campaign.js';
import type { SendPlan } from '../src/sending/send.js';
import { startSimulator } from '../src/simulator/server.js';
import { startTestBot } from '../test/support/bot.js';
import { SIGNING_SECRET } from '../test/support/slack-harness.js';
import { SEEDED, startFakeSlack } from '../workspace/index.js';
import { type BenchFigure, round } from './figure.js';
import { formatFigure } from './storage.js';

const RECIPIENTS = 100_000;
const CHUNK = 1_000;
const TEXT = 'Your order is ready for pickup at the Kadıköy store until 20:00. Reply STOP to opt out.';

function plan(offset: number): SendPlan {
  const recipients = Array.from(
    { length: RECIPIENTS },
    (_, i) => `90532${String(offset + i).padStart(7, '0')}`,
  );
  return {
    sender: 'SMSOPS',
    recipients,
    text: TEXT,
    encoding: 'GSM-7',
    dataCoding: 'TurkishSingleShift',
    validityMinutes: 1440,
    totalSegments: RECIPIENTS,
    estimatedCost: RECIPIENTS * 0.05,
  };
}

/** Peak RSS while `work` runs, sampled every 20 ms. */
async function withPeakRss<T>(work: () => Promise<T>): Promise<{ result: T; peak: number }> {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  try {
    const result = await work();
    return { result, peak: Math.max(peak, process.memoryUsage().rss) };
  } finally {
    clearInterval(timer);
  }
}

export async function benchCampaign(): Promise<BenchFigure[]> {
  const fake = await startFakeSlack();
  // Credit for both runs: the simulator's default balance pays for 25,000 messages.
  const sim = await startSimulator({ port: 0, initialBalance: 2 * RECIPIENTS });
  const { bot, close } = await startTestBot({
    SMS_GATEWAY_URL: sim.url,
    SMS_GATEWAY_USERNAME: 'demo',
    SMS_GATEWAY_PASSWORD: 'demo',
    SLACK_BOT_TOKEN: fake.botToken,
    SLACK_SIGNING_SECRET: SIGNING_SECRET,
    SLACK_API_URL: fake.apiUrl,
    ADMIN_USER_IDS: SEEDED.users.admin,
    SUBMIT_CHUNK_SIZE: String(CHUNK),
    SUBMIT_CHUNK_INTERVAL_MS: '0',
    MAX_RECIPIENTS: String(RECIPIENTS),
  });
  try {
    // The floor: the gateway calls alone.
    const floorPlan = plan(5_000_000);
    const floorStart = performance.now();
    for (let i = 0; i < RECIPIENTS; i += CHUNK) {
      await bot.gateway.submit({
        from: floorPlan.sender,
        to: floorPlan.recipients.slice(i, i + CHUNK),
        message: TEXT,
        dataCoding: floorPlan.dataCoding,
        validityMinutes: 1440,
      });
    }
    const floorSeconds = (performance.now() - floorStart) / 1000;

    global.gc?.();
    const rssBefore = process.memoryUsage().rss;
    const started = performance.now();
    const { result: campaignId, peak } = await withPeakRss(async () => {
      const { campaign } = await startCampaign(
        bot.deps,
        {
          idempotencyKey: 'bench:campaign',
          slackUser: SEEDED.users.admin,
          channel: SEEDED.channels.smsOps,
          plan: plan(0),
        },
        CHUNK,
      );
      for (;;) {
        await bot.campaigns.tick();
        const now = await bot.store.campaigns.get(campaign.id);
        if (now?.state !== 'running') return campaign.id;
      }
    });
    const seconds = (performance.now() - started) / 1000;
    const done = await bot.store.campaigns.get(campaignId);
    if (done?.state !== 'done') throw new Error(`campaign ended ${done?.state}: ${done?.stopReason}`);
    const chunks = (await bot.store.campaigns.chunks(campaignId)).filter((c) => c.state === 'submitted');
    if (chunks.length !== RECIPIENTS / CHUNK) throw new Error(`only ${chunks.length} chunks submitted`);
    const n = RECIPIENTS.toLocaleString('en-US');
    return [
      {
        name: `campaign of ${n} recipients in chunks of ${CHUNK.toLocaleString('en-US')}, pace 0: seconds until every chunk is accepted`,
        value: round(seconds, 2),
        unit: 's',
        baseline: {
          name: `floor: the same ${RECIPIENTS / CHUNK} Submit calls straight from the gateway client`,
          value: round(floorSeconds, 2),
        },
      },
      {
        name: `campaign of ${n} recipients: RSS growth at peak (over the RSS before it, after the floor run)`,
        value: round((peak - rssBefore) / 2 ** 20, 1),
        unit: 'MiB',
      },
      {
        name: `campaign of ${n} recipients: peak RSS of the whole process (bot, simulator, fake Slack)`,
        value: round(peak / 2 ** 20, 1),
        unit: 'MiB',
      },
    ];
  } finally {
    await close();
    await fake.close();
    await sim.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const figure of await benchCampaign()) console.log(formatFigure(figure));
}
