import type { WebClient } from '@slack/web-api';
import type { Logger } from '../log.js';
import type { OutboxRow } from '../store/index.js';
import { updateCard } from './delivery-cards.js';
import type { SlackDeps } from './deps.js';
import { isRateLimited } from './retry-after.js';

/**
 * chat.update is Tier 3: about 50 calls a minute for the whole workspace (docs.slack.dev/reference/methods/
 * chat.update). Cards are updated well inside that, leaving room for the Refresh and Cancel buttons.
 */
export const CARD_UPDATES_PER_MINUTE = 40;
/** A few updates may go at once (a send's first progress is worth showing at once); then the pace applies. */
const BURST = 5;

export interface CardUpdaterOptions {
  deps: SlackDeps;
  client: WebClient;
  logger: Logger;
  perMinute?: number;
}

/**
 * Delivery-card updates, coalesced and paced. The tracker reports progress per batch as often as it polls; with
 * many batches open that would outrun chat.update's tier. Here each card keeps only its latest state while it
 * waits, updates leave at most CARD_UPDATES_PER_MINUTE a minute (after a short burst), and a 429 holds back only
 * the card updates, for its Retry-After, never the app's other calls.
 */
export class CardUpdater {
  /** Each card's latest update, keyed by card: a delivery card by its send, a campaign card by its campaign. */
  readonly #waiting = new Map<string, () => Promise<void>>();
  readonly #o: CardUpdaterOptions;
  readonly #intervalMs: number;
  #tokens = BURST;
  #refilledAt = Date.now();
  #running: Promise<void> | undefined;
  #stopped = false;
  #wake: (() => void) | undefined;

  constructor(options: CardUpdaterOptions) {
    this.#o = options;
    this.#intervalMs = 60_000 / (options.perMinute ?? CARD_UPDATES_PER_MINUTE);
  }

  /** Schedules the card of this row to show it; an older state still waiting is replaced. */
  update(row: OutboxRow): void {
    if (!row.channel || !row.messageTs) return;
    this.updateCard(`send:${row.id}`, () => updateCard(this.#o.deps, this.#o.client, row));
  }

  /** Schedules any card's chat.update under the same pace; `send` builds the card when its turn comes. */
  updateCard(key: string, send: () => Promise<void>): void {
    if (this.#stopped) return;
    // Re-inserting moves the card to the back: cards take turns instead of one busy batch starving others.
    this.#waiting.delete(key);
    this.#waiting.set(key, send);
    this.#running ??= this.#drain().finally(() => {
      this.#running = undefined;
    });
  }

  /** Waits for nothing more: cards still waiting keep their last shown state until the next progress. */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#waiting.clear();
    this.#wake?.();
    await this.#running;
  }

  /** Resolves once every waiting card was sent (tests). */
  async idle(): Promise<void> {
    while (this.#running) await this.#running;
  }

  async #drain(): Promise<void> {
    while (!this.#stopped) {
      const next = this.#waiting.entries().next().value;
      if (!next) return;
      await this.#pace();
      if (this.#stopped) return;
      const [id, first] = next;
      // The latest state of this card, which may have changed while it waited for its turn.
      const latest = this.#waiting.get(id) ?? first;
      this.#waiting.delete(id);
      try {
        await latest();
      } catch (error) {
        if (isRateLimited(error)) {
          if (!this.#waiting.has(id)) this.#waiting.set(id, latest);
          this.#tokens = 0;
          await this.#sleep(Math.max(1, error.retryAfter ?? 1) * 1000);
          continue;
        }
        this.#o.logger.warn(
          { card: id, err: error instanceof Error ? error.message : String(error) },
          'delivery card not updated',
        );
      }
    }
  }

  async #pace(): Promise<void> {
    const now = Date.now();
    this.#tokens = Math.min(BURST, this.#tokens + (now - this.#refilledAt) / this.#intervalMs);
    this.#refilledAt = now;
    if (this.#tokens < 1) {
      await this.#sleep((1 - this.#tokens) * this.#intervalMs);
      this.#tokens = 1;
      this.#refilledAt = Date.now();
    }
    this.#tokens -= 1;
  }

  #sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      timer.unref();
      this.#wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
}
