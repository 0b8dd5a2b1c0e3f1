// Bulk compose: what the compose modal's submit costs for the largest send allowed. 10,000 recipients
// typed in the forms people type them (with duplicates) are parsed, normalised, deduplicated, checked against
// the opt-out list in the store (SQLite, 100 opted-out numbers from elsewhere) and segment-counted (buildDraft,
// same text); 10,000 personalised envelopes are rendered
// from CSV (buildDraft, personalised mode: parseCsv + renderEnvelopes + segments). The floor is
// JSON.stringify of the SubmitMulti body that send would make — work no implementation can skip. Measured in a
// child process with the node flags of `npm start` (the bot composes in its own process, with those flags).
// Run alone with `npx tsx bench/compose.ts`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { loadConfig } from '../src/config.js';
import {
  buildDraft,
  type ComposeInput,
  type DraftContext,
  storedDraftContext,
} from '../src/slack/compose/draft.js';
import { sendingSettingsOf } from '../src/slack/deps.js';
import { openStore } from '../src/store/index.js';
import { type BenchFigure, type Figure, median, medianOfPairs, PAIRED, round } from './figure.js';
import { runBenchChild } from './node-flags.js';
import { formatFigure } from './storage.js';
import { submitMultiBodies } from './submit-bodies.js';

const RECIPIENTS = 10_000;
// 51: a pass is 15–50 ms on a shared machine, and 25 of them put the median anywhere from 4.6x to 9.2x.
const REPETITIONS = 51;
// A fresh process: the first drafts are compiled as they run. Steady state is what a bot that has been up
// for a while gives, and what the floor (a builtin) is measured in.
const WARM_UP = 5;
const TEXT = 'Your order is ready for pickup at the Kadıköy store until 20:00. Reply STOP to opt out.';
const TEMPLATE =
  'Merhaba {{name}}, siparişiniz {{order}} hazır. Kadıköy mağazasında 20:00’ye kadar alabilirsiniz.';

/** The i-th distinct mobile number, 0532…, written one of the ways people write numbers. */
function typed(i: number): string {
  const n = String(1_000_000 + i).padStart(7, '0');
  const local = `532${n}`;
  switch (i % 4) {
    case 0:
      return `0${local}`;
    case 1:
      return `+90 ${local.slice(0, 3)} ${n.slice(0, 3)} ${n.slice(3, 5)} ${n.slice(5)}`;
    case 2:
      return `90${local}`;
    default:
      return `(0${local.slice(0, 3)}) ${n.slice(0, 3)}-${n.slice(3)}`;
  }
}

const sendingSettings = sendingSettingsOf(loadConfig({}).sending);

