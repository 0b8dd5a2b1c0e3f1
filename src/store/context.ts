import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/** What every repository gets: the query builder, the retry wrapper and the clock. */
export interface RepoContext {
  db: Kysely<Database>;
  run<T>(op: (attempt: number) => Promise<T>): Promise<T>;
  now(): Date;
}
