import type { ServerResponse } from 'node:http';

export type HoldOutcome = 'elapsed' | 'gone';

/**
 * Replies deliberately held back (timeout faults, slow answers). Each ends when its time is up, when
 * the client hangs up, or when the simulator closes, so shutdown never waits on a held reply.
 */
export class HeldReplies {
  #pending = new Set<() => void>();

  hold(res: ServerResponse, ms: number): Promise<HoldOutcome> {
    return new Promise((resolve) => {
      const finish = (outcome: HoldOutcome) => {
        clearTimeout(timer);
        res.off('close', onClose);
        this.#pending.delete(release);
        resolve(outcome);
      };
      const onClose = () => finish('gone');
      const release = () => finish('gone');
      const timer = setTimeout(() => finish('elapsed'), ms);
      res.on('close', onClose);
      this.#pending.add(release);
    });
  }

  get size(): number {
    return this.#pending.size;
  }

  releaseAll(): void {
    for (const release of [...this.#pending]) release();
  }
}
