import { compileSchedule, InvalidScheduleError, type Schedule } from './schedule.js';

/**
 * How often a digest or alert may run at most (DIGEST_MIN_INTERVAL_SECONDS): a schedule that fires more
 * often is refused where it is typed, and one stored by an older version is slowed to this pace.
 */
export const DEFAULT_MIN_INTERVAL_SECONDS = 900;

const UNITS = [
  ['day', 86_400],
  ['hour', 3_600],
  ['minute', 60],
  ['second', 1],
] as const;

/** `1 second`, `15 minutes`, `1 hour 30 minutes`: the two largest units, rounded down to the second. */
export function describeInterval(ms: number): string {
  let rest = Math.max(0, Math.floor(ms / 1000));
  const parts: string[] = [];
  for (const [unit, seconds] of UNITS) {
    const n = Math.floor(rest / seconds);
    rest -= n * seconds;
    if (n > 0 && parts.length < 2) parts.push(`${n} ${unit}${n === 1 ? '' : 's'}`);
  }
  return parts.length > 0 ? parts.join(' ') : 'no time';
}

/** A schedule whose slots come closer together than the minimum. */
export class ScheduleTooFrequentError extends InvalidScheduleError {
  constructor(
    readonly expression: string,
    /** The shortest time between two of its slots. */
    readonly gapMs: number,
    readonly minimumSeconds: number,
  ) {
    super(
      `cron "${expression}" would run ${describeInterval(gapMs)} apart at its closest, but digests run at most once every ${describeInterval(minimumSeconds * 1000)} (DIGEST_MIN_INTERVAL_SECONDS=${minimumSeconds})`,
    );
  }
}

// The shortest gap takes a walk over four years of days: worked out once per expression and zone.
const gaps = new Map<string, number | undefined>();

/** The shortest time between two slots of an expression in a zone; undefined if it fires at most once. */
export function shortestGapMs(schedule: Schedule, from: Date): number | undefined {
  const key = `${schedule.timeZone}|${schedule.expression}`;
  if (!gaps.has(key)) gaps.set(key, schedule.shortestGapMs(from));
  return gaps.get(key);
}

/** Throws ScheduleTooFrequentError when two slots of `schedule` come closer than the minimum. */
export function requireMinInterval(schedule: Schedule, minimumSeconds: number, from: Date): void {
  const gap = shortestGapMs(schedule, from);
  if (gap !== undefined && gap < minimumSeconds * 1000) {
    throw new ScheduleTooFrequentError(schedule.expression, gap, minimumSeconds);
  }
}

/**
 * `base` run at most every `minimumMs`: time is cut into windows of that length (counted from the Unix
 * epoch, so every instance cuts alike), and a window in which `base` has a slot gets one slot, at its end.
 * Nothing comes early, nothing is dropped without a later slot to stand for it, and two slots are always
 * a whole number of windows apart.
 */
export function atMostEvery(base: Schedule, minimumMs: number): Schedule {
  const windowEnd = (slot: Date | undefined) =>
    slot && new Date(Math.ceil(slot.getTime() / minimumMs) * minimumMs);
  const windowStart = (at: Date) => new Date(Math.floor(at.getTime() / minimumMs) * minimumMs);
  return {
    expression: base.expression,
    timeZone: base.timeZone,
    latestAtOrBefore: (now) => windowEnd(base.latestAtOrBefore(windowStart(now))),
    nextAfter: (now) => windowEnd(base.nextAfter(windowStart(now))),
    // A lower bound: slots are at least one window apart.
    shortestGapMs: (from) => (base.shortestGapMs(from) === undefined ? undefined : minimumMs),
  };
}

export interface EffectiveSchedule {
  schedule: Schedule;
  /** Set when the stored expression fires more often than the minimum: how often it would have. */
  slowedFromMs?: number;
}

/**
 * The schedule a stored digest subscription really runs on: its own, or, when an older version stored one
 * faster than the minimum, that one slowed to it. Throws InvalidScheduleError if it does not compile.
 */
export function effectiveSchedule(
  cron: string,
  timeZone: string,
  minimumSeconds: number,
  from: Date,
): EffectiveSchedule {
  const schedule = compileSchedule(cron, timeZone);
  const gap = shortestGapMs(schedule, from);
  if (gap === undefined || gap >= minimumSeconds * 1000) return { schedule };
  return { schedule: atMostEvery(schedule, minimumSeconds * 1000), slowedFromMs: gap };
}

/** The words a digest shows for its schedule: the expression's, and the pace it was slowed to if it was. */
export function describeEffective(description: string, effective: EffectiveSchedule, minimumSeconds: number) {
  return effective.slowedFromMs === undefined
    ? description
    : `${description}, slowed to at most every ${describeInterval(minimumSeconds * 1000)}`;
}
