import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '../log.js';
import { describeError, StoreUnavailableError } from './errors.js';
import type { RetryOptions } from './types.js';

const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  '57P01', // admin_shutdown: pg_terminate_backend, server restart
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '53300', // too_many_connections
  // SQLite: a writer held the lock past busy_timeout; nothing was written, so trying again is safe.
  'SQLITE_BUSY',
  'SQLITE_BUSY_SNAPSHOT',
  'SQLITE_BUSY_RECOVERY',
]);

const CONNECTION_MESSAGES = [
  /connection terminated/i,
  /not queryable/i,
  /timeout exceeded when trying to connect/i,
  /server closed the connection/i,
  /connection (is )?closed/i,
  /socket hang up/i,
];

// PostgreSQL rolled the statement back to break a lock cycle or a serialisation conflict:
// nothing was applied, the database is fine, and running it again is the documented remedy.
const CONFLICT_CODES = new Set(['40P01', '40001']);

export const isTransientConflict = (error: unknown): boolean =>
  CONFLICT_CODES.has(String((error as { code?: unknown } | undefined)?.code));

/** Errors that say the connection failed rather than the statement; the statement can be tried again. */
export function isConnectionError(error: unknown): boolean {
  const err = error as { code?: unknown; message?: unknown; errors?: unknown[] } | undefined;
  if (!err || typeof err !== 'object') return false;
  const code = typeof err.code === 'string' ? err.code : '';
  if (CONNECTION_CODES.has(code) || code.startsWith('08')) return true;
  if (Array.isArray(err.errors) && err.errors.some(isConnectionError)) return true;
  const message = typeof err.message === 'string' ? err.message : '';
  return CONNECTION_MESSAGES.some((re) => re.test(message));
}

/**
 * Runs operations with retries across connection loss, and keeps the outage state: the first failure
 * of an outage is logged once, and so is the recovery, however many operations hit it in between.
 */
export class Resilience {
  #down: { since: number; reason: string } | undefined;
  readonly #retries: number;
  readonly #baseDelayMs: number;
  readonly #maxDelayMs: number;

  constructor(
    private readonly logger: Logger,
    private readonly target: string,
    private readonly secrets: Array<string | undefined>,
    options: RetryOptions = {},
  ) {
    this.#retries = options.retries ?? 6;
    this.#baseDelayMs = options.baseDelayMs ?? 100;
    this.#maxDelayMs = options.maxDelayMs ?? 2_000;
  }

  get outage(): string | undefined {
    return this.#down?.reason;
  }

  /**
   * `op` gets the attempt number: from 1 on, an earlier attempt may have been applied before its
   * connection died, so a claim must check whether it already holds what it asked for.
   */
  async run<T>(op: (attempt: number) => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        const result = await op(attempt);
        this.noteSuccess();
        return result;
      } catch (error) {
        const conflict = isTransientConflict(error);
        if (!conflict && !isConnectionError(error)) throw error;
        if (!conflict) this.noteFailure(error);
        if (attempt >= this.#retries) {
          if (conflict) throw error;
          throw new StoreUnavailableError(
            `database ${this.target} unavailable: ${describeError(error, this.secrets)}`,
            { cause: error },
          );
        }
        const base = conflict ? 10 : this.#baseDelayMs;
        const delay = Math.min(this.#maxDelayMs, base * 2 ** attempt);
        await sleep(delay * (0.5 + Math.random() / 2));
      }
    }
  }

  noteFailure(error: unknown): void {
    const reason = describeError(error, this.secrets);
    if (this.#down) return;
    this.#down = { since: Date.now(), reason };
    this.logger.warn({ target: this.target, reason }, 'database unavailable; retrying');
  }

  noteSuccess(): void {
    const down = this.#down;
    if (!down) return;
    this.#down = undefined;
    this.logger.info(
      { target: this.target, downMs: Date.now() - down.since, reason: down.reason },
      'database available again',
    );
  }
}
