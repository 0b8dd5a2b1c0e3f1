import { parse, validateDetailed } from 'node-cron';
import { isTimeZone } from '../time-zones.js';
import {
  addDays,
  type DayClock,
  dayClock,
  daysInMonth,
  instantsAt,
  type LocalDate,
  localDate,
  weekday,
  ZoneDayClocks,
} from './schedule-tz.js';

/**
 * A cron expression read in a time zone, turned into slots: the instants at which it is due. Slots are
 * computed from the expression alone, never from when a timer happened to fire, so every instance of
 * smsops names the same slot the same way and the store can let exactly one of them run it.
 *
 * Daylight saving: a wall time the clocks skip (02:30 on a spring-forward day) is due at the jump, the
 * first moment after it, once; a wall time the clocks show twice (01:30 on a fall-back day) is due the
 * first time only. An expression that runs every hour keeps real time instead: no slot in the skipped
 * hour, and slots in both passes of the repeated one.
 */
export interface Schedule {
  readonly expression: string;
  readonly timeZone: string;
  /** The newest slot at or before `now`; undefined if there is none in the last four years. */
  latestAtOrBefore(now: Date): Date | undefined;
  /** The first slot after `now`; undefined if there is none in the next four years. */
  nextAfter(now: Date): Date | undefined;
  /**
   * The shortest real time between two consecutive slots in the four years from `from` (daylight saving
   * included); undefined when fewer than two slots fall in them.
   */
  shortestGapMs(from: Date): number | undefined;
}

export class InvalidScheduleError extends Error {
  override readonly name = 'InvalidScheduleError';
}

const DAY_MS = 86_400_000;

/** Far enough for a 29 February schedule to come round. */
const HORIZON_DAYS = 4 * 366 + 1;

interface Fields {
  seconds: number[];
  minutes: number[];
  hours: number[];
  daysOfMonth: Array<number | string>;
  months: Set<number>;
  daysOfWeek: Array<number | string>;
}

/** Throws InvalidScheduleError naming the field at fault. */
export function compileSchedule(expression: string, timeZone: string): Schedule {
  const text = expression.trim().replace(/\s+/g, ' ');
  const parts = text.split(' ').length;
  if (parts !== 5 && parts !== 6) {
    throw new InvalidScheduleError(`a cron expression has 5 fields (or 6 with seconds first); got ${parts}`);
  }
  const checked = validateDetailed(text);
  if (!checked.valid) {
    const first = checked.errors[0];
    throw new InvalidScheduleError(first ? `${first.field}: ${first.message}` : 'not a cron expression');
  }
  if (!isTimeZone(timeZone)) throw new InvalidScheduleError(`unknown time zone ${timeZone}`);
  const p = parse(text);
  const asc = (values: number[]) => [...new Set(values)].sort((a, b) => a - b);
  const fields: Fields = {
    seconds: asc(p.second),
    minutes: asc(p.minute),
    hours: asc(p.hour),
    daysOfMonth: p.dayOfMonth,
    months: new Set(p.month),
    daysOfWeek: p.dayOfWeek.map((d) => (d === 7 ? 0 : d)),
  };
  return new CronSchedule(text, timeZone, fields);
}

class CronSchedule implements Schedule {
  readonly #fields: Fields;
  readonly #everyHour: boolean;
  /** Every day of every month matches: each day's slots are the same wall times. */
  readonly #everyDay: boolean;
  readonly #firstWallTime: [number, number, number];
  readonly #lastWallTime: [number, number, number];

  constructor(
    readonly expression: string,
    readonly timeZone: string,
    fields: Fields,
  ) {
    this.#fields = fields;
    this.#everyHour = fields.hours.length === 24;
    this.#everyDay =
      fields.months.size === 12 &&
      new Set(fields.daysOfMonth.filter((d) => typeof d === 'number')).size === 31 &&
      new Set(fields.daysOfWeek.filter((d) => typeof d === 'number')).size === 7;
    const { hours, minutes, seconds } = fields;
    this.#firstWallTime = [hours[0]!, minutes[0]!, seconds[0]!];
    this.#lastWallTime = [hours.at(-1)!, minutes.at(-1)!, seconds.at(-1)!];
  }

