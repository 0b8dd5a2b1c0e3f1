// Shared by the benches added beside storage/inbound/digest: a figure may carry a target, checked and
// shown by bench/run.ts, and a few statistics for noisy machines (medians, percentiles).
import type { Figure } from './storage.js';

export type { Figure };

/** What a figure must reach: its ratio to the baseline at most / at least a bound, or its value. */
export interface Target {
  of: 'ratio' | 'value';
  atMost?: number;
  atLeast?: number;
}

export interface BenchFigure extends Figure {
  target?: Target;
}

export function targetText(t: Target): string {
  const what = t.of === 'ratio' ? 'ratio' : 'value';
  if (t.atMost !== undefined && t.atLeast !== undefined && t.atMost === t.atLeast) {
    return `${what} = ${t.atMost}${t.of === 'ratio' ? 'x' : ''}`;
  }
  const parts: string[] = [];
  if (t.atLeast !== undefined) parts.push(`≥ ${t.atLeast}${t.of === 'ratio' ? 'x' : ''}`);
  if (t.atMost !== undefined) parts.push(`≤ ${t.atMost}${t.of === 'ratio' ? 'x' : ''}`);
  return `${what} ${parts.join(' and ')}`;
}

export function ratioOf(f: Figure): number | undefined {
  if (f.pairedRatio !== undefined) return f.pairedRatio;
  if (!f.baseline || f.baseline.value === 0) return undefined;
  return f.value / f.baseline.value;
}

/** How a figure with a pairedRatio names its ratio. */
export const PAIRED = 'the median of each pass over the floor timed beside it';

/** The median of `values[i] / baselines[i]`: each pass over the baseline's pass beside it (Figure.pairedRatio). */
export function medianOfPairs(values: readonly number[], baselines: readonly number[]): number {
  return median(values.map((v, i) => v / baselines[i]!));
}

export function targetMet(f: BenchFigure): boolean | undefined {
  const t = f.target;
  if (!t) return undefined;
  const v = t.of === 'ratio' ? ratioOf(f) : f.value;
  if (v === undefined) return false;
  // Ratios are compared as printed (two decimals), so a line never reads "1.20x … missed".
  const x = t.of === 'ratio' ? Math.round(v * 100) / 100 : v;
  return (t.atMost === undefined || x <= t.atMost) && (t.atLeast === undefined || x >= t.atLeast);
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Nearest-rank percentile (p in 0..100). */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(sorted.length, rank) - 1]!;
}

export const round = (v: number, digits = 1): number => {
  const f = 10 ** digits;
  return Math.round(v * f) / f;
};
