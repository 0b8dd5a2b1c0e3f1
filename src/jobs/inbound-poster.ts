import type { InboundMessage } from '../gateway/index.js';

/**
 * What the inbound relay needs from a chat system, and nothing more: the relay stays free of Slack, and
 * tests or another chat system can stand in. src/slack/slack-inbound-poster.ts implements it for Slack.
 */

/** One inbound SMS as the relay hands it over, with what the relay learned about it. */
export interface RelayItem {
  message: InboundMessage;
  /** The text was a stop word, so the number is on the opt-out list now. */
  optedOut: boolean;
  /** The survey this SMS answers, found by its keyword. */
  survey?: { id: number; name?: string };
}

export interface PostTarget {
  channel: string;
  /** Reply in this thread; absent: a new top-level post. */
  threadTs?: string;
}

export interface PostRequest {
  /** Oldest first. */
  items: readonly RelayItem[];
  /** Several numbers share this post (a burst); their later messages reply in its thread. */
  shared: boolean;
  /** The conversation's earlier thread is gone, so this post starts a new one and says so. */
  threadRestarted?: boolean;
}

export interface InboundPoster {
  /** One post carries at most `items` messages whose sizes (see size()) add up to at most `size`. */
  readonly capacity: { items: number; size: number };
  size(item: RelayItem): number;
  /**
   * Resolves with the new message's ts, and `threadRestarted` when the thread in `target` was gone (its parent
   * deleted: a reply there would never show) so the post started a new thread; rejects with one of the errors below.
   */
  post(target: PostTarget, request: PostRequest): Promise<{ ts: string; threadRestarted?: boolean }>;
}

/** The chat system asked us to slow down: nothing was posted; try the same post again after the wait. */
export class PostRateLimited extends Error {
  override readonly name = 'PostRateLimited';
  constructor(readonly retryAfterMs: number) {
    super(`rate limited; retry after ${retryAfterMs} ms`);
  }
}

/** The channel cannot take posts from us (not a member and cannot join, archived, gone). Admins were told. */
export class ChannelUnavailable extends Error {
  override readonly name = 'ChannelUnavailable';
  constructor(
    readonly channel: string,
    readonly reason: string,
  ) {
    super(`cannot post in ${channel}: ${reason}`);
  }
}

/**
 * The chat system refused this post for what it is (too long, blocks it will not take): the same post can never
 * succeed, so its messages are skipped (they stay in /sms inbox) and the admins were told once.
 */
export class PostRefused extends Error {
  override readonly name = 'PostRefused';
  constructor(readonly reason: string) {
    super(`post refused: ${reason}`);
  }
}

/** Any other failure: nothing is known to be posted, so the messages are tried again later. */
export class PostFailed extends Error {
  override readonly name = 'PostFailed';
  constructor(readonly reason: string) {
    super(`post failed: ${reason}`);
  }
}
