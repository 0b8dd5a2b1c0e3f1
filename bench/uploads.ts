// Uploads against the running bot (issue 28 §3): what a file costs the thread that answers Slack, measured from
// outside, as a person feels it. The bot runs as `npm start` runs it (its node flags, scripts/start.mjs, the
// built dist/ with its reading threads), the gateway simulator in a process of its own, the fake Slack in this
// one, and the client that times the acks in one of its own (the reads' times, which need the fake Slack, are
// timed here).
//
// - Ack latency of `/sms balance`, sent one after another GAP_MS after each ack (and a floor ack, below), idle
//   (before and after, pooled) against while a 100,000-recipient campaign runs (at SUBMIT_CHUNK_INTERVAL_MS's
//   default, 1 s: 100 s; BENCH_CAMPAIGN_PACE_MS sets another, 0 for its chunks as fast as the gateway takes them)
//   and 100,000-row .xlsx files are read, one after another, for as long as it runs. Target: p99 at most 1.5x
//   idle's, no ack over 1 s. The reads alone and the campaign alone are measured too (no target), to say which
//   costs the acks what.
//   Beside each window, what the cores did (cpu-share.ts, Linux): how busy they were and how long the bot's main
//   thread waited for one, on average, against the same during the first idle acks (no target).
// - The floor of those acks: halfway between two of the bot's acks, the same signed `/sms balance` goes to a bare
//   Bolt app (bare-bolt.mjs: one listener that only acks) in a process of its own, timed by the same client, idle
//   and in each window (no target): what this machine lets an ack that does nothing cost, under the same load. Its
//   loaded p99 is shown against the bot's idle p99, the target's baseline. Not a lower bound: the bare app is
//   timed while the bot follows up its last command, and it adds its own load to the machine.
// - The bot's RSS (VmRSS, every 20 ms) and its acks while two hostile files are read: a 4.2 MB .xlsx whose zip
//   directory declares 1 kB for a part that inflates to 1.4 GB, and a 10 MB CSV of one line of 800,000 fields.
//   Target: RSS within 300 MiB of idle, no ack over 1 s.
//
// The idle acks are the baseline of the loaded ones: only figures from the same run mean anything on these
// machines (a load of 10 on 2 cores moves a p99 by half between runs). The acks are sent and timed in a process
// of their own (ack-timer.ts): timed here, beside the fake Slack serving the files and taking the views, they
// also waited for this process's own stalls (its event loop held 9-14 ms at p99 under load, 4-5 ms idle).
//
// Run alone with `npx tsx bench/uploads.ts` (`--quick`: fewer idle acks, for a look while changing things).
// For an experiment on one window (the command line only, never `npm run bench`; checked before anything starts):
// - BENCH_UPLOADS_WINDOW=both|reads|campaign: the idle acks, that window, the idle acks again, printed as one JSON
//   line (p99 and p50 against idle's, the floor's beside them, the reads, the peak RSS); the hostile files are not
//   uploaded. `reads` reads BENCH_UPLOADS_READS files (60).
// - BENCH_BOT_NODE_FLAGS: node flags for the bot after npm start's, split on spaces (e.g. `--trace-gc-nvp`, or
//   `--cpu-prof --cpu-prof-dir=/tmp/prof`: without a folder the profiles land in the checkout). Other V8 flags
//   than npm start's make the bot reject and rewrite dist/'s code cache (see docs/performance.md).
// - BENCH_BOT_OUTPUT: a file all of the bot's output is appended to (the bench keeps only its first 200,000
//   characters): what a GC trace needs.
// - BENCH_UPLOADS_IDLE_ACKS: the idle acks before the window and again after it (IDLE_ACKS, 150 with --quick).
// - BENCH_UPLOADS_ACKS=floor: only the bare app's acks are sent and timed, the bot gets no `/sms balance` (it still
//   runs the campaign at its pace and reads the files back to back, more of them with no balance to answer): what
//   this machine gives a bare Bolt app under that load, against its own idle acks, with no `/sms balance` of the
//   bot's to follow up meanwhile. The bot's figures in the JSON line are null.

import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import ExcelJS from 'exceljs';
import { ensureBuilt } from '../scripts/build.mjs';
import { loadConfig } from '../src/config.js';
import { closedPort } from '../test/support/raw-server.js';
import { SIGNING_SECRET, textBlockOf } from '../test/support/slack-harness.js';
import { lyingXlsx } from '../test/support/zip-bomb.js';
import {
  createSlackDriver,
  type FakeSlack,
  SEEDED,
  startFakeSlack,
  type ViewOutput,
} from '../workspace/index.js';
import { ackTimer } from './ack-timer.js';
import { balanceAck } from './balance-ack.js';
import { type CpuShare, cpuWatch } from './cpu-share.js';
import { type BenchFigure, type Figure, median, percentile, round } from './figure.js';
import { startNodeFlags } from './node-flags.js';
import { rssMiB, type Spawned, spawnNode, untilHealthy, waitForOutput } from './process.js';
import { formatFigure } from './storage.js';

