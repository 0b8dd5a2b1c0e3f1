// Bulk sends from files (issue 14): a 100,000-row personalised .csv (UTF-8, semicolons, Turkish header) and a
// 100,000-number .xlsx (numbers stored as numbers), from the view submission to the confirmation screen: the
// download over loopback HTTP with a Bearer token (downloadSlackFile), reading (readTableFile), the draft
// (buildDraft: numbers, dedupe, render, segments, and the opt-out lookup in the store, which holds 1,000 opted-out
// numbers, 100 of them in the file) and the confirmation view (confirmView). Not included: Slack's
// own round trips, and the drafts-store write, which the bot makes while Slack shows the confirmation (before it,
// until 2026-11-27): timed after the pass (SQLite, a file in a temporary folder) and printed as a figure of its own.
// The floor is JSON.stringify of the SubmitMulti bodies the send
// would make in chunks of 1,000 (SUBMIT_CHUNK_SIZE's default). Each file runs in a fresh child process, with the
// node flags of `npm start`, so its peak RSS (process.resourceUsage().maxRSS) is its own: taken over passes without
// the floor, which is the bench's yardstick and not the bot's memory. Run alone with `npx tsx bench/files.ts`.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ExcelJS from 'exceljs';
import { ensureBuilt } from '../scripts/build.mjs';
import { loadConfig } from '../src/config.js';
import {
  buildDraft,
  type ComposeInput,
  readRequestFor,
  storedDraftContext,
} from '../src/slack/compose/draft.js';
import { keptForm } from '../src/slack/compose/stored-draft.js';
import { sendingSettingsOf } from '../src/slack/deps.js';
import { downloadSlackFile } from '../src/slack/file-download.js';
import { confirmView } from '../src/slack/ui/compose.js';
import { openStore } from '../src/store/index.js';
import { TableReaderPool } from '../src/tables/worker/pool.js';
import { type BenchFigure, type Figure, median, medianOfPairs, PAIRED, round } from './figure.js';
import { runBenchChild } from './node-flags.js';
import { formatFigure } from './storage.js';
import { submitMultiBodies } from './submit-bodies.js';

const ROWS = 100_000;
const CHUNK = 1_000;
// The first pass loads the file parsers and compiles the path (what a bot's first upload costs, shown as a
// figure of its own); the median of the passes after it is what the uploads after it cost. (Until 2026-11-26 the
// median took the first pass in too: one cold pass of five moved the median up by one place.) Twenty warm passes
// since 2026-11-27, later (ten before, six before that): on this project's machines one pass's ratio to the floor
// beside it ranges over 2.3x-5.9x for the same code (2026-11-27), and ten let one slow spell move the median.
// Since 2026-11-28 as many passes again come first, without the floor, for the peak (see child()): the first pass
// of all is the cold one, and every timed pass is warm.
const REPETITIONS = 21;
const TEMPLATE =
  'Merhaba {{Ad}}, {{Sipariş}} numaralı siparişiniz hazır. Kadıköy mağazasından alabilirsiniz.';
const TEXT = 'Kampanya başladı: tüm ürünlerde %20 indirim. Çıkmak için RET yazın.';

type Kind = 'csv' | 'xlsx';

interface ChildResult {
  /** The first pass of all (parsers loaded, code not yet optimised). */
  firstPassMs: number;
  /** The timed passes, after the passes for the peak. */
  ms: number[];
  storeMs: number[];
  floorMs: number[];
  rssBeforeMiB: number;
  peakRssMiB: number;
  /** Each reading thread's start, to its first line of code (the pool keeps one between reads). */
  threadStartMs: number[];
  /** Each read's time in the thread, and from its end there to the whole answer in the main thread. */
  threadReadMs: number[];
  transferMs: number[];
  /** The longest the main thread's event loop was held during each pass (a chunk of the answer, the draft). */
  longestStallMs: number[];
  /** RSS after the passes, the pool closed: what is left once the reading threads are gone. */
  rssAfterMiB: number;
  recipients: number;
  bytes: number;
}

const OPTED_OUT = 1_000;
const OPTED_OUT_IN_FILE = 100;

function mobile(i: number): string {
  return `0532${String(1_000_000 + i)}`;
}

