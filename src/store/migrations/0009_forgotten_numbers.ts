import type { Kysely } from 'kysely';

/** The tables this migration creates, as they are at this point in the schema's history. */
interface AtThisMigration {
  forgotten_numbers: { hash: string; forgotten_at: number };
}

/**
 * Numbers forgotten with `/sms forget`, kept as a keyed hash (HMAC-SHA256 under a per-install key in app_settings),
 * never as the number: what the gateway still lists (its Receive list) can then be left out of what smsops shows,
 * without smsops keeping the very number it was asked to forget.
 */
export async function up(untyped: Kysely<unknown>): Promise<void> {
  const db = untyped as unknown as Kysely<AtThisMigration>;
  await db.schema
    .createTable('forgotten_numbers')
    .addColumn('hash', 'text', (col) => col.primaryKey())
    .addColumn('forgotten_at', 'bigint', (col) => col.notNull())
    .execute();
}
