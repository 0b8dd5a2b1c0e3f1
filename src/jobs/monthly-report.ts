import type { Logger } from '../log.js';
import { lastMonth, type ReportPeriod } from '../reports/period.js';
import type { Store, Subscription } from '../store/index.js';
import { JobLoop, type JobObserver } from './loop.js';

export type ReportSubscription = Extract<Subscription, { kind: 'report' }>;

/** How the monthly report reaches Slack: built and shared in the subscription's channel (slack/report-runner.ts). */
export interface MonthlyReportPoster {
  post(subscription: ReportSubscription, period: ReportPeriod): Promise<void>;
}

export interface MonthlyReportOptions {
  store: Store;
  poster: MonthlyReportPoster;
  logger: Logger;
  now?: () => Date;
  instanceId: string;
  /** How often the subscriptions are looked at. Default 60 s. */
  tickSeconds?: number;
  jobObserver?: JobObserver;
}

/** The job name of a subscription's months in job_runs. */
export const reportJob = (subscriptionId: number): string => `report:${subscriptionId}`;

/** A month's report is posted during the first day of the next month (in the subscription's zone), not later. */
const POST_WITHIN_MS = 24 * 3_600_000;
const MAX_ATTEMPTS = 5;

/**
 * Posts last month's report to every `report` subscription on the first day of the month, exactly once across
 * instances: the one instance whose claim of (report:<id>, YYYY-MM) in job_runs wins posts it; a failed post is
 * retried by that instance on its next ticks of the day. A subscription made after the month ended waits for the
 * next one.
 */
export class MonthlyReports {
  readonly #o: MonthlyReportOptions;
  readonly #now: () => Date;
  readonly #loop: JobLoop;
  readonly #retry = new Map<string, { slot: string; attempts: number }>();

  constructor(options: MonthlyReportOptions) {
    this.#o = options;
    this.#now = options.now ?? (() => new Date());
    this.#loop = JobLoop.every({
      name: 'monthly report tick',
      logger: options.logger,
      observer: options.jobObserver,
      run: () => this.tick(),
      everyMs: (options.tickSeconds ?? 60) * 1000,
    });
  }

  start(): void {
    this.#loop.start();
  }

  async stop(): Promise<void> {
    await this.#loop.stop();
  }

  /** One look at every report subscription; the months posted by this call. Exposed for tests. */
  async tick(now: Date = this.#now()): Promise<Array<{ subscriptionId: number; month: string }>> {
    const subs = await this.#o.store.subscriptions.listByKind('report');
    const posted: Array<{ subscriptionId: number; month: string }> = [];
    for (const sub of subs) {
      const period = lastMonth(now, sub.timezone);
      const sinceEnd = now.getTime() - period.to.getTime();
      if (sinceEnd < 0 || sinceEnd >= POST_WITHIN_MS || sub.createdAt >= period.to) continue;
      const job = reportJob(sub.id);
      const retry = this.#retry.get(job);
      if (retry?.slot !== period.slug) {
        if (!(await this.#o.store.jobRuns.claim(job, period.slug, this.#o.instanceId, now))) continue;
        this.#retry.set(job, { slot: period.slug, attempts: 0 });
      }
      const state = this.#retry.get(job)!;
      if (state.attempts >= MAX_ATTEMPTS) continue;
      state.attempts++;
      try {
        await this.#o.poster.post(sub, period);
        this.#retry.set(job, { slot: period.slug, attempts: MAX_ATTEMPTS });
        posted.push({ subscriptionId: sub.id, month: period.slug });
      } catch (error) {
        this.#o.logger.warn(
          { subscriptionId: sub.id, month: period.slug, attempt: state.attempts, err: String(error) },
          'monthly report not posted; tried again at the next tick',
        );
      }
    }
    return posted;
  }
}
