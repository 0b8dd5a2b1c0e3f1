import type { Kysely } from 'kysely';

/**
 * When personal data (text, numbers) was last taken out of a send, by the retention purge or by
 * `/sms forget`: what the send's card shows instead of a text, and what tells a purged row from one that
 * was sent with an empty text.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('outbox').addColumn('redacted_at', 'bigint').execute();
  // The retention purge finds old drafts by age.
  await db.schema.createIndex('drafts_created_at').on('drafts').column('created_at').execute();
}
