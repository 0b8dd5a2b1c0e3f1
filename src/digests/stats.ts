import { TZDate } from '@date-fns/tz';
import type { Gateway, MonthlyStats } from '../gateway/index.js';
import type { StatsDigest } from './types.js';

export const STATS_MONTHS = 12;

const monthIndex = (m: Pick<MonthlyStats, 'year' | 'month'>) => m.year * 12 + (m.month - 1);

/** Pure, so the message and the chart can be checked on any figures. */
export function statsDigestOf(stats: readonly MonthlyStats[], now: Date, timeZone: string): StatsDigest {
  const months = [...stats].sort((a, b) => monthIndex(a) - monthIndex(b)).slice(-STATS_MONTHS);
  const current = months.at(-1);
  const before = months.at(-2);
  const previous = current && before && monthIndex(before) + 1 === monthIndex(current) ? before : undefined;
  const local = new TZDate(now.getTime(), timeZone);
  const currentIsRunning =
    current !== undefined && local.getFullYear() === current.year && local.getMonth() + 1 === current.month;
  return { kind: 'stats', at: now, months, current, previous, currentIsRunning };
}

export async function buildStatsDigest(gateway: Gateway, now: Date, timeZone: string): Promise<StatsDigest> {
  return statsDigestOf(await gateway.queryStats(), now, timeZone);
}
