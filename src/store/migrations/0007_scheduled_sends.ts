import type { Kysely } from 'kysely';

/**
 * A scheduled send is an outbox row in state `scheduled` (or `held`, when its time passed while nothing ran
 * and it waits for its author) with the moment it is due. When due it is claimed by one conditional update
 * that moves it to `pending`, and from there it is a send like any other.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('outbox').addColumn('due_at', 'bigint').execute();
  await db.schema.createIndex('outbox_state_due_at').on('outbox').columns(['state', 'due_at']).execute();
}