const ROWS = 100_000;
/**
 * Between one of the bot's acks and its next command (a floor ack halfway): a steady trickle, not a flood that would
 * measure the queue.
 */
const GAP_MS = 10;
/**
 * Idle acks before the windows and again after them, the target's baseline. 3,000 each since 2026-11-29 (tenth
 * session), where 500 each made a baseline noisier than the target's margin: within one run, the idle p99 of
 * overlapping stretches of 1,000 acks put the same loaded p99 at 1.02x-2.26x (docs/performance.md).
 */
const IDLE_ACKS = 3_000;
const BOMB_INFLATED = 1.4e9;
/**
 * SUBMIT_CHUNK_INTERVAL_MS of the campaigns: the bot's default, 1 s, as a campaign runs unless an admin sets
 * another pace. Its 100 s give the loaded window 5,000-7,000 acks beside 350-1,500 reads (by the host), where pace 0
 * (chunks as fast as the gateway takes them: 4-8 s on this project's machines) gave ~120 acks and ~10 reads, and a
 * p99 that was one slow ack.
 */
const CAMPAIGN_PACE_MS = Number(process.env.BENCH_CAMPAIGN_PACE_MS ?? loadConfig({}).sending.chunkIntervalMs);
const ONE_LINE_FIELDS = 800_000;
const { users, channels } = SEEDED;

type Driver = ReturnType<typeof createSlackDriver>;

interface Run {
  fake: FakeSlack;
  driver: Driver;
  /** The same Slack, its requests sent and timed in a process of their own: the acks measured (ack-timer.ts). */
  ackDriver: Driver;
  /** The same, to the bare Bolt app: the floor of the acks. */
  floorDriver: Driver;
  /** Only the floor's acks sent (BENCH_UPLOADS_ACKS=floor): the bot is sent no `/sms balance` in the series. */
  floorOnly: boolean;
  bot: Spawned;
  dbPath: string;
}

/** One loaded window alone, with what the bot is run with: an experiment's (see the top of this file). */
export interface UploadsExperiment {
  window: 'both' | 'reads' | 'campaign';
  reads: number;
  botNodeFlags: string[];
  botOutput?: string;
  /** Idle acks before and after the window, when not the bench's own count. */
  idleAcks?: number;
  /** `floor`: the bot's acks left out of the series (see the top of this file). */
  acks: 'both' | 'floor';
}

