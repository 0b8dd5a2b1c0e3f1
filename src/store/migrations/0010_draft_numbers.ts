import type { Kysely } from 'kysely';

/**
 * A draft's long list of numbers (a file's, a comma between them), kept beside its JSON instead of inside it:
 * one ASCII string that is written and read as it is. Inside the JSON, a draft whose text has one Turkish letter
 * made the whole JSON of 100,000 numbers a two-byte string, twice the bytes to build, copy and convert, on the
 * thread that answers Slack (bench/uploads.ts, 2026-11-27). Null for every other draft.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('drafts').addColumn('numbers', 'text').execute();
}
