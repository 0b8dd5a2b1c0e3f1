import { SlackApiError } from '../web-api/api-error.js';
import type { Clock } from './clock.js';
import { randomToken } from './ids.js';

/** Slack's documented window for exchanging a trigger_id. */
export const TRIGGER_LIFETIME_MS = 3000;

interface Trigger {
  userId: string;
  issuedAt: number;
  exchanged: boolean;
}

/**
 * trigger_ids come with every interaction and let the app open or push a view for that user, once, within 3 s.
 * Getting this wrong in the bot (a slow database call before views.open) is a real production failure, so the fake
 * enforces it with the same error names Slack uses.
 */
export class TriggerRegistry {
  readonly #triggers = new Map<string, Trigger>();
  readonly #clock: Clock;
  #counter = 0;

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  issue(userId: string): string {
    this.#counter += 1;
    const id = `${this.#counter}.${Math.floor(this.#clock() / 1000)}.${randomToken(16)}`;
    this.#triggers.set(id, { userId, issuedAt: this.#clock(), exchanged: false });
    return id;
  }

  /** Spends the trigger and says whose it was. */
  exchange(triggerId: string): string {
    const trigger = this.#triggers.get(triggerId);
    if (!trigger) throw new SlackApiError('invalid_trigger_id');
    if (trigger.exchanged) throw new SlackApiError('exchanged_trigger_id');
    if (this.#clock() - trigger.issuedAt > TRIGGER_LIFETIME_MS) throw new SlackApiError('expired_trigger_id');
    trigger.exchanged = true;
    return trigger.userId;
  }
}