export async function benchUploads(
  options: { quick?: boolean; experiment?: UploadsExperiment } = {},
): Promise<Figure[]> {
  const { experiment } = options;
  const idleAcks = experiment?.idleAcks ?? (options.quick ? 150 : IDLE_ACKS);
  await ensureBuilt();
  const dir = mkdtempSync(join(tmpdir(), 'smsops-bench-uploads-'));
  // Made before the bot starts: building the bomb is 10 s of this process's CPU.
  const files = {
    campaigns: [campaignCsv(2_000_000), campaignCsv(3_000_000)] as const,
    xlsx: await numbersXlsx(),
    bomb: await cachedBomb(),
    oneLine: oneLineCsv(),
    smallXlsx: await numbersXlsx(1_000),
  };
  const fake = await startFakeSlack();
  const sim = spawnNode(['--import', 'tsx', 'bench/funded-simulator.ts', String(4 * ROWS)], {
    LOG_LEVEL: 'warn',
  });
  let bot: Spawned | undefined;
  let bare: Spawned | undefined;
  const timer = ackTimer();
  try {
    const [, simUrl] = await waitForOutput(sim, /listening on (http:\/\/\S+)/);
    const barePort = await closedPort();
    bare = spawnNode(['bench/bare-bolt.mjs'], {
      SLACK_BOT_TOKEN: fake.botToken,
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
      SLACK_API_URL: fake.apiUrl,
      PORT: String(barePort),
    });
    await untilHealthy(bare, barePort);
    const port = await closedPort();
    const dbPath = join(dir, 'uploads.db');
    bot = spawnNode(
      [...startNodeFlags(), ...(experiment?.botNodeFlags ?? []), 'scripts/start.mjs'],
      {
        SLACK_BOT_TOKEN: fake.botToken,
        SLACK_SIGNING_SECRET: SIGNING_SECRET,
        SLACK_API_URL: fake.apiUrl,
        PORT: String(port),
        DATABASE_URL: `sqlite:${dbPath}`,
        ADMIN_USER_IDS: users.admin,
        SMS_GATEWAY_URL: simUrl!,
        SMS_GATEWAY_USERNAME: 'demo',
        SMS_GATEWAY_PASSWORD: 'demo',
        SMS_GATEWAY_TIMEOUT_MS: '10000',
        MAX_RECIPIENTS: String(ROWS),
        SUBMIT_CHUNK_INTERVAL_MS: String(CAMPAIGN_PACE_MS),
        LOG_LEVEL: 'warn',
      },
      experiment?.botOutput ? { outputFile: experiment.botOutput } : {},
    );
    await untilHealthy(bot, port);
    const driver = createSlackDriver({
      botUrl: `http://127.0.0.1:${port}/slack/events`,
      signingSecret: SIGNING_SECRET,
      fake,
    });
    const ackDriver = createSlackDriver({
      botUrl: `http://127.0.0.1:${port}/slack/events`,
      signingSecret: SIGNING_SECRET,
      fake,
      transport: timer.transport,
    });
    const floorDriver = createSlackDriver({
      botUrl: `http://127.0.0.1:${barePort}/slack/events`,
      signingSecret: SIGNING_SECRET,
      fake,
      transport: timer.transport,
    });
    const floorOnly = experiment?.acks === 'floor';
    const run: Run = { fake, driver, ackDriver, floorDriver, floorOnly, bot, dbPath };
    await warmUp(run, files.smallXlsx);
    const idleWatch = cpuWatch(run.bot.child.pid!);
    const idleBefore = await ackSeries(run, idleAcks);
    const idleCpu = idleWatch.stop();
    if (experiment) {
      await oneWindow(run, files, experiment, idleBefore, idleAcks, idleCpu);
      return [];
    }
    const bomb = await hostileUpload(run, 'liste.xlsx', files.bomb, 'same');
    const oneLine = await hostileUpload(run, 'tek-satir.csv', files.oneLine, 'personalised');
    // Apart first, then together: which of the two costs the acks what, when together misses its target.
    const reads = await readsAlone(run, files.xlsx, options.quick ? 3 : 6);
    const alone = await campaign(run, files.campaigns[0]);
    const both = await campaign(run, files.campaigns[1], files.xlsx);
    // The reading threads idle out (15 s) on their own; the acks after do not wait for that.
    const idleAfter = await ackSeries(run, idleAcks);
    return figuresOf({ acks: pooled(idleBefore, idleAfter), cpu: idleCpu }, { reads, alone, both }, [
      {
        what: `a ${mib(files.bomb.length)} .xlsx whose zip directory declares 1 kB for a part that inflates to ${(BOMB_INFLATED / 1e9).toFixed(1)} GB`,
        r: bomb,
      },
      {
        what: `a ${mib(files.oneLine.length)} CSV of one line (${ONE_LINE_FIELDS.toLocaleString('en-US')} fields), personalised`,
        r: oneLine,
      },
    ]);
  } finally {
    await bot?.stop();
    await bare?.stop();
    await sim.stop();
    await fake.close();
    await timer.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;

// --- the files -------------------------------------------------------------------------------------------------

function campaignCsv(offset: number): Buffer {
  const lines = ['Telefon'];
  for (let i = 0; i < ROWS; i++) lines.push(`0532${String(offset + i)}`);
  return Buffer.from(`${lines.join('\n')}\n`);
}

/** As bench/files.ts makes it: numbers stored as numbers, a name beside each. */
async function numbersXlsx(rows = ROWS): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Liste');
  sheet.addRow(['GSM NO', 'Ad']);
  for (let i = 0; i < rows; i++) sheet.addRow([5_321_000_000 + i, `Ad ${i}`]);
  return Buffer.from((await workbook.xlsx.writeBuffer()) as ArrayBuffer);
}

function oneLineCsv(): Buffer {
  const fields = Array.from({ length: ONE_LINE_FIELDS }, (_, i) => `isim-${String(i).padStart(7, '0')}`);
  return Buffer.from(fields.join(','));
}

/**
 * The lying zip takes ~10 s to deflate: kept in the temporary folder under the hash of its builder and size,
 * so a run builds it once and the runs after it (the same builder) read it back.
 */
async function cachedBomb(): Promise<Buffer> {
  const builder = readFileSync(new URL('../test/support/zip-bomb.ts', import.meta.url));
  const key = createHash('sha256').update(builder).update(String(BOMB_INFLATED)).digest('hex').slice(0, 16);
  const path = join(tmpdir(), `smsops-bench-lying-${key}.xlsx`);
  if (existsSync(path)) return readFileSync(path);
  const bytes = await lyingXlsx(BOMB_INFLATED);
  writeFileSync(`${path}.part`, bytes);
  renameSync(`${path}.part`, path);
  return bytes;
}

// --- driving the bot --------------------------------------------------------------------------------------------

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The bot's acks, and the bare Bolt app's sent halfway between them: their floor on this machine, now. */
interface AckTimes {
  bot: number[];
  floor: number[];
}

/**
 * One of the bot's acks, then one of the floor's, each followed by half the gap (the bot's next waits for both).
 * With `floorOnly`, the floor's alone, at the same pace.
 */
async function ackPair(run: Run, times: AckTimes): Promise<void> {
  if (!run.floorOnly) times.bot.push(await balanceAck(run.ackDriver));
  await pause(GAP_MS / 2);
  times.floor.push(await balanceAck(run.floorDriver));
  await pause(GAP_MS / 2);
}

/** Two series as one: the idle acks before the windows and after them. */
function pooled(a: AckTimes, b: AckTimes): AckTimes {
  return { bot: [...a.bot, ...b.bot], floor: [...a.floor, ...b.floor] };
}

async function ackSeries(run: Run, count: number): Promise<AckTimes> {
  const times: AckTimes = { bot: [], floor: [] };
  for (let i = 0; i < count; i++) await ackPair(run, times);
  return times;
}

/** Acks one after another until `stop()` is called: resolves with their times. */
function acksMeanwhile(run: Run): { stop(): Promise<AckTimes> } {
  const times: AckTimes = { bot: [], floor: [] };
  let going = true;
  let failed: unknown;
  // A failed ack (the bot or the bare app gone) ends the loop and is thrown by stop(): never an unhandled
  // rejection, which would exit before the bench stops its processes.
  const loop = (async () => {
    while (going) await ackPair(run, times);
  })().catch((error: unknown) => {
    failed = error;
  });
  return {
    stop: async () => {
      going = false;
      await loop;
      if (failed !== undefined) throw failed;
      return times;
    },
  };
}

/** The bot's RSS every 20 ms. */
function rssSampler(pid: number) {
  const samples: { at: number; mib: number }[] = [];
  const take = () => {
    // A bot gone (it crashed: the bench fails on its next ack) has no RSS to sample.
    if (existsSync(`/proc/${pid}`)) samples.push({ at: performance.now(), mib: rssMiB(pid) });
  };
  take();
  const timer = setInterval(take, 20);
  return {
    samples,
    stop: () => clearInterval(timer),
    /** The highest sample from `from` on. */
    peakSince: (from: number) => Math.max(...samples.filter((s) => s.at >= from).map((s) => s.mib)),
  };
}

/**
 * `/sms send`, the mode chosen, the file attached and the form submitted: resolves with the view that replaced
 * "Reading the file" (a confirmation, or what is wrong with the file) and the time from the submission to it.
 */
async function composeWithFile(
  run: Run,
  filename: string,
  bytes: Buffer,
  mode: 'same' | 'personalised',
  text = mode === 'same' ? 'Kampanya başladı: tüm ürünlerde %20 indirim.' : 'Merhaba {{Ad}}',
): Promise<{ view: ViewOutput; ms: number }> {
  const { fake, driver } = run;
  const wait = { timeoutMs: 120_000 };
  let after = fake.state.journal.seq;
  await driver.slashCommand({
    command: '/sms',
    text: 'send',
    userId: users.admin,
    channelId: channels.smsOps,
  });
  const opened = await fake.state.waitForCall(
    'views.update',
    (c) => (c.args.view as { callback_id?: string }).callback_id === 'compose',
    { ...wait, after },
  );
  let view = fake.state.views.get(String(opened.args.view_id))!;
  if (mode === 'personalised') {
    after = fake.state.journal.seq;
    await driver.blockAction({
      userId: users.admin,
      view,
      actionId: 'mode',
      blockId: 'mode',
      selectedOption: { value: 'personalised' },
    });
    const chosen = await fake.state.waitForCall('views.update', () => true, { ...wait, after });
    view = fake.state.views.get(String(chosen.args.view_id))!;
  }
  const file = fake.state.files.addUpload({ filename, bytes, uploader: users.admin });
  after = fake.state.journal.seq;
  const started = performance.now();
  const submitted = await driver.viewSubmission({
    userId: users.admin,
    view,
    values: { [textBlockOf(view)]: { text }, file: { file: [file.id] } },
  });
  if (submitted.outcome.kind !== 'pushed') {
    throw new Error(
      `${filename}: the compose was answered ${JSON.stringify(submitted.outcome).slice(0, 300)}`,
    );
  }
  const shown = await fake.state.waitForCall('views.update', (c) => typeof c.args.external_id === 'string', {
    ...wait,
    after,
  });
  const ms = performance.now() - started;
  const id = (shown.result as { view?: { id?: string } } | undefined)?.view?.id;
  return { view: fake.state.views.get(String(id))!, ms };
}

async function untilReplies(fake: FakeSlack, count: number): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (fake.state.journal.entries('response').length < count) {
    if (Date.now() > deadline)
      throw new Error(`only ${fake.state.journal.entries('response').length} of ${count} replies`);
    await pause(50);
  }
}

