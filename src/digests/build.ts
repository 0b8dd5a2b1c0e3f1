import type { Gateway } from '../gateway/index.js';
import type { DigestKind } from '../store/index.js';
import { buildBalanceDigest } from './balance.js';
import type { DigestMemory } from './memory.js';
import type { Schedule } from './schedule.js';
import { buildStatsDigest } from './stats.js';
import { buildSurveysDigest } from './surveys.js';
import type { DigestReport } from './types.js';

const DAY_MS = 86_400_000;

export interface DigestInput {
  kind: DigestKind;
  now: Date;
  timeZone: string;
  period: { from: Date; to: Date };
  previous?: DigestMemory;
}

/**
 * The period a digest covers: from its schedule's slot before `at` up to `at`, so a daily digest covers a
 * day and a weekly one a week whenever it is read. Without a schedule (a preview), the last 24 hours.
 */
export function periodOf(schedule: Schedule | undefined, at: Date): { from: Date; to: Date } {
  const before = schedule?.latestAtOrBefore(new Date(at.getTime() - 1));
  return { from: before ?? new Date(at.getTime() - DAY_MS), to: at };
}

export function buildDigest(gateway: Gateway, input: DigestInput): Promise<DigestReport> {
  switch (input.kind) {
    case 'balance':
      return buildBalanceDigest(gateway, input);
    case 'stats':
      return buildStatsDigest(gateway, input.now, input.timeZone);
    case 'surveys':
      return buildSurveysDigest(gateway, input.now, input.previous);
  }
}

/** What the next digest of this subscription compares against. */
export function memoryAfter(report: DigestReport, slot: string, at: Date): DigestMemory {
  const memory: DigestMemory = { slot, at: at.toISOString() };
  if (report.kind === 'balance') memory.usable = report.balance.usable;
  if (report.kind === 'surveys') memory.answered = report.answered;
  return memory;
}
