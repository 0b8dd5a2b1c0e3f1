import { tzOffset } from '@date-fns/tz';

/** A calendar date as the clocks of a zone show it. */
export interface LocalDate {
  year: number;
  /** 1–12 */
  month: number;
  day: number;
}

/**
 * How one local day maps to instants: the UTC offset at its start and at its end (ms), and, when they
 * differ, the instant the clocks changed.
 */
export interface DayClock {
  before: number;
  after: number;
  transition?: number;
}

const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;

function offsetMs(timeZone: string, at: number): number {
  return tzOffset(timeZone, new Date(at)) * MINUTE_MS;
}

/** Offsets run from −12 h to +14 h, so these two instants lie before and after every instant of the local day. */
function dayBounds(date: LocalDate): [number, number] {
  const midnight = Date.UTC(date.year, date.month - 1, date.day);
  return [midnight - 14 * HOUR_MS, midnight + 24 * HOUR_MS + 12 * HOUR_MS];
}

/** A zone changes its offset at most once in a day and a half; the time of the change is searched to the millisecond. */
export function dayClock(date: LocalDate, timeZone: string): DayClock {
  const [lo, hi] = dayBounds(date);
  const before = offsetMs(timeZone, lo);
  const after = offsetMs(timeZone, hi);
  if (before === after) return { before, after };
  let low = lo;
  let high = hi;
  while (high - low > 1) {
    const mid = Math.floor((low + high) / 2);
    if (offsetMs(timeZone, mid) === before) low = mid;
    else high = mid;
  }
  return { before, after, transition: high };
}

/**
 * Every instant at which a wall time of that day is shown, earliest first: one on an ordinary day, two in
 * the hour repeated when clocks go back. A wall time skipped when clocks go forward is given the instant
 * of the jump (`gap`), the first moment after it: what cron has always done with a skipped time.
 */
export function instantsAt(
  clock: DayClock,
  date: LocalDate,
  hour: number,
  minute: number,
  second: number,
): { instants: number[]; gap: boolean } {
  const asUtc = Date.UTC(date.year, date.month - 1, date.day, hour, minute, second);
  if (clock.transition === undefined) return { instants: [asUtc - clock.before], gap: false };
  const instants: number[] = [];
  if (asUtc - clock.before < clock.transition) instants.push(asUtc - clock.before);
  if (asUtc - clock.after >= clock.transition) instants.push(asUtc - clock.after);
  if (instants.length === 0) return { instants: [clock.transition], gap: true };
  return { instants: instants.sort((a, b) => a - b), gap: false };
}

/** The calendar date shown in `timeZone` at `instant`. */
export function localDate(instant: number, timeZone: string): LocalDate {
  const shifted = new Date(instant + offsetMs(timeZone, instant));
  return { year: shifted.getUTCFullYear(), month: shifted.getUTCMonth() + 1, day: shifted.getUTCDate() };
}

export function addDays(date: LocalDate, days: number): LocalDate {
  const d = new Date(Date.UTC(date.year, date.month - 1, date.day + days));
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

/** 0 = Sunday, as cron counts. */
export function weekday(date: LocalDate): number {
  return new Date(Date.UTC(date.year, date.month - 1, date.day)).getUTCDay();
}

export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}
