/** Waits `ms`, or less when the signal aborts (then it rejects, so the caller stops instead of posting). */
export type Sleep = (ms: number, signal: AbortSignal) => Promise<void>;

export const sleep: Sleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });

/**
 * Spaces posts per channel, as Slack limits them per channel: pacing ourselves keeps 429s rare, and a
 * 429's Retry-After holds back only that channel (WebClient's own handling pauses every call it makes).
 * One caller per channel at a time: the relay drains each channel sequentially.
 */
export class ChannelPacer {
  readonly #next = new Map<string, number>();

  constructor(
    readonly intervalMs: number,
    private readonly clock: () => number,
    private readonly wait: Sleep = sleep,
  ) {}

  /** Resolves when this channel may take its next post, and books the slot after it. */
  async turn(channel: string, signal: AbortSignal): Promise<void> {
    const at = this.#next.get(channel) ?? 0;
    const delay = at - this.clock();
    if (delay > 0) await this.wait(delay, signal);
    if (signal.aborted) throw signal.reason;
    this.#next.set(channel, Math.max(this.clock(), at) + this.intervalMs);
  }

  /** Slack said wait: nothing goes to this channel before then. */
  holdOff(channel: string, ms: number): void {
    this.#next.set(channel, Math.max(this.#next.get(channel) ?? 0, this.clock() + ms));
  }
}