/** Row i's number as the gateway takes it (the .csv writes `0532…`, the .xlsx `532…`: both are this). */
function gatewayForm(i: number): string {
  return `90532${String(1_000_000 + i)}`;
}

async function fileBytes(kind: Kind): Promise<Uint8Array> {
  if (kind === 'csv') {
    const lines = ['Telefon;Ad;Sipariş'];
    for (let i = 0; i < ROWS; i++) lines.push(`${mobile(i)};Ayşe ${i};#${100_000 + i}`);
    return Buffer.from(`\uFEFF${lines.join('\r\n')}\r\n`, 'utf8');
  }
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Liste');
  sheet.addRow(['GSM NO', 'Ad']);
  for (let i = 0; i < ROWS; i++) sheet.addRow([5_321_000_000 + i, `Ad ${i}`]);
  return new Uint8Array((await workbook.xlsx.writeBuffer()) as ArrayBuffer);
}

/** In the child: one file, REPETITIONS times through the whole path, and the floor beside it. */
async function child(kind: Kind, path: string): Promise<ChildResult> {
  const bytes = new Uint8Array(readFileSync(path));
  const storeDir = mkdtempSync(join(tmpdir(), 'smsops-bench-drafts-'));
  const store = await openStore(`sqlite:${join(storeDir, 'drafts.db')}`);
  // An opt-out list as a team has one: numbers from earlier campaigns, a few of them in this file.
  for (let i = 0; i < OPTED_OUT; i++) {
    const inFile = i < OPTED_OUT_IN_FILE;
    await store.optOuts.add(inFile ? gatewayForm(i * 997) : `90533${String(i).padStart(7, '0')}`, {
      source: 'stop_word',
    });
  }
  const token = 'xoxb-bench';
  const server = createServer((req, res) => {
    if (req.headers.authorization !== `Bearer ${token}`) return void res.writeHead(401).end();
    res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(bytes);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/files/F1/list.${kind}`;
  const settings = sendingSettingsOf(loadConfig({ MAX_RECIPIENTS: String(ROWS) }).sending);
  // The opt-out lookup through the store, as the bot composes.
  const ctx = storedDraftContext('TR', settings, store.optOuts);
  const input: ComposeInput = {
    sender: 'SMSOPS',
    senderOptions: ['SMSOPS'],
    mode: kind === 'csv' ? 'personalised' : 'same',
    recipientsText: '',
    csvText: '',
    text: kind === 'csv' ? TEMPLATE : TEXT,
    encoding: 'auto',
    validity: '',
  };
  const name = `list.${kind}`;
  // The bot's reading threads, as buildBot makes them (src/tables/worker/pool.ts): the file is read off this thread.
  const threadStartMs: number[] = [];
  const threadReadMs: number[] = [];
  const transferMs: number[] = [];
  // The reading thread gives its heap back 150 ms after its answer (thread-main.ts): the floor waits for that.
  let threadQuiet: (() => void) | undefined;
  // The built thread (dist/table-reader.cjs), as `npm start` runs it, not the sources through tsx.
  const readers = new TableReaderPool(
    {},
    {
      started: (startMs) => threadStartMs.push(startMs),
      answered: (timing) => {
        threadReadMs.push(timing.readMs);
        transferMs.push(timing.transferMs);
      },
      released: () => threadQuiet?.(),
      // A thread left large is ended instead (pool.ts): quiet too.
      ended: () => threadQuiet?.(),
    },
    new URL('../dist/table-reader.cjs', import.meta.url),
  );
  const longestStallMs: number[] = [];
  global.gc?.();
  const rssBefore = process.memoryUsage().rss;
  const ms: number[] = [];
  const storeMs: number[] = [];
  const floorMs: number[] = [];
  let firstPassMs: number | undefined;
  let recipients = 0;
  // One pass in a function of its own: what a pass made (the draft, the floor's 100 bodies with their 100,000
  // joined messages) dies with its frame. Written in the loop's body, an async function's locals outlived their
  // iteration (V8 keeps them in the suspended frame), so each pass ran beside the last one's draft and bodies:
  // 19 MB of joined messages and 300,000 strings more at its peak (a heap snapshot, 2026-11-27).
  const pass = async (timed: boolean) => {
    const quiet = new Promise<void>((resolve) => {
      threadQuiet = resolve;
    });
    const stalls = monitorEventLoopDelay({ resolution: 1 });
    stalls.enable();
    const started = performance.now();
    const downloaded = await downloadSlackFile(
      { name, url_private_download: url },
      { token, slackApiUrl: `${new URL(url).origin}/api/` },
    );
    const reading = await readers.read(name, downloaded, readRequestFor(input, 'TR'));
    const result = await buildDraft({ ...input, file: { name, reading } }, ctx);
    if (!result.ok) throw new Error(`draft refused: ${JSON.stringify(result.errors).slice(0, 300)}`);
    const view = confirmView(result.draft, 'draft:V1', false, undefined, result.fileReport, 'x');
    JSON.stringify(view);
    const passMs = performance.now() - started;
    stalls.disable();
    if (timed) {
      ms.push(passMs);
      longestStallMs.push(stalls.max / 1e6);
    } else firstPassMs ??= passMs;
    // What keepForConfirmation stores (src/slack/views/compose.ts), under the key of the compose view.
    const stored = keptForm({
      draft: result.draft,
      compact: result.compact,
      channel: 'C1',
      rootViewId: 'V1',
      rejected: result.fileReport?.rejected,
      filename: name,
    });
    const storeStarted = performance.now();
    await store.drafts.put('draft:V1', 'U1', stored as never, new Date(Date.now() + 30 * 60_000));
    if (timed) storeMs.push(performance.now() - storeStarted);
    recipients = result.draft.recipients.length;
    // The floor beside a quiet reading thread, its bodies made once the thread is quiet too (2026-11-28). Timed
    // while the thread collected its read's garbage (150 ms after its answer), the .xlsx floor took 57-61 ms
    // against 51-53 beside a quiet thread, and flattered its ratio by a tenth. Made before, the bodies (100,000
    // joined messages: what a send makes, not a compose) were held beside the thread's garbage and added 10-15 MiB
    // to the .csv's peak that the bot's compose never holds.
    await quiet;
    if (!timed) return;
    const bodies = submitMultiBodies(result.draft, CHUNK);
    // The floor on a clean heap too: timed right after the pass, it paid the collection of the pass's garbage
    // whenever the pass left the young generation part-full (an .xlsx floor went from 52 to 104 ms when the reader
    // allocated less), which flattered the ratio by the cost of the pass's own collections.
    global.gc?.();
    const floorStarted = performance.now();
    for (const body of bodies) JSON.stringify(body);
    floorMs.push(performance.now() - floorStarted);
  };
  // The peak first, from passes without the floor: the floor's 100 bodies and their JSON (what a send makes a
  // chunk at a time, made here all at once) left the main thread's old generation ~15-20 MiB larger for the
  // passes after them, and that was counted as the compose's (.csv, two runs each: +182, +186 against +200,
  // +208 MiB; 2026-11-28). Then the timed passes, each with its floor beside it.
  for (let i = 0; i < REPETITIONS; i++) {
    await pass(false);
    // Each pass on its own: the previous pass's garbage is not left to add to the next one's peak.
    global.gc?.();
  }
  const peakRssMiB = process.resourceUsage().maxRSS / 1024;
  threadReadMs.length = 0;
  transferMs.length = 0;
  for (let i = 0; i < REPETITIONS; i++) {
    await pass(true);
    global.gc?.();
  }
  await readers.close();
  global.gc?.();
  const rssAfterMiB = process.memoryUsage().rss / 2 ** 20;
  server.close();
  await store.close();
  rmSync(storeDir, { recursive: true, force: true });
  if (recipients !== ROWS - OPTED_OUT_IN_FILE) {
    throw new Error(`expected ${ROWS - OPTED_OUT_IN_FILE} recipients, got ${recipients}`);
  }
  return {
    firstPassMs: firstPassMs!,
    ms,
    storeMs,
    floorMs,
    rssBeforeMiB: rssBefore / 2 ** 20,
    peakRssMiB,
    threadStartMs,
    threadReadMs,
    transferMs,
    longestStallMs,
    rssAfterMiB,
    recipients,
    bytes: bytes.length,
  };
}

/** The file is made here and read from disk by the child, so that making it does not count in its peak RSS. */
async function runChild(kind: Kind): Promise<ChildResult> {
  const dir = mkdtempSync(join(tmpdir(), 'smsops-bench-files-'));
  const path = join(dir, `list.${kind}`);
  writeFileSync(path, await fileBytes(kind));
  try {
    return await childProcess(kind, path);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function childProcess(kind: Kind, path: string): Promise<ChildResult> {
  await ensureBuilt();
  return runBenchChild<ChildResult>(fileURLToPath(import.meta.url), [kind, path], {
    nodeFlags: ['--expose-gc'],
  });
}

export async function benchFiles(): Promise<Figure[]> {
  const figures: BenchFigure[] = [];
  for (const kind of ['csv', 'xlsx'] as const) {
    const r = await runChild(kind);
    const warm = r.ms;
    const floor = round(median(r.floorMs), 1);
    const pairedRatio = medianOfPairs(warm, r.floorMs);
    const what =
      kind === 'csv'
        ? `100,000-row personalised .csv (${(r.bytes / 2 ** 20).toFixed(1)} MiB)`
        : `100,000-number .xlsx (${(r.bytes / 2 ** 20).toFixed(1)} MiB)`;
    figures.push({
      name: `file compose, ${what}: view submission to confirmation (download, read, draft, view; median of ${warm.length}, after ${REPETITIONS} for the peak; ratio: ${PAIRED})`,
      value: round(median(warm), 1),
      pairedRatio,
      unit: 'ms',
      baseline: {
        name: `JSON.stringify of the ${Math.ceil(r.recipients / CHUNK)} SubmitMulti bodies of ${CHUNK.toLocaleString('en-US')}`,
        value: floor,
      },
      target: { of: 'ratio', atMost: 5 },
    });
    figures.push({
      name: `file compose, ${what}: the first pass, parsers loaded on first use (no target)`,
      value: round(r.firstPassMs, 1),
      unit: 'ms',
      baseline: { name: 'the same floor', value: floor },
    });
    figures.push({
      name: `file compose, ${what}: the drafts-store write, made while Slack shows the confirmation (SQLite; after the figure above)`,
      value: round(median(r.storeMs), 1),
      unit: 'ms',
      baseline: { name: 'the same floor', value: floor },
    });
    figures.push({
      name: `file compose, ${what}: peak RSS growth over the process before the file`,
      value: round(r.peakRssMiB - r.rssBeforeMiB, 1),
      unit: 'MiB',
      target: { of: 'value', atMost: 200 },
    });
    // What the reading thread costs (issue 28): its start, its answer's way here, and the main thread's longest
    // stall in a pass (a chunk of the numbers and values made again in its heap, the draft built of them).
    figures.push({
      name: `file compose, ${what}: a reading thread's start (median of ${r.threadStartMs.length}: the pool keeps one between reads, a fresh one after a large read; no target)`,
      value: round(median(r.threadStartMs), 1),
      unit: 'ms',
      baseline: { name: 'the same floor', value: floor },
    });
    figures.push({
      name: `file compose, ${what}: the answer's way from the reading thread to the main thread, from the read's end there (${kind === 'csv' ? 'packed chunks of 50,000, each asked for' : 'the numbers in one string'}), median of ${warm.length} (no target)`,
      value: round(median(r.transferMs), 1),
      unit: 'ms',
      baseline: {
        name: 'the read in the thread, median',
        value: round(median(r.threadReadMs), 1),
      },
    });
    figures.push({
      name: `file compose, ${what}: the main thread's longest stall in a pass, median of ${warm.length} (event-loop delay: a chunk of the answer made again, the draft; no target)`,
      value: round(median(r.longestStallMs), 1),
      unit: 'ms',
      baseline: { name: 'the whole pass, median', value: round(median(warm), 1) },
    });
    figures.push({
      name: `file compose, ${what}: RSS after the passes with the reading threads ended, over the process before the file (no target)`,
      value: round(r.rssAfterMiB - r.rssBeforeMiB, 1),
      unit: 'MiB',
    });
  }
  return figures;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const at = process.argv.indexOf('--child');
  if (at >= 0) {
    console.log(JSON.stringify(await child(process.argv[at + 1] as Kind, process.argv[at + 2]!)));
  } else {
    for (const figure of await benchFiles()) console.log(formatFigure(figure));
  }
}