/** A draft context as the bot's (src/slack/views/compose.ts): opt-outs looked up in a store with a list in it. */
async function draftContext(): Promise<{ ctx: DraftContext; close: () => Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'smsops-bench-compose-'));
  const store = await openStore(`sqlite:${join(dir, 'compose.db')}`);
  for (let i = 0; i < 100; i++) {
    await store.optOuts.add(`90533${String(i).padStart(7, '0')}`, { source: 'stop_word' });
  }
  const ctx = storedDraftContext('TR', sendingSettings, store.optOuts);
  return {
    ctx,
    close: async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function inputs(): { same: ComposeInput; personalised: ComposeInput } {
  // 10,000 lines, one in 20 repeating an earlier number, so 9,500 distinct recipients are left.
  const lines = Array.from({ length: RECIPIENTS }, (_, i) => typed(i % 20 === 19 ? i - 7 : i));
  const csv = [
    'number,name,order',
    ...Array.from({ length: RECIPIENTS }, (_, i) => `${typed(i)},Ayşe ${i},#${100_000 + i}`),
  ].join('\n');
  const common = { sender: 'SMSOPS', senderOptions: ['SMSOPS'], encoding: 'auto', validity: '' } as const;
  return {
    same: { ...common, mode: 'same', recipientsText: lines.join('\n'), csvText: '', text: TEXT },
    personalised: { ...common, mode: 'personalised', recipientsText: '', csvText: csv, text: TEMPLATE },
  };
}

async function timed(work: () => Promise<unknown> | unknown): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

async function measureCompose(): Promise<Figure[]> {
  const { ctx, close } = await draftContext();
  try {
    return await measureWith(ctx);
  } finally {
    await close();
  }
}

async function measureWith(ctx: DraftContext): Promise<Figure[]> {
  const { same, personalised } = inputs();
  const drafts = await Promise.all([buildDraft(same, ctx), buildDraft(personalised, ctx)]);
  const [sameDraft, personalisedDraft] = drafts.map((d) => {
    if (!d.ok) throw new Error(`draft refused: ${JSON.stringify(d.errors).slice(0, 300)}`);
    return d.draft;
  });
  if (sameDraft!.recipients.length !== RECIPIENTS * 0.95) {
    throw new Error(`expected ${RECIPIENTS * 0.95} recipients, got ${sameDraft!.recipients.length}`);
  }
  if (personalisedDraft!.envelopes?.length !== RECIPIENTS) throw new Error('expected 10,000 envelopes');
  const [sameBody] = submitMultiBodies(sameDraft!);
  const [personalisedBody] = submitMultiBodies(personalisedDraft!);

  const t = {
    same: [] as number[],
    sameFloor: [] as number[],
    pers: [] as number[],
    persFloor: [] as number[],
    persJoin: [] as number[],
  };
  // Each kind in its own loop, with its own warm-up: one figure does not pay for the collection of the other's
  // garbage (a bot composes one send at a time).
  for (let i = 0; i < WARM_UP; i++) {
    await buildDraft(same, ctx);
    JSON.stringify(sameBody);
  }
  for (let i = 0; i < REPETITIONS; i++) {
    t.same.push(await timed(() => buildDraft(same, ctx)));
    t.sameFloor.push(await timed(() => JSON.stringify(sameBody)));
  }
  for (let i = 0; i < WARM_UP; i++) {
    await buildDraft(personalised, ctx);
    JSON.stringify(personalisedBody);
  }
  for (let i = 0; i < REPETITIONS; i++) {
    let built: Awaited<ReturnType<typeof buildDraft>> | undefined;
    t.pers.push(
      await timed(async () => {
        built = await buildDraft(personalised, ctx);
      }),
    );
    t.persFloor.push(await timed(() => JSON.stringify(personalisedBody)));
    // The messages are joined when the send first reads them: timed apart, so that no cost is left out.
    t.persJoin.push(await timed(() => built?.ok && built.draft.envelopes?.length));
  }
  const ms = (values: number[]) => round(median(values), 1);
  const figures: BenchFigure[] = [
    {
      name: `bulk compose, same text: parse, normalise, dedupe, segment-count ${RECIPIENTS.toLocaleString('en-US')} typed numbers (buildDraft, median of ${REPETITIONS}; ratio: ${PAIRED})`,
      value: ms(t.same),
      unit: 'ms',
      baseline: {
        name: `JSON.stringify of the SubmitMulti body (${sameDraft!.recipients.length.toLocaleString('en-US')} envelopes)`,
        value: ms(t.sameFloor),
      },
      pairedRatio: medianOfPairs(t.same, t.sameFloor),
    },
    {
      name: `bulk compose, personalised: parse, numbers, dedupe, checks and segments for ${RECIPIENTS.toLocaleString('en-US')} rows, messages joined when the send reads them (buildDraft, median of ${REPETITIONS}; ratio: ${PAIRED})`,
      value: ms(t.pers),
      unit: 'ms',
      baseline: {
        name: `JSON.stringify of the SubmitMulti body (${RECIPIENTS.toLocaleString('en-US')} envelopes)`,
        value: ms(t.persFloor),
      },
      pairedRatio: medianOfPairs(t.pers, t.persFloor),
    },
    {
      name: `bulk compose, personalised: joining the ${RECIPIENTS.toLocaleString('en-US')} messages when the send first reads them (no target)`,
      value: ms(t.persJoin),
      unit: 'ms',
      baseline: { name: 'the same floor', value: ms(t.persFloor) },
    },
  ];
  return figures;
}

export function benchCompose(): Promise<Figure[]> {
  return runBenchChild<Figure[]>(fileURLToPath(import.meta.url), []);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  if (process.argv.includes('--child')) console.log(JSON.stringify(await measureCompose()));
  else for (const figure of await benchCompose()) console.log(formatFigure(figure));
}
