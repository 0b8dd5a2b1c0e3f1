import { buildDigest, memoryAfter, periodOf } from '../digests/build.js';
import { memoGateway } from '../digests/gateway-memo.js';
import { readMemory, writeMemory } from '../digests/memory.js';
import type { Schedule } from '../digests/schedule.js';
import { describeCron } from '../digests/schedule-forms.js';
import {
  DEFAULT_MIN_INTERVAL_SECONDS,
  describeEffective,
  describeInterval,
  type EffectiveSchedule,
  effectiveSchedule,
} from '../digests/schedule-interval.js';
import type { DigestPoster } from '../digests/types.js';
import type { Gateway } from '../gateway/index.js';
import type { Logger } from '../log.js';
import type { DigestKind, Store, SubscriptionMeta } from '../store/index.js';
import { JobLoop, type JobObserver } from './loop.js';

export interface DigestSchedulerSettings {
  /** Shown in digests; each subscription keeps the zone it was made in for its schedule. */
  reportTimeZone: string;
  simulated: boolean;
  /** Names this process in claimed slots; unique per running process. */
  instanceId: string;
  /** The longest wait between two looks at the subscriptions (new ones, other instances' changes). Default 30 s. */
  tickSeconds?: number;
  /** A slot missed while no instance ran is still posted if it is at most this old. Default 60 min. */
  catchUpMinutes?: number;
  /** DIGEST_MIN_INTERVAL_SECONDS: a stored schedule that runs more often is slowed to this. Default 900. */
  minIntervalSeconds?: number;
}

export interface DigestSchedulerOptions {
  gateway: Gateway;
  store: Store;
  poster: DigestPoster;
  logger: Logger;
  now?: () => Date;
  settings: DigestSchedulerSettings;
  /** Told of every pass of the loop (the metrics, when METRICS_PORT is set). */
  jobObserver?: JobObserver;
}

export type DigestSubscription = SubscriptionMeta & {
  kind: 'digest';
  digest: DigestKind;
  cron: string;
  timezone: string;
};

export interface SlotOutcome {
  subscriptionId: number;
  slot: string;
  outcome: 'posted' | 'lost-claim' | 'failed';
}

/** The job name of a subscription's slots in job_runs. */
export const digestJob = (subscriptionId: number): string => `digest:${subscriptionId}`;

/** Attempts at one slot by the instance that claimed it, one a tick, before it gives up. */
const MAX_ATTEMPTS = 5;

/**
 * Posts every digest subscription once per slot of its schedule, whatever the number of instances.
 *
 * Each tick takes, for every subscription, the most recent slot at or before now (computed from the cron
 * expression and zone alone, so all instances name it alike) and claims (digest:<id>, slot) in job_runs:
 * the one instance whose insert wins posts it, the others skip. A slot missed while no instance ran is
 * posted on the next tick if it is at most catchUpMinutes old; older ones, and all but the newest of
 * several missed, are skipped (a digest is a snapshot: three stale copies are noise). A slot before the
 * subscription existed never fires. A post that fails is retried by the instance that claimed it on its
 * next ticks; if that instance dies first the slot is not posted by another, because it might already
 * have been, and a digest posted twice is worse than one missed.
 */
export class DigestScheduler {
  readonly #o: DigestSchedulerOptions;
  readonly #now: () => Date;
  readonly #tickMs: number;
  readonly #catchUpMs: number;
  readonly #minIntervalSeconds: number;
  readonly #schedules = new Map<string, EffectiveSchedule | Error>();
  /** Subscriptions whose too-fast schedule was already reported, so each is reported once. */
  readonly #reportedSlowed = new Set<number>();
  /** Slots this instance claimed but could not post yet: job → slot and attempts so far. */
  readonly #retry = new Map<string, { slot: string; attempts: number }>();
  readonly #loop: JobLoop;

