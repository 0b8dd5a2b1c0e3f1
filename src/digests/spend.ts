import { TZDate } from '@date-fns/tz';
import { startOfDay } from 'date-fns';
import type { BalanceLogEntry } from '../gateway/index.js';

const DAY_MS = 86_400_000;

/**
 * What was spent, one definition for /sms balance, the App Home and the balance digest: "today" is the
 * calendar day in REPORT_TIMEZONE (since its midnight), the others are rolling windows ending now.
 */
export interface Spend {
  today: number;
  day7: number;
  day30: number;
}

export interface Runway {
  /** Average debits a day over the last 7 days. */
  perDay: number;
  /** How long usable credit lasts at that rate; undefined when nothing was spent. */
  days: number | undefined;
}

/** The balance log window that holds every entry `spendOf` counts. */
export function spendWindow(now: Date): { begin: Date; end: Date } {
  return { begin: new Date(now.getTime() - 30 * DAY_MS), end: now };
}

/** The gateway spells the type; amounts are always positive. */
export function directionOf(entry: BalanceLogEntry): 'credit' | 'debit' | 'other' {
  const type = entry.type.trim().toLowerCase();
  return type === 'credit' ? 'credit' : type === 'debit' ? 'debit' : 'other';
}

/** Debits only: a credit is a top-up or a refund, neither of which is spending. */
export function spendOf(entries: readonly BalanceLogEntry[], now: Date, timeZone: string): Spend {
  const spend: Spend = { today: 0, day7: 0, day30: 0 };
  const t = now.getTime();
  const midnight = startOfDay(new TZDate(t, timeZone)).getTime();
  for (const e of entries) {
    if (directionOf(e) !== 'debit' || !e.timestamp || e.timestamp.getTime() > t) continue;
    const at = e.timestamp.getTime();
    if (at >= midnight) spend.today += e.amount;
    if (t - at <= 7 * DAY_MS) spend.day7 += e.amount;
    if (t - at <= 30 * DAY_MS) spend.day30 += e.amount;
  }
  return spend;
}

/** The 7-day rate: recent enough to follow a change in traffic, long enough to smooth out a weekend. */
export function runwayOf(usable: number, spend: Spend): Runway {
  const perDay = spend.day7 / 7;
  if (usable <= 0) return { perDay, days: 0 };
  return { perDay, days: perDay > 0 ? usable / perDay : undefined };
}

/** How "today" reads on screen, so nobody takes it for the last 24 hours. */
export function todayLabel(timeZone: string): string {
  return `today (since 00:00 ${timeZone})`;
}
