import type { Clock } from './clock.js';
import { randomToken } from './ids.js';

/** Slack: a response_url works up to 5 times within 30 minutes. */
export const RESPONSE_URL_MAX_USES = 5;
export const RESPONSE_URL_LIFETIME_MS = 30 * 60 * 1000;

export interface ResponseTarget {
  channelId: string;
  userId: string;
  /** The message the interaction came from, which replace_original / delete_original act on. */
  messageTs?: string;
  /** The originating message was an ephemeral one. */
  ephemeral?: boolean;
  threadTs?: string;
}

export interface ResponseUrlRecord extends ResponseTarget {
  id: string;
  issuedAt: number;
  uses: number;
}

export class ResponseUrlRegistry {
  readonly #records = new Map<string, ResponseUrlRecord>();
  readonly #clock: Clock;

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  issue(target: ResponseTarget): ResponseUrlRecord {
    const record: ResponseUrlRecord = { ...target, id: randomToken(), issuedAt: this.#clock(), uses: 0 };
    this.#records.set(record.id, record);
    return record;
  }

  /** Counts a use; says why the URL no longer works, as Slack does, or hands back where it points. */
  spend(id: string): ResponseUrlRecord | 'expired_url' | 'used_url' {
    const record = this.#records.get(id);
    if (!record || this.#clock() - record.issuedAt > RESPONSE_URL_LIFETIME_MS) return 'expired_url';
    if (record.uses >= RESPONSE_URL_MAX_USES) return 'used_url';
    record.uses += 1;
    return record;
  }

  get(id: string): ResponseUrlRecord | undefined {
    return this.#records.get(id);
  }
}
