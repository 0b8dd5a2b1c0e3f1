import { TZDate } from '@date-fns/tz';
import { startOfDay } from 'date-fns';
import type { BalanceLogEntry } from '../gateway/index.js';

const DAY_MS = 86_400_000;

/**
 * What was spent, one definition for /sms balance, the App Home, the balance digest and the credit forecast:
 * what the gateway debited for sends, less what it credited back for cancelled messages, in each window.
 * Top-ups are not spending and do not lower it. "today" is the calendar day in REPORT_TIMEZONE (since its
 * midnight), the others are rolling windows ending now. A window's spend is never below zero (a refund today
 * for yesterday's send makes today's spend 0, not negative).
 */
export interface Spend {
  today: number;
  day7: number;
  day30: number;
  /** What cancellations credited back today, already taken off `today`: shown so the figure can be checked. */
  refundedToday: number;
}

/** How a figure of Spend reads beside its label, wherever it is shown. */
export const NET_OF_REFUNDS = 'net of refunds';

/** The definition, in one sentence, for the places that show spend. */
export const SPEND_DEFINITION =
  'Spent = what the gateway debited for sends, less what it credited back for cancelled messages; top-ups do not count.';

export interface Runway {
  /** Average spend a day over the last 7 days (net of refunds). */
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

/**
 * A credit the gateway gave back for cancelled messages, told from a top-up by its explanation: the gateway has
 * one type, Credit, for both. English and Turkish words (iade: refund, iptal: cancellation), in any case: the
 * simulator writes "Refund for cancelled messages of batch …".
 */
export function isRefund(entry: BalanceLogEntry): boolean {
  if (directionOf(entry) !== 'credit') return false;
  const words = entry.explanation.toLocaleLowerCase('tr').replaceAll('ı', 'i');
  return /refund|cancel|iade|iptal/.test(words);
}

export function spendOf(entries: readonly BalanceLogEntry[], now: Date, timeZone: string): Spend {
  const debits = { today: 0, day7: 0, day30: 0 };
  const refunds = { today: 0, day7: 0, day30: 0 };
  const t = now.getTime();
  const midnight = startOfDay(new TZDate(t, timeZone)).getTime();
  for (const e of entries) {
    if (!e.timestamp || e.timestamp.getTime() > t) continue;
    const into = directionOf(e) === 'debit' ? debits : isRefund(e) ? refunds : undefined;
    if (!into) continue;
    const at = e.timestamp.getTime();
    if (at >= midnight) into.today += e.amount;
    if (t - at <= 7 * DAY_MS) into.day7 += e.amount;
    if (t - at <= 30 * DAY_MS) into.day30 += e.amount;
  }
  // Sums of decimal amounts: rounded to the gateway's 4 places, so a full refund nets to exactly 0.
  const net = (d: number, r: number) => Math.max(0, Math.round((d - r) * 10_000) / 10_000);
  return {
    today: net(debits.today, refunds.today),
    day7: net(debits.day7, refunds.day7),
    day30: net(debits.day30, refunds.day30),
    refundedToday: refunds.today,
  };
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