/** What a bot meets in its first minutes: balance commands to the reply, a small file read to its confirmation. */
async function warmUp(run: Run, smallXlsx: Buffer): Promise<void> {
  const replies = run.fake.state.journal.entries('response').length;
  for (let i = 0; i < 100; i++) await balanceAck(run.ackDriver);
  await untilReplies(run.fake, replies + 100);
  // The floor's first acks open its connection and run Bolt's paths cold: not in its idle series.
  for (let i = 0; i < 100; i++) await balanceAck(run.floorDriver);
  for (let i = 0; i < 2; i++) {
    const { view } = await composeWithFile(run, 'isinma.xlsx', smallXlsx, 'same');
    if (view.callback_id !== 'confirm_send') throw new Error(`warm-up: ${view.title.text}`);
  }
}

interface Hostile {
  idleRssMiB: number;
  peakRssMiB: number;
  /** Two seconds after the person was told: what is left of the read. */
  rssAfterMiB: number;
  acks: number[];
  readMs: number;
  outcome: string;
}

/** A file made to hurt: the bot's RSS before, during and after, and its acks while it is read. */
async function hostileUpload(
  run: Run,
  filename: string,
  bytes: Buffer,
  mode: 'same' | 'personalised',
): Promise<Hostile> {
  const rss = rssSampler(run.bot.child.pid!);
  try {
    return await measureHostile(run, rss, filename, bytes, mode);
  } finally {
    rss.stop();
  }
}

