import { TZDate } from '@date-fns/tz';

/** The stretch of time a report covers: [from, to), as the clocks of `timeZone` divide it into days. */
export interface ReportPeriod {
  from: Date;
  to: Date;
  /** How a person reads it: "May 2025", "1–15 May 2025". */
  label: string;
  /** For the file name: "2025-05", "2025-05-01_2025-05-15". */
  slug: string;
  timeZone: string;
}

/** A longer report is still one file a person can open; more is a job for a database export. */
export const MAX_REPORT_DAYS = 366;

export class PeriodError extends Error {
  override readonly name = 'PeriodError';
}

interface Day {
  year: number;
  month: number;
  day: number;
}

const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

const pad = (n: number, width = 2) => String(n).padStart(width, '0');
const dayText = (d: Day) => `${pad(d.year, 4)}-${pad(d.month)}-${pad(d.day)}`;

/** Midnight at the start of a local day, as an instant. */
function startOf(d: Day, timeZone: string): Date {
  return new Date(new TZDate(d.year, d.month - 1, d.day, timeZone).getTime());
}

function nextDay(d: Day): Day {
  const n = new Date(Date.UTC(d.year, d.month - 1, d.day + 1));
  return { year: n.getUTCFullYear(), month: n.getUTCMonth() + 1, day: n.getUTCDate() };
}

function today(now: Date, timeZone: string): Day {
  const z = new TZDate(now.getTime(), timeZone);
  return { year: z.getFullYear(), month: z.getMonth() + 1, day: z.getDate() };
}

export function monthPeriod(year: number, month: number, timeZone: string): ReportPeriod {
  const first = { year, month, day: 1 };
  const next = month === 12 ? { year: year + 1, month: 1, day: 1 } : { year, month: month + 1, day: 1 };
  return {
    from: startOf(first, timeZone),
    to: startOf(next, timeZone),
    label: `${MONTH_NAMES[month - 1]} ${year}`,
    slug: `${pad(year, 4)}-${pad(month)}`,
    timeZone,
  };
}

/** The month before the one `now` falls in, in `timeZone`: what the monthly report covers. */
export function lastMonth(now: Date, timeZone: string): ReportPeriod {
  const t = today(now, timeZone);
  return t.month === 1 ? monthPeriod(t.year - 1, 12, timeZone) : monthPeriod(t.year, t.month - 1, timeZone);
}

function parseDay(text: string): Day | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return undefined;
  const d = { year: Number(m[1]), month: Number(m[2]), day: Number(m[3]) };
  const check = new Date(Date.UTC(d.year, d.month - 1, d.day));
  // 2025-02-30 would roll over to March: a date that does not exist is refused, not moved.
  if (
    check.getUTCFullYear() !== d.year ||
    check.getUTCMonth() !== d.month - 1 ||
    check.getUTCDate() !== d.day
  )
    return undefined;
  return d;
}

const SAY_WHAT =
  'Give `this-month`, `last-month`, a month as `2025-05`, or two days as `2025-05-01 2025-05-15` (both included).';

/**
 * The period words of `/sms report`: none or `this-month` (the month so far), `last-month`, `YYYY-MM`, or
 * `YYYY-MM-DD YYYY-MM-DD` (both days included). Throws a PeriodError saying what was not understood.
 */
export function parsePeriod(words: readonly string[], now: Date, timeZone: string): ReportPeriod {
  const [first, second, ...more] = words.map((w) => w.toLowerCase());
  if (more.length > 0) throw new PeriodError(`Too many words for a period. ${SAY_WHAT}`);
  if (first === undefined || first === 'this-month') {
    if (second !== undefined)
      throw new PeriodError(`“${second}” after this-month is not understood. ${SAY_WHAT}`);
    const t = today(now, timeZone);
    return monthPeriod(t.year, t.month, timeZone);
  }
  if (first === 'last-month') {
    if (second !== undefined)
      throw new PeriodError(`“${second}” after last-month is not understood. ${SAY_WHAT}`);
    return lastMonth(now, timeZone);
  }
  const month = /^(\d{4})-(\d{2})$/.exec(first);
  if (month) {
    if (second !== undefined)
      throw new PeriodError(`“${second}” after a month is not understood. ${SAY_WHAT}`);
    const m = Number(month[2]);
    if (m < 1 || m > 12)
      throw new PeriodError(`“${first}” is not a month: months run from 01 to 12. ${SAY_WHAT}`);
    return monthPeriod(Number(month[1]), m, timeZone);
  }
  const start = parseDay(first);
  if (!start) throw new PeriodError(`“${first.slice(0, 40)}” is not a period I know. ${SAY_WHAT}`);
  if (second === undefined)
    throw new PeriodError(
      `A period of days needs its last day too, e.g. \`${first} ${first}\` for that day alone.`,
    );
  const end = parseDay(second);
  if (!end)
    throw new PeriodError(`“${second.slice(0, 40)}” is not a day: write it as YYYY-MM-DD. ${SAY_WHAT}`);
  const from = startOf(start, timeZone);
  const to = startOf(nextDay(end), timeZone);
  if (to <= from) throw new PeriodError(`The last day (${second}) comes before the first (${first}).`);
  if (to.getTime() - from.getTime() > (MAX_REPORT_DAYS + 1) * 86_400_000)
    throw new PeriodError(`That is more than ${MAX_REPORT_DAYS} days: ask for a year or less at a time.`);
  return {
    from,
    to,
    label: first === second ? dayText(start) : `${dayText(start)} to ${dayText(end)}`,
    slug: first === second ? dayText(start) : `${dayText(start)}_${dayText(end)}`,
    timeZone,
  };
}

/** The local day an instant falls on, as `YYYY-MM-DD`: the key of the per-day totals. */
export function localDayKey(at: Date, timeZone: string): string {
  return dayText(today(at, timeZone));
}

/**
 * The instant shifted so that its UTC fields show the wall-clock time of `timeZone`: Excel's dates have no zone,
 * and a writer turns a Date into a serial from its UTC fields, so the sheet shows the time as the team reads it.
 */
export function wallClock(at: Date, timeZone: string): Date {
  const z = new TZDate(at.getTime(), timeZone);
  return new Date(
    Date.UTC(z.getFullYear(), z.getMonth(), z.getDate(), z.getHours(), z.getMinutes(), z.getSeconds()),
  );
}

/** A local day key (`YYYY-MM-DD`) as a date cell (midnight, zone-less). */
export function dayCell(key: string): Date {
  const [y, m, d] = key.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d));
}
