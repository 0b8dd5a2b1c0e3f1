import type { CompiledQuery, Kysely } from 'kysely';
import type { Database } from './schema.js';

/** What every repository gets: the query builder, the retry wrapper and the clock. */
export interface RepoContext {
  db: Kysely<Database>;
  run<T>(op: (attempt: number) => Promise<T>): Promise<T>;
  now(): Date;
  /**
   * Told the length of a large value (a draft, a campaign's plan) before it is written: SQLite moves its WAL
   * checkpoints off the event loop from the first one on (sqlite-thread.ts).
   */
  noteWrite?(chars: number): void;
  /**
   * Where the store has one (SQLite: sqlite-thread.ts), runs a write of one large value off the event loop; the
   * repository runs the statement itself when this is absent. Only for a statement that may run twice.
   */
  writeLarge?(query: CompiledQuery, chars: number): Promise<void>;
}