async function measureHostile(
  run: Run,
  rss: ReturnType<typeof rssSampler>,
  filename: string,
  bytes: Buffer,
  mode: 'same' | 'personalised',
): Promise<Hostile> {
  await pause(1_000);
  const idleRssMiB = median(rss.samples.map((s) => s.mib));
  const from = performance.now();
  const acks = acksMeanwhile(run);
  let read: { view: ViewOutput; ms: number };
  let ackMs: number[];
  try {
    read = await composeWithFile(run, filename, bytes, mode);
  } finally {
    ackMs = (await acks.stop()).bot;
  }
  await pause(2_000);
  const rssAfterMiB = rss.samples.at(-1)!.mib;
  const text = JSON.stringify(read.view.blocks);
  if (read.view.callback_id === 'confirm_send')
    throw new Error(`${filename} was taken for a list: ${text.slice(0, 300)}`);
  return {
    idleRssMiB,
    peakRssMiB: rss.peakSince(from),
    rssAfterMiB,
    acks: ackMs,
    readMs: read.ms,
    outcome: `${read.view.title.text}: ${/“[^”]+”[^"\\]*/.exec(text)?.[0]?.slice(0, 120) ?? text.slice(0, 120)}`,
  };
}

interface Loaded {
  acks: number[];
  /** The bare Bolt app's, between them. */
  floorAcks: number[];
  /** .xlsx reads, from submission to confirmation. */
  readMs: number[];
  /** Seconds from the confirmation's submission until the campaign is done; absent without a campaign. */
  campaignSeconds?: number;
  peakRssMiB: number;
  idleRssMiB: number;
  /** What the cores did while the acks were timed (cpu-share.ts); undefined off Linux. */
  cpu: CpuShare | undefined;
}

/** `/sms balance` acked one after another for as long as `work` runs, and the bot's RSS meanwhile. */
async function underLoad(
  run: Run,
  work: () => Promise<Omit<Loaded, 'acks' | 'floorAcks' | 'peakRssMiB' | 'idleRssMiB' | 'cpu'>>,
): Promise<Loaded> {
  const rss = rssSampler(run.bot.child.pid!);
  await pause(1_000);
  const idleRssMiB = median(rss.samples.map((s) => s.mib));
  const from = performance.now();
  const cpu = cpuWatch(run.bot.child.pid!);
  const acks = acksMeanwhile(run);
  try {
    const done = await work();
    const timed = await acks.stop();
    return {
      ...done,
      acks: timed.bot,
      floorAcks: timed.floor,
      cpu: cpu.stop(),
      peakRssMiB: rss.peakSince(from),
      idleRssMiB,
    };
  } finally {
    await acks.stop();
    rss.stop();
  }
}

async function readXlsx(run: Run, xlsx: Buffer, readMs: number[]): Promise<void> {
  const { view, ms } = await composeWithFile(run, `liste-${readMs.length + 1}.xlsx`, xlsx, 'same');
  if (view.callback_id !== 'confirm_send') throw new Error(`100,000-row .xlsx: ${view.title.text}`);
  readMs.push(ms);
}

