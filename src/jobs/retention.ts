import type { Logger } from '../log.js';
import type { Store } from '../store/index.js';
import { JobLoop, type JobObserver } from './loop.js';

/** The job name of the daily purge in job_runs. */
export const RETENTION_JOB = 'retention';

const DAY_MS = 86_400_000;

/**
 * Job claims (job_runs) older than this are forgotten, each job's latest kept. They hold no personal data, but
 * a mention claim is made per mention and a digest claim per slot, so the table otherwise grows for ever. A
 * week is far beyond any claim still contended: a digest slot is claimed at most DIGEST_CATCH_UP_MINUTES (at
 * most a day) after its time, and Slack redelivers an event within minutes.
 */
export const JOB_CLAIMS_KEPT_DAYS = 7;

export interface RetentionSettings {
  /** RETENTION_DAYS: texts and numbers older than this go. */
  retentionDays: number;
  /** Names this process in the day's claim. */
  instanceId: string;
  /** How often an instance looks whether today's purge has run. Default 60. */
  checkMinutes?: number;
}

export interface RetentionOptions {
  store: Store;
  logger: Logger;
  now?: () => Date;
  settings: RetentionSettings;
  /** Told of every pass of the loop (the metrics, when METRICS_PORT is set). */
  jobObserver?: JobObserver;
}

export interface PurgeCounts {
  /** Sends whose text, recipients and envelopes were emptied. */
  sends: number;
  /** Compose drafts deleted: older than the retention, or expired. */
  drafts: number;
  /** Conversation threads (number → Slack thread) deleted. */
  threads: number;
  /** Job claims older than JOB_CLAIMS_KEPT_DAYS forgotten (each job's latest kept). */
  jobClaims: number;
}

/**
 * Personal data is not kept forever (KVKK, GDPR): once a UTC day, and at start, the texts and phone
 * numbers older than RETENTION_DAYS go from sends, compose drafts and inbound conversation threads, while
 * counts, segments, costs, states and ids stay for statistics and the audit trail. The day is claimed in
 * job_runs, so with several instances one of them purges; each purge is idempotent, so a purge cut short
 * by a crash is finished the next day.
 */
export class RetentionPurge {
  readonly #o: RetentionOptions;
  readonly #now: () => Date;
  readonly #loop: JobLoop;

  constructor(options: RetentionOptions) {
    this.#o = options;
    this.#now = options.now ?? (() => new Date());
    this.#loop = JobLoop.every({
      name: 'retention purge',
      logger: options.logger,
      observer: options.jobObserver,
      run: () => this.runDue(),
      everyMs: (options.settings.checkMinutes ?? 60) * 60_000,
    });
  }

  /** Looks at once (so a bot that was down purges as it starts), then every checkMinutes. */
  start(): void {
    this.#loop.start();
  }

  async stop(): Promise<void> {
    await this.#loop.stop();
  }

  /** Purges if no instance has yet today (UTC); the counts when this call purged. */
  async runDue(now: Date = this.#now()): Promise<PurgeCounts | undefined> {
    const day = now.toISOString().slice(0, 10);
    const won = await this.#o.store.jobRuns.claim(RETENTION_JOB, day, this.#o.settings.instanceId, now);
    return won ? this.purge(now) : undefined;
  }

  /** Everything older than RETENTION_DAYS before `now`, whatever was claimed. */
  async purge(now: Date): Promise<PurgeCounts> {
    const { store, logger, settings } = this.#o;
    const before = new Date(now.getTime() - settings.retentionDays * DAY_MS);
    const sends = await store.outbox.purgeContentBefore(before, now);
    // A campaign's plan holds every number and text it was to send; one no longer running lets them go.
    const campaigns = await store.campaigns.purgeContentBefore(before, now);
    const drafts = (await store.drafts.purgeCreatedBefore(before)) + (await store.drafts.pruneExpired(now));
    const threads = await store.inbound.purgeThreadsBefore(before);
    // The purged texts leave the database file and its WAL too, not only its queries.
    const erased = await store.eraseResidue();
    logger.info(
      {
        retentionDays: settings.retentionDays,
        before: before.toISOString(),
        sends,
        campaigns,
        drafts,
        threads,
        erased,
      },
      'personal data older than RETENTION_DAYS purged',
    );
    // Not personal data, so not under RETENTION_DAYS: a line of its own.
    const claimsBefore = new Date(now.getTime() - JOB_CLAIMS_KEPT_DAYS * DAY_MS);
    const jobClaims = await store.jobRuns.pruneBefore(claimsBefore);
    logger.info({ before: claimsBefore.toISOString(), jobClaims }, 'job claims older than a week forgotten');
    return { sends, drafts, threads, jobClaims };
  }
}
