import { writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { benchAck } from './ack.js';
import { benchCampaign } from './campaign.js';
import { benchCampaignSteps } from './campaign-steps.js';
import { benchCompose } from './compose.js';
import { benchDigest } from './digest.js';
import { type BenchFigure, ratioOf, type Target, targetMet, targetText } from './figure.js';
import { benchFiles } from './files.js';
import { benchGateway } from './gateway.js';
import { benchInbound } from './inbound.js';
import { benchSoak } from './soak.js';
import { benchStartup } from './startup.js';
import { benchStorage, type Figure } from './storage.js';
import { benchUploads } from './uploads.js';

/**
 * `npm run bench`: every figure beside its baseline, measured side by side in the same run (these
 * machines are noisy, so only ratios within one run mean anything), one line per figure, and the run
 * written to bench/RESULTS.md.
 */
const n = (v: number) => v.toLocaleString('en-US', { maximumFractionDigits: 2 });
const ratioText = (f: Figure) => {
  const r = ratioOf(f);
  return r === undefined ? (f.baseline ? 'n/a' : '') : `${r.toFixed(2)}x`;
};

/** Targets of figures whose bench files predate targets, found by name. */
const TARGETS_BY_NAME: { match: RegExp; target: Target }[] = [
  { match: /^digest exactly-once/, target: { of: 'value', atMost: 1, atLeast: 1 } },
  // Issue 15: the personalised compose of 10,000 rows at most 5x the JSON.stringify floor (not the join of its
  // messages, timed apart with no target).
  { match: /^bulk compose, personalised: parse/, target: { of: 'ratio', atMost: 5 } },
];

function withTarget(f: Figure): BenchFigure {
  const own = (f as BenchFigure).target;
  if (own) return f;
  const known = TARGETS_BY_NAME.find((t) => t.match.test(f.name));
  return known ? { ...f, target: known.target } : f;
}

function line(f: BenchFigure): string {
  const base = f.baseline
    ? ` | baseline ${f.baseline.name}: ${n(f.baseline.value)} ${f.unit} | ratio ${ratioText(f)}`
    : '';
  const target = f.target ? ` | target ${targetText(f.target)}: ${targetMet(f) ? 'PASS' : 'MISS'}` : '';
  return `${f.name}: ${n(f.value)} ${f.unit}${base}${target}`;
}

const cell = (s: string) => s.replaceAll('|', '\\|').replaceAll('\n', ' ');

function markdown(started: Date, seconds: number, figures: BenchFigure[], failures: string[]): string {
  const cpu = cpus();
  const rows = figures.map((f) =>
    [
      cell(f.name),
      `${n(f.value)} ${f.unit}`,
      f.baseline ? `${n(f.baseline.value)} ${f.unit} (${cell(f.baseline.name)})` : '—',
      ratioText(f) || '—',
      f.target ? targetText(f.target) : '—',
      f.target ? (targetMet(f) ? 'PASS' : '**MISS**') : '—',
    ].join(' | '),
  );
  return [
    '# Benchmark results',
    '',
    'Written by `npm run bench` (bench/run.ts); every run overwrites it. Each figure and its baseline',
    'were measured side by side in this run; on a noisy machine only the ratios mean much.',
    '',
    `- date: ${started.toISOString()} (the run took ${Math.round(seconds)} s)`,
    `- node: ${process.version}`,
    `- machine: ${cpu[0]?.model ?? 'unknown cpu'}, ${cpu.length} cores, ${(totalmem() / 2 ** 30).toFixed(1)} GiB memory`,
    '',
    '| figure | value | baseline | ratio | target | PASS/MISS |',
    '|---|---|---|---|---|---|',
    ...rows.map((r) => `| ${r} |`),
    ...(failures.length > 0
      ? ['', '## Benches that failed', '', ...failures.map((f) => `- ${cell(f)}`)]
      : []),
    '',
  ].join('\n');
}

const started = new Date();
const t0 = performance.now();
console.log(`smsops bench — ${started.toISOString()} — Node ${process.version} — ${cpus().length} cores`);
const figures: BenchFigure[] = [];
const failures: string[] = [];
const benches: [string, () => Promise<Figure[]>][] = [
  ['storage', benchStorage],
  ['inbound', benchInbound],
  ['digest', benchDigest],
  ['ack', benchAck],
  ['gateway', benchGateway],
  ['compose', benchCompose],
  ['campaign', benchCampaign],
  ['campaign steps', benchCampaignSteps],
  ['files', benchFiles],
  ['uploads', () => benchUploads()],
  ['startup', benchStartup],
  ['soak', benchSoak],
];
for (const [name, bench] of benches) {
  try {
    for (const figure of await bench()) {
      const f = withTarget(figure);
      figures.push(f);
      console.log(line(f));
    }
  } catch (error) {
    // One bench failing must not lose the others' figures.
    const message = `${name}: ${error instanceof Error ? error.message : String(error)}`;
    failures.push(message);
    console.error(`bench failed — ${message}`);
  }
}
const file = new URL('RESULTS.md', import.meta.url);
writeFileSync(file, markdown(started, (performance.now() - t0) / 1000, figures, failures));
console.log(`written to bench/RESULTS.md (${Math.round((performance.now() - t0) / 1000)} s)`);
if (failures.length > 0) process.exitCode = 1;
