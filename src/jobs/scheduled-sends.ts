import type { Logger } from '../log.js';
import type { OutboxRow, Store } from '../store/index.js';
import { JobLoop, type JobObserver } from './loop.js';

/** How the job reaches Slack (see src/slack/scheduled-port.ts). */
export interface ScheduledSendPort {
  /**
   * Sends a due send through the one entry point an immediate confirmed send uses; its claim (only if still
   * scheduled and due by `dueBy`) makes sure it goes once across instances. Its card says what happened.
   * True when this instance made it (sent, or refused at sending); false when another had claimed it.
   */
  fire(row: OutboxRow, dueBy: Date): Promise<boolean>;
  /** A send found too late was held: its card asks its author to send it now or cancel it. */
  held(row: OutboxRow): Promise<void>;
}

export interface ScheduledSenderSettings {
  /** SCHEDULE_GRACE_MINUTES: found at most this late, a send still goes; later, it is held. */
  graceMinutes: number;
  /** How often due sends are looked for. Default 10 s. */
  everyMs?: number;
}

export interface ScheduledSenderOptions {
  store: Store;
  logger: Logger;
  now: () => Date;
  port: ScheduledSendPort;
  settings: ScheduledSenderSettings;
  /** Told of every pass (the metrics, when METRICS_PORT is set). */
  jobObserver?: JobObserver;
}

/** Most due sends handled in one pass; the next pass takes the rest. */
const BATCH = 50;

/**
 * Fires scheduled sends when they are due. A send found less than the grace late (the bot was down, or
 * busy) still goes; a later one is held, never sent hours late by surprise, and waits for its author.
 * Every instance runs this; the claim in the store lets exactly one of them send each send.
 */
export class ScheduledSender {
  readonly #o: ScheduledSenderOptions;
  readonly #loop: JobLoop;

  constructor(options: ScheduledSenderOptions) {
    this.#o = options;
    this.#loop = JobLoop.every({
      name: 'scheduled sends',
      logger: options.logger,
      everyMs: options.settings.everyMs ?? 10_000,
      run: () => this.tick(),
      observer: options.jobObserver,
    });
  }

  start(): void {
    this.#loop.start();
  }

  stop(): Promise<void> {
    return this.#loop.stop();
  }

  /** One pass at the clock's present time: what was due is sent or held. */
  async tick(): Promise<{ fired: number; held: number }> {
    const { store, logger, port, settings } = this.#o;
    const now = this.#o.now();
    const graceMs = settings.graceMinutes * 60_000;
    const lateBefore = new Date(now.getTime() - graceMs);
    let fired = 0;
    let held = 0;
    for (const row of await store.outbox.dueScheduled(now, BATCH)) {
      if (this.#loop.stopping) break;
      const log = logger.child({ outboxId: row.id });
      try {
        if (row.dueAt && row.dueAt < lateBefore) {
          const lateMinutes = Math.round((now.getTime() - row.dueAt.getTime()) / 60_000);
          const reason = `found ${lateMinutes} minutes after its time (grace ${settings.graceMinutes})`;
          if (await store.outbox.holdLate(row.id, lateBefore, reason, now)) {
            held++;
            log.warn({ lateMinutes }, 'scheduled send held: its time passed while nothing ran');
            await store.audit.append({
              actor: 'smsops',
              action: 'schedule_held',
              target: `outbox ${row.id}`,
              details: { reason },
              at: now,
            });
            await port.held((await store.outbox.get(row.id)) ?? row);
          }
          continue;
        }
        if (await port.fire(row, now)) fired++;
      } catch (error) {
        log.warn(
          { err: error instanceof Error ? error.message : String(error) },
          'scheduled send not handled',
        );
      }
    }
    return { fired, held };
  }
}
