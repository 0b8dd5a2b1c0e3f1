import type { Clock } from '../state/clock.js';

export interface RateLimitOptions {
  /** Sustained chat.postMessage rate per channel. Slack: about 1 per second. */
  postsPerSecondPerChannel?: number;
  /** Posts allowed back to back before the sustained rate applies; Slack tolerates short bursts. */
  burst?: number;
  /** Calls a minute per method, overriding its tier's (tests use small figures to reach a limit quickly). */
  perMinute?: Record<string, number>;
}

/**
 * Slack's rate tiers, calls a minute per method and workspace: Tier 1 1+, Tier 2 20+, Tier 3 50+, Tier 4 100+
 * (docs.slack.dev/apis/web-api/rate-limits). Each method's tier is on its page (docs.slack.dev/reference/methods/
 * <method>): chat.update, chat.delete, conversations.info, conversations.join and conversations.open are Tier 3; chat.postEphemeral,
 * users.info, views.open/push/update/publish and files.getUploadURLExternal/completeUploadExternal/info are
 * Tier 4; conversations.list is Tier 2. chat.postMessage has its own limit per channel (see postsPerSecondPerChannel).
 * The workspace allows each tier's minimum, and a whole minute's worth at once, as Slack tolerates bursts.
 */
export const TIER_PER_MINUTE: Readonly<Record<string, number>> = {
  'chat.update': 50,
  'chat.delete': 50,
  'conversations.info': 50,
  'conversations.join': 50,
  // docs.slack.dev/reference/methods/conversations.open: Tier 3 (the bot's DM with a person, e.g. for rejected rows).
  'conversations.open': 50,
  'conversations.list': 20,
  'chat.postEphemeral': 100,
  'users.info': 100,
  'views.open': 100,
  'views.push': 100,
  'views.update': 100,
  'views.publish': 100,
  'files.getUploadURLExternal': 100,
  'files.completeUploadExternal': 100,
  'files.info': 100,
  // docs.slack.dev/reference/methods/functions.completeSuccess (and completeError): Tier 3.
  'functions.completeSuccess': 50,
  'functions.completeError': 50,
};

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

  constructor(options: { perSecond: number; burst: number }, clock: Clock) {
    this.#ratePerMs = options.perSecond / 1000;
    this.#capacity = Math.max(1, options.burst);
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

/** Every limit the workspace enforces: chat.postMessage per channel, every other tiered method per workspace. */
export class RateLimits {
  readonly #posts: TokenBuckets;
  readonly #tiers = new Map<string, TokenBuckets>();
  readonly #perMinute: Record<string, number>;
  readonly #clock: Clock;

  constructor(options: RateLimitOptions, clock: Clock) {
    this.#posts = new TokenBuckets(
      { perSecond: options.postsPerSecondPerChannel ?? 1, burst: options.burst ?? 3 },
      clock,
    );
    this.#perMinute = { ...TIER_PER_MINUTE, ...options.perMinute };
    this.#clock = clock;
  }

  /** 0 when the call may run, else the Retry-After in whole seconds. */
  take(method: string, channelId: string): number {
    if (method === 'chat.postMessage') return this.#posts.take(channelId);
    const perMinute = this.#perMinute[method];
    if (perMinute === undefined) return 0;
    let buckets = this.#tiers.get(method);
    if (!buckets) {
      buckets = new TokenBuckets({ perSecond: perMinute / 60, burst: perMinute }, this.#clock);
      this.#tiers.set(method, buckets);
    }
    return buckets.take(method);
  }
}
