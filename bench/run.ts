import { cpus } from 'node:os';
import { benchDigest } from './digest.js';
import { benchInbound } from './inbound.js';
import { benchStorage, type Figure } from './storage.js';

/**
 * `npm run bench`: every figure beside its baseline, measured side by side in the same run (these
 * machines are noisy, so only ratios within one run mean anything), one line per figure.
 */
function line(f: Figure): string {
  const n = (v: number) => v.toLocaleString('en-US', { maximumFractionDigits: 1 });
  if (!f.baseline) return `${f.name}: ${n(f.value)} ${f.unit}`;
  const ratio = f.baseline.value === 0 ? 'n/a' : `${(f.value / f.baseline.value).toFixed(2)}x`;
  return `${f.name}: ${n(f.value)} ${f.unit} | baseline ${f.baseline.name}: ${n(f.baseline.value)} ${f.unit} | ratio ${ratio}`;
}

console.log(`smsops bench — ${new Date().toISOString()} — Node ${process.version} — ${cpus().length} cores`);
for (const bench of [benchStorage, benchInbound, benchDigest]) {
  for (const figure of await bench()) console.log(line(figure));
}