/** 100,000-row .xlsx files composed one after another, `count` of them. */
function readsAlone(run: Run, xlsx: Buffer, count: number): Promise<Loaded> {
  return underLoad(run, async () => {
    const readMs: number[] = [];
    while (readMs.length < count) await readXlsx(run, xlsx, readMs);
    return { readMs };
  });
}

/**
 * A 100,000-recipient campaign confirmed; with `xlsx`, 100,000-row .xlsx files composed one after another for
 * as long as it runs. The confirmation is made first, outside the measure (its file is read like the others).
 */
async function campaign(run: Run, campaignFile: Buffer, xlsx?: Buffer): Promise<Loaded> {
  const review = await composeWithFile(run, 'kampanya.csv', campaignFile, 'same');
  if (review.view.callback_id !== 'confirm_send') throw new Error(`campaign file: ${review.view.title.text}`);
  const db = new Database(run.dbPath, { readonly: true, fileMustExist: true });
  const done = db.prepare('select count(*) as n from campaigns where state = ?');
  const failed = db.prepare("select state from campaigns where state not in ('running', 'done')");
  const before = (done.get('done') as { n: number }).n;
  try {
    return await underLoad(run, async () => {
      const confirmed = await run.driver.viewSubmission({ userId: users.admin, view: review.view });
      if (confirmed.status !== 200) throw new Error(`campaign confirm: HTTP ${confirmed.status}`);
      const started = performance.now();
      let running = true;
      const watch = (async () => {
        const deadline = Date.now() + 300_000;
        while ((done.get('done') as { n: number }).n === before) {
          const bad = failed.get() as { state: string } | undefined;
          if (bad) throw new Error(`the campaign ended ${bad.state}`);
          if (Date.now() > deadline) throw new Error('the campaign ran for more than 5 minutes');
          await pause(100);
        }
        return (performance.now() - started) / 1000;
      })().finally(() => {
        running = false;
      });
      const readMs: number[] = [];
      while (xlsx && running) await readXlsx(run, xlsx, readMs);
      if (xlsx && readMs.length === 0) throw new Error('no .xlsx was read while the campaign ran');
      return { readMs, campaignSeconds: await watch };
    });
  } finally {
    db.close();
  }
}

/** One loaded window between two idle series, printed as a JSON line (BENCH_UPLOADS_WINDOW). */
async function oneWindow(
  run: Run,
  files: { campaigns: readonly Buffer[]; xlsx: Buffer },
  experiment: UploadsExperiment,
  idleBefore: AckTimes,
  idleAcks: number,
  idleCpu: CpuShare | undefined,
): Promise<void> {
  const { window } = experiment;
  const loaded =
    window === 'reads'
      ? await readsAlone(run, files.xlsx, experiment.reads)
      : await campaign(run, files.campaigns[1]!, window === 'both' ? files.xlsx : undefined);
  const { bot: idle, floor: floorIdle } = pooled(idleBefore, await ackSeries(run, idleAcks));
  const at = (ms: number[], p: number) => round(percentile(ms, p), 2);
  // With BENCH_UPLOADS_ACKS=floor the bot's series are empty: its figures are null, never a ratio of nothing.
  const bot = !run.floorOnly;
  const ratioOf = (a: number[], b: number[]) => round(percentile(a, 99) / percentile(b, 99), 2);
  console.log(
    JSON.stringify({
      window,
      acksSent: experiment.acks,
      idleAcksEachSide: idleAcks,
      botNodeFlags: experiment.botNodeFlags.join(' '),
      p99: bot ? at(loaded.acks, 99) : null,
      idleP99: bot ? at(idle, 99) : null,
      ratio: bot ? ratioOf(loaded.acks, idle) : null,
      p50: bot ? at(loaded.acks, 50) : null,
      idleP50: bot ? at(idle, 50) : null,
      slowest: bot ? round(Math.max(...loaded.acks), 1) : null,
      floor: {
        p99: at(loaded.floorAcks, 99),
        idleP99: at(floorIdle, 99),
        ratio: ratioOf(loaded.floorAcks, floorIdle),
        // As the whole run prints it: against the bot's idle p99, the target's baseline.
        overBotIdleP99: bot ? ratioOf(loaded.floorAcks, idle) : null,
        p50: at(loaded.floorAcks, 50),
        idleP50: at(floorIdle, 50),
        slowest: round(Math.max(...loaded.floorAcks), 1),
      },
      acks: loaded.acks.length,
      floorAcks: loaded.floorAcks.length,
      reads: loaded.readMs.length,
      readMedianMs: loaded.readMs.length > 0 ? round(median(loaded.readMs), 0) : null,
      peakRssMiB: round(loaded.peakRssMiB, 1),
      idleRssMiB: round(loaded.idleRssMiB, 1),
      cpu: loaded.cpu ? cpuFigures(loaded.cpu) : null,
      // Over the first idle series only (the p99 and p50 above pool both).
      idleCpu: idleCpu ? cpuFigures(idleCpu) : null,
    }),
  );
}

