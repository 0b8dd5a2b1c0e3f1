import { DEFAULT_MIN_INTERVAL_SECONDS } from '../digests/schedule-interval.js';
import { runwayOf, spendOf, spendWindow } from '../digests/spend.js';
import type { AlertChange, DigestPoster, Runway } from '../digests/types.js';
import type { Balance, Gateway } from '../gateway/index.js';
import type { Logger } from '../log.js';
import type { Store, SubscriptionMeta } from '../store/index.js';
import { JobLoop, type JobObserver } from './loop.js';

export interface LowBalanceCheckerSettings {
  reportTimeZone: string;
  simulated: boolean;
  /** How often usable credit is checked. Default 5. */
  alertCheckMinutes?: number;
  /** DIGEST_MIN_INTERVAL_SECONDS: the shortest time between two posts of one alert. Default 900. */
  minIntervalSeconds?: number;
}

export interface LowBalanceCheckerOptions {
  gateway: Gateway;
  store: Store;
  poster: DigestPoster;
  logger: Logger;
  now?: () => Date;
  settings: LowBalanceCheckerSettings;
  /** Told of every pass of the loop (the metrics, when METRICS_PORT is set). */
  jobObserver?: JobObserver;
}

type AlertSubscription = SubscriptionMeta & { kind: 'low_balance'; threshold: number };

/** Alert states kept on the subscription: null until the first check. */
export const ALERT_STATE = { below: 'below', ok: 'ok' } as const;

/**
 * What a check of one subscription should do with its state: alert once when usable credit is below the
 * threshold, then nothing until it has recovered above it (hysteresis: a balance hovering at the threshold,
 * or a check every few minutes, never repeats the alert).
 */
export function nextAlertState(
  state: string | null,
  usable: number,
  threshold: number,
): { to: string; post?: AlertChange } | undefined {
  if (usable < threshold)
    return state === ALERT_STATE.below ? undefined : { to: ALERT_STATE.below, post: 'below' };
  if (usable > threshold) {
    if (state === ALERT_STATE.below) return { to: ALERT_STATE.ok, post: 'recovered' };
    if (state === null) return { to: ALERT_STATE.ok };
  }
  return undefined;
}

/**
 * Checks usable credit every few minutes for every `/sms alert balance below N`. The move from one state to
 * the next is a conditional update in the store, so with several instances exactly one posts each alert.
 * A channel hears at most once every minIntervalSeconds: a balance that crosses its threshold back and
 * forth waits, state unchanged, until that time has passed since the last change, then the next check
 * posts what is true by then.
 */
export class LowBalanceChecker {
  readonly #o: LowBalanceCheckerOptions;
  readonly #now: () => Date;
  readonly #loop: JobLoop;
  readonly #minIntervalMs: number;

  constructor(options: LowBalanceCheckerOptions) {
    this.#o = options;
    this.#now = options.now ?? (() => new Date());
    this.#minIntervalMs = (options.settings.minIntervalSeconds ?? DEFAULT_MIN_INTERVAL_SECONDS) * 1000;
    this.#loop = JobLoop.every({
      name: 'balance check',
      logger: options.logger,
      observer: options.jobObserver,
      run: () => this.check(),
      everyMs: (options.settings.alertCheckMinutes ?? 5) * 60_000,
    });
  }

  start(): void {
    this.#loop.start();
  }

  async stop(): Promise<void> {
    await this.#loop.stop();
  }

  /** One check of every alert; returns the alerts posted. Exposed for tests and drills. */
  async check(now: Date = this.#now()): Promise<Array<{ subscriptionId: number; change: AlertChange }>> {
    const subs = (await this.#o.store.subscriptions.listByKind('low_balance')) as AlertSubscription[];
    if (subs.length === 0) return [];
    const balance = await this.#o.gateway.getBalance();
    let runway: Promise<Runway | undefined> | undefined;
    const posted: Array<{ subscriptionId: number; change: AlertChange }> = [];
    for (const sub of subs) {
      const next = nextAlertState(sub.alertState, balance.usable, sub.threshold);
      if (!next) continue;
      if (next.post && this.#tooSoon(sub, now)) continue;
      // alertedAt is when the channel last heard: arming an alert without a post leaves it as it was.
      const won = await this.#o.store.subscriptions.setAlertState(sub.id, {
        from: sub.alertState,
        to: next.to,
        at: next.post ? now : sub.alertedAt,
      });
      if (!won || !next.post) continue;
      runway ??= this.#runway(balance, now);
      try {
        await this.#o.poster.postAlert(
          sub.channel,
          { change: next.post, threshold: sub.threshold, balance, runway: await runway, at: now },
          { timeZone: this.#o.settings.reportTimeZone, simulated: this.#o.settings.simulated },
        );
        posted.push({ subscriptionId: sub.id, change: next.post });
      } catch (error) {
        // Give the state and its time back so the next check tries again at once; only the instance that
        // moved it can.
        await this.#o.store.subscriptions
          .setAlertState(sub.id, { from: next.to, to: sub.alertState ?? ALERT_STATE.ok, at: sub.alertedAt })
          .catch(() => false);
        this.#o.logger.warn(
          {
            subscriptionId: sub.id,
            channel: sub.channel,
            err: error instanceof Error ? error.message : String(error),
          },
          'balance alert not posted; will retry',
        );
      }
    }
    return posted;
  }

  /** A first post is never held back; a later one waits until the last is minIntervalSeconds old. */
  #tooSoon(sub: AlertSubscription, now: Date): boolean {
    return sub.alertedAt !== null && now.getTime() - sub.alertedAt.getTime() < this.#minIntervalMs;
  }

  async #runway(balance: Balance, now: Date): Promise<Runway | undefined> {
    try {
      const log = await this.#o.gateway.getBalanceLog(spendWindow(now));
      return runwayOf(balance.usable, spendOf(log, now, this.#o.settings.reportTimeZone));
    } catch {
      return undefined;
    }
  }
}
