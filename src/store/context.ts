import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/** What every repository gets: the query builder, the retry wrapper and the clock. */
export interface RepoContext {
  db: Kysely<Database>;
  run<T>(op: (attempt: number) => Promise<T>): Promise<T>;
  now(): Date;
  /**
   * Told the length of a large value (a draft, a campaign's plan, a saved list) before it is written: SQLite
   * moves its WAL checkpoints off the event loop from the first one on (checkpointer.ts).
   */
  noteWrite?(chars: number): void;
}
