import type { Logger } from '../log.js';

export interface JobLoopOptions {
  /** Names the job in the one log line a failed pass gets. */
  name: string;
  logger: Logger;
  /** One pass; a failure is logged and the loop goes on. */
  run: () => Promise<unknown>;
  /** How long to wait after a pass before the next one. */
  nextDelayMs: () => number | Promise<number>;
  /** Used when nextDelayMs itself fails. */
  fallbackDelayMs: number;
}

/**
 * A job on its own clock: one pass at a time, the next scheduled when the last has ended, and a
 * stop that waits for the pass in progress so nothing is cut off half-recorded.
 */
export class JobLoop {
  readonly #o: JobLoopOptions;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<unknown> | undefined;
  #started = false;
  #stopping = false;

  constructor(options: JobLoopOptions) {
    this.#o = options;
  }

  /** A loop that waits the same everyMs after every pass, failed or not. */
  static every(
    options: Omit<JobLoopOptions, 'nextDelayMs' | 'fallbackDelayMs'> & { everyMs: number },
  ): JobLoop {
    const { everyMs, ...rest } = options;
    return new JobLoop({ ...rest, nextDelayMs: () => everyMs, fallbackDelayMs: everyMs });
  }

  /** True once stop() was called: long passes check it to end early. */
  get stopping(): boolean {
    return this.#stopping;
  }

  start(): void {
    if (this.#started) return;
    this.#started = true;
    this.#stopping = false;
    this.#schedule(0);
  }

  async stop(): Promise<void> {
    this.#stopping = true;
    this.#started = false;
    if (this.#timer) clearTimeout(this.#timer);
    await this.#running;
  }

  #schedule(delayMs: number): void {
    if (this.#stopping) return;
    this.#timer = setTimeout(() => {
      this.#running = this.#o
        .run()
        .catch((error: unknown) => {
          this.#o.logger.warn(
            { err: error instanceof Error ? error.message : String(error) },
            `${this.#o.name} failed`,
          );
        })
        .then(() => this.#o.nextDelayMs())
        .catch(() => this.#o.fallbackDelayMs)
        .then((delay) => this.#schedule(delay));
    }, delayMs);
    this.#timer.unref();
  }
}
