// Memory does not grow with time. Thirty minutes of the bot's life, compressed by a clock that moves 15 s a
// step: every step the gateway receives inbound SMS, users send through the compose modal (signed slash
// commands and view submissions, as Slack sends them), deliveries move on, and the bot runs one pass of each
// loop (inbound poll and posts, delivery tracker and card updates, digests every 15 minutes with their chart,
// low-balance alerts, retention). The bot runs alone in a process (bench/soak-bot.ts); its RSS over the
// last steps is compared with its RSS once warmed up (the first fifth of the run: every code path taken,
// the chart renderer loaded). The bot's process runs a full garbage collection after each step, so RSS shows
// what it keeps rather than when V8 last collected. Run alone with `npx tsx bench/soak.ts`.
import { pathToFileURL } from 'node:url';
import { SimulatorControl } from '../test/support/simulator.js';
import { SIGNING_SECRET } from '../test/support/slack-harness.js';
import { createSlackDriver, SEEDED, startFakeSlack, type ViewOutput } from '../workspace/index.js';
import { type BenchFigure, type Figure, median, round } from './figure.js';
import { startNodeFlags } from './node-flags.js';
import { injectInboundBurst, rssMiB, spawnNode, spawnSimulator, waitForOutput } from './process.js';
import { formatFigure } from './storage.js';

const SIMULATED_MINUTES = Number(process.env.BENCH_SOAK_MINUTES ?? 30);
const STEP_MS = 15_000;
const STEPS = (SIMULATED_MINUTES * 60_000) / STEP_MS;
const SENDS = 1_000;
const INBOUND = 1_000;
const WARM_UP_STEPS = Math.round(STEPS / 5);
const WINDOW = 5;
const { users, channels } = SEEDED;

export async function benchSoak(): Promise<Figure[]> {
  const fake = await startFakeSlack();
  const sim = await spawnSimulator();
  const control = new SimulatorControl({ url: sim.url });
  const child = spawnNode(
    // A full collection after each step (soak-bot.ts), so RSS follows what the bot keeps, not when V8 collects.
    [...startNodeFlags(), '--expose-gc', '--import', 'tsx', 'bench/soak-bot.ts'],
    {
      SOAK_ENV: JSON.stringify({
        SLACK_BOT_TOKEN: fake.botToken,
        SLACK_SIGNING_SECRET: SIGNING_SECRET,
        SLACK_API_URL: fake.apiUrl,
        ADMIN_USER_IDS: users.admin,
        SMS_GATEWAY_URL: sim.url,
        SMS_GATEWAY_USERNAME: 'demo',
        SMS_GATEWAY_PASSWORD: 'demo',
        INBOUND_CHANNEL: channels.smsOps,
        DIGEST_CHANNEL: channels.smsOps,
        DIGEST_CRON: '*/15 * * * *',
        ALERT_CHECK_MINUTES: '1',
      }),
    },
    { stdin: true },
  );
  child.child.stdin?.setDefaultEncoding('utf8');
  try {
    const [, botUrl] = await waitForOutput(child, /ready (http:\/\/\S+)/, 60_000);
    const driver = createSlackDriver({
      botUrl: `${botUrl}/slack/events`,
      signingSecret: SIGNING_SECRET,
      fake,
    });
    let doneSteps = 0;
    const step = async () => {
      doneSteps += 1;
      child.child.stdin!.write(`step ${STEP_MS}\n`);
      await waitForOutput(child, new RegExp(`done ${doneSteps}\\n`), 120_000);
    };
    const send = async (i: number) => {
      const after = fake.state.journal.seq;
      const number = `0532${String(2_000_000 + i).padStart(7, '0')}`;
      await driver.slashCommand({
        command: '/sms',
        text: `send ${number} Soak ${i}: your order is ready`,
        userId: users.admin,
        channelId: channels.smsOps,
      });
      const call = await fake.state.waitForCall(
        'views.update',
        (c) => (c.args.view as { callback_id?: string }).callback_id === 'compose',
        { after },
      );
      const view = fake.state.views.get(String(call.args.view_id)) as ViewOutput;
      const textBlock = (view.blocks as { block_id?: string }[]).find((b) => b.block_id?.startsWith('text'));
      const result = await driver.viewSubmission({
        userId: users.admin,
        view,
        values: {
          recipients: { recipients: number },
          [textBlock!.block_id!]: { text: `Soak ${i}: your order is ready` },
        },
      });
      if (result.status !== 200) throw new Error(`compose submission: HTTP ${result.status}`);
    };
    // A balance alert to check every minute (it posts when the balance crosses it).
    await driver.slashCommand({
      command: '/sms',
      text: 'alert balance below 1000000',
      userId: users.admin,
      channelId: channels.smsOps,
    });

    const rss: number[] = [];
    let sent = 0;
    let received = 0;
    for (let s = 0; s < STEPS; s++) {
      const sendsNow = Math.round(((s + 1) * SENDS) / STEPS) - sent;
      const inboundNow = Math.round(((s + 1) * INBOUND) / STEPS) - received;
      await injectInboundBurst(sim.url, inboundNow, `9054${String(s).padStart(3, '0')}`);
      received += inboundNow;
      for (let i = 0; i < sendsNow; i++) await send(sent + i);
      sent += sendsNow;
      await control.advance({ deliver: 0.9 });
      await step();
      rss.push(rssMiB(child.child.pid!));
    }
    const heap = [...child.output().matchAll(/heap (\d+) (\S+)/g)].map((m) => Number(m[2]));
    const batches = (await control.callCount('Submit')) + (await control.callCount('SubmitMulti'));
    const warm = median(rss.slice(WARM_UP_STEPS - WINDOW, WARM_UP_STEPS));
    const end = median(rss.slice(-WINDOW));
    const figures: BenchFigure[] = [
      {
        name: `soak: RSS at the end of ${SIMULATED_MINUTES} simulated minutes (${STEPS} steps of ${STEP_MS / 1000} s: ${sent.toLocaleString('en-US')} sends through the modal, ${batches.toLocaleString('en-US')} gateway batches, ${received.toLocaleString('en-US')} inbound SMS, digests every 15 min, alerts every minute; median of the last ${WINDOW} steps)`,
        value: round(end, 1),
        unit: 'MiB',
        baseline: {
          name: `the same process after warm-up (median of steps ${WARM_UP_STEPS - WINDOW + 1}–${WARM_UP_STEPS})`,
          value: round(warm, 1),
        },
        target: { of: 'ratio', atMost: 1.1 },
      },
      {
        name: `soak: live heap after a full collection, end of the run (median of the last ${WINDOW} steps)`,
        value: round(median(heap.slice(-WINDOW)), 1),
        unit: 'MiB',
        baseline: {
          name: 'the same after warm-up',
          value: round(median(heap.slice(WARM_UP_STEPS - WINDOW, WARM_UP_STEPS)), 1),
        },
      },
      {
        name: 'soak: highest RSS during the run',
        value: round(Math.max(...rss), 1),
        unit: 'MiB',
      },
    ];
    return figures;
  } finally {
    child.child.stdin?.write('stop\n');
    await Promise.race([child.exited, new Promise((r) => setTimeout(r, 10_000))]);
    await child.stop();
    await sim.process.stop();
    await fake.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const figure of await benchSoak()) console.log(formatFigure(figure));
}
