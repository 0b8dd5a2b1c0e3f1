import { tzOffset } from '@date-fns/tz';
import { isUtcZone } from '../time-zones.js';

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
  // Without Intl for UTC, the default zone: see time-zones.ts.
  if (isUtcZone(timeZone)) return 0;
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
  return { before, after, transition: firstChangeAfter(timeZone, lo, hi, before) };
}

/** The first instant in (from, to] at which the zone no longer shows `offset` (it does at `from`, not at `to`). */
function firstChangeAfter(timeZone: string, from: number, to: number, offset: number): number {
  let low = from;
  let high = to;
  while (high - low > 1) {
    const mid = Math.floor((low + high) / 2);
    if (offsetMs(timeZone, mid) === offset) low = mid;
    else high = mid;
  }
  return high;
}

const WEEK_MS = 7 * 24 * HOUR_MS;

/**
 * The day clocks of a zone over a stretch of days, answered from the offset changes found in it, not by asking
 * for two offsets a day: a walk over four years of days asked Intl 2,900 times (20 ms at every start for
 * DIGEST_CRON's check); this asks about 300. It steps a week at a time and searches a step whose ends differ
 * to the millisecond, so it assumes a zone never changes its offset and changes it back within a week: no
 * zone's rules do (the closest pair, Morocco's around Ramadan, are weeks apart). test/jobs/schedule.test.ts
 * holds it to dayClock, day by day, for zones with such changes.
 */
export class ZoneDayClocks {
  readonly #initial: number;
  /** Each change: the first instant at the new offset, in order. */
  readonly #changes: Array<{ at: number; after: number }> = [];

  constructor(
    readonly timeZone: string,
    first: LocalDate,
    last: LocalDate,
  ) {
    let at = dayBounds(first)[0];
    const end = dayBounds(last)[1];
    let offset = offsetMs(timeZone, at);
    // An unknown zone has no offset (NaN, never equal to itself): every step would look like a change.
    if (!Number.isFinite(offset)) throw new RangeError(`unknown time zone ${timeZone}`);
    this.#initial = offset;
    while (at < end) {
      const next = Math.min(at + WEEK_MS, end);
      if (offsetMs(timeZone, next) === offset) {
        at = next;
        continue;
      }
      at = firstChangeAfter(timeZone, at, next, offset);
      offset = offsetMs(timeZone, at);
      this.#changes.push({ at, after: offset });
    }
  }

  /** True when the zone changes its offset between `first` and `last`. */
  get changes(): boolean {
    return this.#changes.length > 0;
  }

  /** What dayClock(date, timeZone) answers, for a date between `first` and `last`. */
  dayClock(date: LocalDate): DayClock {
    const [lo, hi] = dayBounds(date);
    const before = this.#offsetAt(lo);
    const after = this.#offsetAt(hi);
    if (before === after) return { before, after };
    const change = this.#changes.find((c) => c.at > lo && c.at <= hi);
    return { before, after, transition: change!.at };
  }

  #offsetAt(instant: number): number {
    let offset = this.#initial;
    for (const change of this.#changes) {
      if (change.at > instant) break;
      offset = change.after;
    }
    return offset;
  }
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