  constructor(options: DigestSchedulerOptions) {
    this.#o = options;
    this.#now = options.now ?? (() => new Date());
    this.#tickMs = (options.settings.tickSeconds ?? 30) * 1000;
    this.#catchUpMs = (options.settings.catchUpMinutes ?? 60) * 60_000;
    this.#minIntervalSeconds = options.settings.minIntervalSeconds ?? DEFAULT_MIN_INTERVAL_SECONDS;
    this.#loop = new JobLoop({
      name: 'digest tick',
      logger: options.logger,
      observer: options.jobObserver,
      run: () => this.tick(),
      nextDelayMs: () => this.#delayAfterTick(),
      fallbackDelayMs: this.#tickMs,
    });
  }

  /** Ticks at once (posting a recent missed slot), then at each slot and at least every tickSeconds. */
  start(): void {
    this.#loop.start();
  }

  /** Waits for the tick in progress, so no digest is cut off between its post and its memory. */
  async stop(): Promise<void> {
    await this.#loop.stop();
  }

  /**
   * The schedule a subscription runs on; undefined (and logged once) if its expression no longer compiles.
   * One an older version stored faster than DIGEST_MIN_INTERVAL_SECONDS runs slowed to it, and is reported
   * once, at the first tick (that is, at start) or when it first appears.
   */
  scheduleOf(sub: Pick<DigestSubscription, 'id' | 'channel' | 'cron' | 'timezone'>): Schedule | undefined {
    const effective = this.#effective(sub);
    if (!effective) return undefined;
    if (effective.slowedFromMs !== undefined && !this.#reportedSlowed.has(sub.id)) {
      this.#reportedSlowed.add(sub.id);
      this.#o.logger.warn(
        {
          subscriptionId: sub.id,
          channel: sub.channel,
          cron: sub.cron,
          timezone: sub.timezone,
          closestRunsSeconds: effective.slowedFromMs / 1000,
          minIntervalSeconds: this.#minIntervalSeconds,
        },
        `digest schedule cron "${sub.cron}" would run ${describeInterval(effective.slowedFromMs)} apart, faster than DIGEST_MIN_INTERVAL_SECONDS allows: it runs at most every ${describeInterval(this.#minIntervalSeconds * 1000)} (unsubscribe and subscribe again with a slower schedule to change it)`,
      );
    }
    return effective.schedule;
  }

  #effective(sub: Pick<DigestSubscription, 'cron' | 'timezone'>): EffectiveSchedule | undefined {
    const key = `${sub.timezone}|${sub.cron}`;
    let compiled = this.#schedules.get(key);
    if (!compiled) {
      try {
        compiled = effectiveSchedule(sub.cron, sub.timezone, this.#minIntervalSeconds, this.#now());
      } catch (error) {
        compiled = error instanceof Error ? error : new Error(String(error));
        this.#o.logger.error(
          { cron: sub.cron, timezone: sub.timezone, err: compiled.message },
          'bad digest schedule',
        );
      }
      this.#schedules.set(key, compiled);
    }
    return compiled instanceof Error ? undefined : compiled;
  }

  /** One pass over every digest subscription; exposed for tests and drills. */
  async tick(now: Date = this.#now()): Promise<SlotOutcome[]> {
    const subs = (await this.#o.store.subscriptions.listByKind('digest')) as DigestSubscription[];
    const gateway = memoGateway(this.#o.gateway);
    const outcomes: SlotOutcome[] = [];
    for (const sub of subs) {
      if (this.#loop.stopping) break;
      const outcome = await this.#runDue(sub, now, gateway).catch((error: unknown) => {
        this.#o.logger.warn(
          { subscriptionId: sub.id, err: error instanceof Error ? error.message : String(error) },
          'digest tick failed',
        );
        return undefined;
      });
      if (outcome) outcomes.push(outcome);
    }
    return outcomes;
  }

  /** The slot this subscription should post at `now`, if any. */
  dueSlot(sub: DigestSubscription, now: Date): Date | undefined {
    const slot = this.scheduleOf(sub)?.latestAtOrBefore(now);
    if (!slot) return undefined;
    if (slot.getTime() < sub.createdAt.getTime()) return undefined;
    if (now.getTime() - slot.getTime() > this.#catchUpMs) return undefined;
    return slot;
  }

  async #runDue(sub: DigestSubscription, now: Date, gateway: Gateway): Promise<SlotOutcome | undefined> {
    const slotDate = this.dueSlot(sub, now);
    if (!slotDate) return undefined;
    const slot = slotDate.toISOString();
    const job = digestJob(sub.id);
    const memory = await readMemory(this.#o.store, sub.id);
    if (memory?.slot === slot) return undefined;
    const retry = this.#retry.get(job);
    const mine = retry?.slot === slot;
    if (!mine) {
      const won = await this.#o.store.jobRuns.claim(job, slot, this.#o.settings.instanceId, now);
      if (!won) return undefined;
      if (now.getTime() - slotDate.getTime() > this.#tickMs * 2) {
        this.#o.logger.info(
          { subscriptionId: sub.id, slot },
          'posting a digest slot missed while no instance ran',
        );
      }
    }
    try {
      await this.#post(sub, slotDate, memory, now, gateway);
      this.#retry.delete(job);
      return { subscriptionId: sub.id, slot, outcome: 'posted' };
    } catch (error) {
      const attempts = (retry?.slot === slot ? retry.attempts : 0) + 1;
      const err = error instanceof Error ? error.message : String(error);
      if (attempts >= MAX_ATTEMPTS) {
        this.#retry.delete(job);
        this.#o.logger.error(
          { subscriptionId: sub.id, channel: sub.channel, slot, attempts, err },
          'digest not posted; giving up on this slot',
        );
      } else {
        this.#retry.set(job, { slot, attempts });
        this.#o.logger.warn(
          { subscriptionId: sub.id, channel: sub.channel, slot, attempts, err },
          'digest not posted; will retry',
        );
      }
      return { subscriptionId: sub.id, slot, outcome: 'failed' };
    }
  }

  async #post(
    sub: DigestSubscription,
    slot: Date,
    memory: Awaited<ReturnType<typeof readMemory>>,
    now: Date,
    gateway: Gateway,
  ): Promise<void> {
    const schedule = this.scheduleOf(sub);
    const effective = this.#effective(sub);
    const report = await buildDigest(gateway, {
      kind: sub.digest,
      now,
      timeZone: this.#o.settings.reportTimeZone,
      period: periodOf(schedule, slot),
      previous: memory,
    });
    await this.#o.poster.postDigest(sub.channel, report, {
      timeZone: this.#o.settings.reportTimeZone,
      simulated: this.#o.settings.simulated,
      schedule: effective
        ? describeEffective(describeCron(sub.cron), effective, this.#minIntervalSeconds)
        : describeCron(sub.cron),
      nextRun: schedule?.nextAfter(now),
    });
    await writeMemory(this.#o.store, sub.id, memoryAfter(report, slot.toISOString(), now));
  }

  /** Sleeps until the next slot of any subscription, but never longer than a tick, so new ones are seen. */
  async #delayAfterTick(): Promise<number> {
    const now = this.#now();
    let delay = this.#tickMs;
    if (this.#retry.size > 0) return delay;
    const subs = (await this.#o.store.subscriptions.listByKind('digest')) as DigestSubscription[];
    for (const sub of subs) {
      const next = this.scheduleOf(sub)?.nextAfter(now);
      if (next) delay = Math.min(delay, next.getTime() - now.getTime());
    }
    // A little after the slot, so a clock a few milliseconds behind another instance's still sees it due.
    return Math.max(250, delay + 50);
  }
}
