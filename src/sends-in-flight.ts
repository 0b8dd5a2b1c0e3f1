import { within } from './within.js';

/**
 * The sends this process has started and not finished. A send runs after Slack's ack, so no request is open
 * for it when shutdown begins: shutdown waits here (for a bounded time) before it closes the gateway and the
 * store, so that a MessageId the gateway returns meanwhile is recorded on its send rather than left for the
 * next start to find unknown. The gateway client keeps one of its own, of its Submit, SubmitMulti and Cancel
 * calls, for the grace its close gives them.
 */
export class SendsInFlight {
  readonly #running = new Set<Promise<unknown>>();

  /** Runs `work` as one send in flight; its result and its failure are the caller's, unchanged. */
  track<T>(work: Promise<T>): Promise<T> {
    this.#running.add(work);
    const done = () => {
      this.#running.delete(work);
    };
    work.then(done, done);
    return work;
  }

  get count(): number {
    return this.#running.size;
  }

  /** Resolves true once every send in flight has ended, false if some have not after `timeoutMs`. */
  async settled(timeoutMs: number): Promise<boolean> {
    if (this.#running.size === 0) return true;
    const all = Promise.allSettled([...this.#running]).then(() => true);
    return within(all, timeoutMs, () => false);
  }
}
