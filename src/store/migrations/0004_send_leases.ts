import type { Kysely } from 'kysely';

/**
 * A pending send names the instance whose gateway call is in flight and how long that claim holds: the
 * owner renews the lease while it waits, and only a send whose lease ran out is taken for abandoned.
 * Rows written before this migration have neither and are judged by their age, as before.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('outbox').addColumn('owner', 'text').execute();
  await db.schema.alterTable('outbox').addColumn('lease_until', 'bigint').execute();
}