/** The experiment the environment asks for, if any: refused at once when a value is not one the bench takes. */
function experimentFromEnv(env: NodeJS.ProcessEnv): UploadsExperiment | undefined {
  const window = env.BENCH_UPLOADS_WINDOW;
  if (window === undefined || window === '') {
    for (const name of [
      'BENCH_UPLOADS_READS',
      'BENCH_BOT_NODE_FLAGS',
      'BENCH_BOT_OUTPUT',
      'BENCH_UPLOADS_IDLE_ACKS',
      'BENCH_UPLOADS_ACKS',
    ]) {
      if (env[name])
        throw new Error(`${name} is for an experiment on one window: set BENCH_UPLOADS_WINDOW too`);
    }
    return undefined;
  }
  if (window !== 'both' && window !== 'reads' && window !== 'campaign') {
    throw new Error(`BENCH_UPLOADS_WINDOW is both, reads or campaign, not ${JSON.stringify(window)}`);
  }
  const reads = Number(env.BENCH_UPLOADS_READS ?? 60);
  if (!Number.isInteger(reads) || reads < 1) {
    throw new Error(
      `BENCH_UPLOADS_READS is a whole number of files, 1 or more, not ${JSON.stringify(env.BENCH_UPLOADS_READS)}`,
    );
  }
  const idleAcks = env.BENCH_UPLOADS_IDLE_ACKS ? Number(env.BENCH_UPLOADS_IDLE_ACKS) : undefined;
  if (idleAcks !== undefined && (!Number.isInteger(idleAcks) || idleAcks < 100)) {
    throw new Error(
      `BENCH_UPLOADS_IDLE_ACKS is a whole number of acks, 100 or more, not ${JSON.stringify(env.BENCH_UPLOADS_IDLE_ACKS)}`,
    );
  }
  const acks = env.BENCH_UPLOADS_ACKS || 'both';
  if (acks !== 'both' && acks !== 'floor') {
    throw new Error(`BENCH_UPLOADS_ACKS is both or floor, not ${JSON.stringify(acks)}`);
  }
  return {
    window,
    reads,
    botNodeFlags: (env.BENCH_BOT_NODE_FLAGS ?? '').split(/\s+/).filter(Boolean),
    ...(env.BENCH_BOT_OUTPUT ? { botOutput: env.BENCH_BOT_OUTPUT } : {}),
    ...(idleAcks !== undefined ? { idleAcks } : {}),
    acks,
  };
}

// --- the figures ------------------------------------------------------------------------------------------------

/** A window's CPU share as printed: percentages of all cores, milliseconds per second of the main thread. */
function cpuFigures(cpu: CpuShare) {
  return {
    coresBusyPct: round(cpu.busy * 100, 1),
    stealPct: round(cpu.steal * 100, 1),
    mainRunMsPerS: round(cpu.mainRunMsPerS, 1),
    mainWaitMsPerS: round(cpu.mainWaitMsPerS, 1),
  };
}

