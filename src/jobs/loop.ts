import type { Logger } from '../log.js';

/** How a pass ended: it ran through, or it failed (threw, or said so through `failed`). */
export type JobOutcome = 'ok' | 'failed';

/** Told of every pass of every loop, by the loop's name: the composition's metrics. Keep it cheap. */
export interface JobObserver {
  onRun(job: string, outcome: JobOutcome, seconds: number): void;
}

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
  /** A pass that resolves but did not do its work (e.g. a poll that never reached the gateway). */
  failed?: (result: unknown) => boolean;
  observer?: JobObserver;
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
  #abort = new AbortController();

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

  /** Aborted by stop(): a pass hands it to the calls it waits on (a gateway call), so that a stop need not wait. */
  get signal(): AbortSignal {
    return this.#abort.signal;
  }

  start(): void {
    if (this.#started) return;
    this.#started = true;
    this.#stopping = false;
    if (this.#abort.signal.aborted) this.#abort = new AbortController();
    this.#schedule(0);
  }

  async stop(): Promise<void> {
    this.#stopping = true;
    this.#started = false;
    this.#abort.abort(new Error(`${this.#o.name}: stopping`));
    if (this.#timer) clearTimeout(this.#timer);
    await this.#running;
  }

  #schedule(delayMs: number): void {
    if (this.#stopping) return;
    this.#timer = setTimeout(() => {
      const started = performance.now();
      const observe = (outcome: JobOutcome) =>
        this.#o.observer?.onRun(this.#o.name, outcome, (performance.now() - started) / 1000);
      this.#running = this.#o
        .run()
        .then(
          (result) => observe(this.#o.failed?.(result) ? 'failed' : 'ok'),
          (error: unknown) => {
            observe('failed');
            this.#o.logger.warn(
              { err: error instanceof Error ? error.message : String(error) },
              `${this.#o.name} failed`,
            );
          },
        )
        .then(() => this.#o.nextDelayMs())
        .catch(() => this.#o.fallbackDelayMs)
        .then((delay) => this.#schedule(delay));
    }, delayMs);
    this.#timer.unref();
  }
}