  latestAtOrBefore(now: Date): Date | undefined {
    const limit = now.getTime();
    let date = localDate(limit, this.timeZone);
    for (let i = 0; i <= HORIZON_DAYS; i++, date = addDays(date, -1)) {
      if (!this.#dayMatches(date)) continue;
      const found = first(this.#slotsOf(date, 'desc'), (t) => t <= limit);
      if (found !== undefined) return new Date(found);
    }
    return undefined;
  }

  nextAfter(now: Date): Date | undefined {
    const limit = now.getTime();
    let date = localDate(limit, this.timeZone);
    for (let i = 0; i <= HORIZON_DAYS; i++, date = addDays(date, 1)) {
      if (!this.#dayMatches(date)) continue;
      const found = first(this.#slotsOf(date, 'asc'), (t) => t > limit);
      if (found !== undefined) return new Date(found);
    }
    return undefined;
  }

  shortestGapMs(from: Date): number | undefined {
    const ordinaryDayGap = wallClockGapMs(this.#fields);
    let shortest = Number.POSITIVE_INFINITY;
    let previousLast: number | undefined;
    let date = localDate(from.getTime(), this.timeZone);
    const clocks = new ZoneDayClocks(this.timeZone, date, addDays(date, HORIZON_DAYS));
    if (this.#everyDay && !clocks.changes) {
      // Every day alike and no offset change (UTC, the default): the closest two slots are two of one day, or a
      // day's last and the next day's first. The walk below finds the same after four years of days.
      const [fh, fm, fs] = this.#firstWallTime;
      const [lh, lm, ls] = this.#lastWallTime;
      const overnight = DAY_MS - ((lh - fh) * 3600 + (lm - fm) * 60 + (ls - fs)) * 1000;
      return Math.min(ordinaryDayGap ?? overnight, overnight);
    }
    for (let i = 0; i <= HORIZON_DAYS; i++, date = addDays(date, 1)) {
      if (!this.#dayMatches(date)) continue;
      // On a day whose offset never changes, slots are as far apart as their wall times; around a change,
      // the day's real slots are listed and compared one by one.
      const clock = clocks.dayClock(date);
      let first: number | undefined;
      let last: number | undefined;
      if (clock.transition === undefined) {
        first = instantsAt(clock, date, ...this.#firstWallTime).instants[0];
        last = instantsAt(clock, date, ...this.#lastWallTime).instants[0];
        if (ordinaryDayGap !== undefined) shortest = Math.min(shortest, ordinaryDayGap);
      } else {
        const slots = [...this.#slotsOf(date, 'asc')];
        for (let k = 1; k < slots.length; k++) shortest = Math.min(shortest, slots[k]! - slots[k - 1]!);
        first = slots[0];
        last = slots.at(-1);
      }
      if (previousLast !== undefined && first !== undefined)
        shortest = Math.min(shortest, first - previousLast);
      previousLast = last ?? previousLast;
      // Slots are whole seconds apart: nothing can come closer than one.
      if (shortest <= 1000) return shortest;
    }
    return Number.isFinite(shortest) ? shortest : undefined;
  }

  /**
   * The day's slots in order, lazily: on an ordinary day a search stops at the first one it wants, so an
   * every-second expression costs a handful of steps, not 86,400.
   */
  *#slotsOf(date: LocalDate, order: 'asc' | 'desc'): Generator<number> {
    const clock = dayClock(date, this.timeZone);
    if (clock.transition !== undefined) {
      // Instants do not follow wall-time order on the day clocks go back: sort the whole day once.
      const all = [...this.#wallTimes('asc')].flatMap(([h, m, s]) => this.#instants(clock, date, h, m, s));
      const sorted = [...new Set(all)].sort((a, b) => (order === 'asc' ? a - b : b - a));
      yield* sorted;
      return;
    }
    for (const [h, m, s] of this.#wallTimes(order)) yield* this.#instants(clock, date, h, m, s);
  }

  #instants(clock: DayClock, date: LocalDate, h: number, m: number, s: number): number[] {
    const { instants, gap } = instantsAt(clock, date, h, m, s);
    // An every-hour expression keeps real time: the skipped hour simply has no slot, the repeated one has two.
    if (this.#everyHour) return gap ? [] : instants;
    return instants.slice(0, 1);
  }

  *#wallTimes(order: 'asc' | 'desc'): Generator<[number, number, number]> {
    const { hours, minutes, seconds } = this.#fields;
    const ordered = <T>(list: T[]) => (order === 'asc' ? list : [...list].reverse());
    for (const h of ordered(hours))
      for (const m of ordered(minutes)) for (const s of ordered(seconds)) yield [h, m, s];
  }

  /** Day of month AND day of week, as node-cron (which validated the expression) reads them. */
  #dayMatches(date: LocalDate): boolean {
    const f = this.#fields;
    return (
      f.months.has(date.month) &&
      f.daysOfMonth.some((token) => dayOfMonthMatches(token, date)) &&
      f.daysOfWeek.some((token) => dayOfWeekMatches(token, date))
    );
  }
}

/**
 * The shortest gap between two wall times of one day, when the day has more than one: the times are listed
 * in order (at most 86,400 of them) and neighbours compared.
 */
function wallClockGapMs(fields: Fields): number | undefined {
  let shortest: number | undefined;
  let previous: number | undefined;
  for (const h of fields.hours)
    for (const m of fields.minutes)
      for (const s of fields.seconds) {
        const t = h * 3600 + m * 60 + s;
        if (previous !== undefined) shortest = Math.min(shortest ?? t - previous, t - previous);
        previous = t;
      }
  return shortest === undefined ? undefined : shortest * 1000;
}

/** Iterator.prototype.find, which Node 20 lacks. */
function first(values: Iterable<number>, wanted: (value: number) => boolean): number | undefined {
  for (const value of values) if (wanted(value)) return value;
  return undefined;
}

function nearestWeekday(year: number, month: number, target: number): number {
  const last = daysInMonth(year, month);
  const day = Math.min(target, last);
  const wd = weekday({ year, month, day });
  if (wd === 6) return day === 1 ? 3 : day - 1;
  if (wd === 0) return day === last ? day - 2 : day + 1;
  return day;
}

/** Numbers, `L` (last day), `L-n` (n days before it), `nW` / `LW` (nearest weekday). */
function dayOfMonthMatches(token: number | string, date: LocalDate): boolean {
  if (typeof token === 'number') return token === date.day;
  const last = daysInMonth(date.year, date.month);
  if (token === 'L') return date.day === last;
  const offset = /^L-(\d+)$/.exec(token);
  if (offset) return date.day === last - Number(offset[1]);
  const nearest = /^(\d+|L)W$/.exec(token);
  if (nearest) {
    const target = nearest[1] === 'L' ? last : Number(nearest[1]);
    return nearestWeekday(date.year, date.month, target) === date.day;
  }
  return false;
}

/** Numbers (0 and 7 are Sunday), `nL` (last such weekday of the month), `n#k` (k-th such weekday). */
function dayOfWeekMatches(token: number | string, date: LocalDate): boolean {
  const wd = weekday(date);
  if (typeof token === 'number') return token % 7 === wd;
  const lastOf = /^([0-7])L$/i.exec(token);
  if (lastOf) return Number(lastOf[1]) % 7 === wd && date.day + 7 > daysInMonth(date.year, date.month);
  const nth = /^([0-7])#([1-5])$/.exec(token);
  if (nth) return Number(nth[1]) % 7 === wd && Math.floor((date.day - 1) / 7) + 1 === Number(nth[2]);
  return false;
}
