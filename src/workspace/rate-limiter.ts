import type { Clock } from './clock.js';

export interface RateLimitOptions {
  /** Sustained chat.postMessage rate per channel. Slack: about 1 per second. */
  postsPerSecondPerChannel?: number;
  /** Posts allowed back to back before the sustained rate applies; Slack tolerates short bursts. */
  burst?: number;
}

interface Bucket {
  tokens: number;
  refilledAt: number;
}

/** A token bucket per key: `take` either spends a token or says how many seconds until one is available. */
export class TokenBuckets {
  readonly #buckets = new Map<string, Bucket>();
  readonly #ratePerMs: number;
  readonly #capacity: number;
  readonly #clock: Clock;

  constructor(options: RateLimitOptions, clock: Clock) {
    this.#ratePerMs = (options.postsPerSecondPerChannel ?? 1) / 1000;
    this.#capacity = Math.max(1, options.burst ?? 3);
    this.#clock = clock;
  }

  /** Returns 0 when allowed, else the Retry-After in whole seconds (at least 1, as Slack's header is an integer). */
  take(key: string): number {
    const now = this.#clock();
    const bucket = this.#buckets.get(key) ?? { tokens: this.#capacity, refilledAt: now };
    bucket.tokens = Math.min(this.#capacity, bucket.tokens + (now - bucket.refilledAt) * this.#ratePerMs);
    bucket.refilledAt = now;
    this.#buckets.set(key, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - bucket.tokens) / this.#ratePerMs / 1000));
  }
}