function figuresOf(
  { acks: idleTimes, cpu: idleCpu }: { acks: AckTimes; cpu: CpuShare | undefined },
  loads: { reads: Loaded; alone: Loaded; both: Loaded },
  hostile: { what: string; r: Hostile }[],
): BenchFigure[] {
  const idle = idleTimes.bot;
  const idleP99 = round(percentile(idle, 99), 2);
  const floorIdleP99 = round(percentile(idleTimes.floor, 99), 2);
  const idleMax = round(Math.max(...idle), 1);
  const n = (v: number) => v.toLocaleString('en-US');
  const campaignText = (l: Loaded) =>
    `a ${n(ROWS)}-recipient campaign runs (pace ${CAMPAIGN_PACE_MS} ms: ${round(l.campaignSeconds ?? 0, 1)} s)`;
  const readsText = (l: Loaded) =>
    `${l.readMs.length} ${n(ROWS)}-row .xlsx files are read one after another (${n(Math.round(median(l.readMs)))} ms each, median, submission to confirmation)`;
  const windows: { during: string; l: Loaded; targets: boolean }[] = [
    {
      during: `while ${campaignText(loads.both)} and ${readsText(loads.both)}`,
      l: loads.both,
      targets: true,
    },
    { during: `while ${readsText(loads.reads)}, no campaign`, l: loads.reads, targets: false },
    { during: `while ${campaignText(loads.alone)}, no file read`, l: loads.alone, targets: false },
  ];
  const figures: BenchFigure[] = [];
  for (const { during, l, targets } of windows) {
    const note = targets ? '' : ' (no target: the parts of the figure above, apart)';
    figures.push(
      {
        name: `/sms balance ack ${during}: p99 of ${n(l.acks.length)} acks, the next sent ${GAP_MS} ms after each plus a floor ack${targets ? ` (idle: ${n(idle.length / 2)} acks before and ${n(idle.length / 2)} after)` : note}`,
        value: round(percentile(l.acks, 99), 2),
        unit: 'ms',
        baseline: { name: 'idle p99, same run', value: idleP99 },
        ...(targets ? { target: { of: 'ratio', atMost: 1.5 } as const } : {}),
      },
      {
        // Against the target's baseline, not the floor's own idle p99: that one is timed while the bot follows up
        // its last ack (the balance fetched and posted), so it is not quiet (nor is the loaded one, for the same
        // reason).
        name: `the floor: a bare Bolt app's /sms ack ${during} (bare-bolt.mjs, its own process, sent halfway between the bot's acks by the same client): p99 of ${n(l.floorAcks.length)} (its own idle p99 ${floorIdleP99} ms; no target: what this machine gives an ack that does nothing, under the same load)`,
        value: round(percentile(l.floorAcks, 99), 2),
        unit: 'ms',
        baseline: { name: "the bot's idle p99, same run (the target's baseline)", value: idleP99 },
      },
      {
        name: `/sms balance ack ${during}: p50 (no target)`,
        value: round(percentile(l.acks, 50), 2),
        unit: 'ms',
        baseline: { name: 'idle p50, same run', value: round(percentile(idle, 50), 2) },
      },
      {
        name: `/sms balance ack ${during}: the slowest${note}`,
        value: round(Math.max(...l.acks), 1),
        unit: 'ms',
        baseline: { name: 'idle, the slowest', value: idleMax },
        ...(targets ? { target: { of: 'value', atMost: 1_000 } as const } : {}),
      },
      {
        name: `the bot's RSS at peak ${during} (no target)`,
        value: round(l.peakRssMiB, 1),
        unit: 'MiB',
        baseline: { name: 'the bot idle just before', value: round(l.idleRssMiB, 1) },
      },
    );
    // Linux only: what the cores did (bench/cpu-share.ts), beside the first idle acks (before the windows).
    if (!l.cpu || !idleCpu) continue;
    const cpu = cpuFigures(l.cpu);
    const idleShare = cpuFigures(idleCpu);
    figures.push(
      {
        name: `the machine's cores busy ${during}: all of them, whatever ran (/proc/stat; the host took ${cpu.stealPct}% as steal; no target)`,
        value: cpu.coresBusyPct,
        unit: '%',
        baseline: { name: 'during the first idle acks', value: idleShare.coresBusyPct },
      },
      {
        name: `the bot's main thread ${during}: time ready to run but waiting for a core, per second of the window (schedstat, an average; it ran ${Math.round(l.cpu.mainRunMsPerS)} ms/s; no target)`,
        value: cpu.mainWaitMsPerS,
        unit: 'ms/s',
        baseline: {
          name: `during the first idle acks (it ran ${Math.round(idleCpu.mainRunMsPerS)} ms/s)`,
          value: idleShare.mainWaitMsPerS,
        },
      },
    );
  }
  for (const { what, r } of hostile) {
    figures.push(
      {
        name: `upload of ${what}: the bot's RSS growth at peak over idle (VmRSS every 20 ms; the person read "${r.outcome}" after ${n(Math.round(r.readMs))} ms)`,
        value: round(r.peakRssMiB - r.idleRssMiB, 1),
        unit: 'MiB',
        baseline: { name: 'the bot idle just before, RSS', value: round(r.idleRssMiB, 1) },
        target: { of: 'value', atMost: 300 },
      },
      {
        name: `upload of ${what}: /sms balance ack while it is read, the slowest of ${r.acks.length}`,
        value: round(Math.max(...r.acks), 1),
        unit: 'ms',
        baseline: { name: 'idle, the slowest', value: idleMax },
        target: { of: 'value', atMost: 1_000 },
      },
      {
        name: `upload of ${what}: the bot's RSS 2 s after the person was told, over idle (no target)`,
        value: round(r.rssAfterMiB - r.idleRssMiB, 1),
        unit: 'MiB',
      },
    );
  }
  return figures;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const experiment = experimentFromEnv(process.env);
  for (const figure of await benchUploads({
    quick: process.argv.includes('--quick'),
    ...(experiment ? { experiment } : {}),
  })) {
    console.log(formatFigure(figure));
  }
}
