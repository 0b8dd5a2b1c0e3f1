import type { Kysely } from 'kysely';
import type { StoreKind } from '../types.js';

/**
 * A send larger than one gateway call is a campaign of chunks. The campaign keeps the validated plan and a
 * cursor: the chunk to submit next, claimed by one instance at a time under a lease. Each chunk that reaches
 * the send path is an ordinary outbox row, marked with its campaign and chunk number.
 */
export async function up(db: Kysely<unknown>, kind: StoreKind): Promise<void> {
  const table = db.schema.createTable('campaigns');
  await (kind === 'sqlite'
    ? table.addColumn('id', 'integer', (col) => col.primaryKey().autoIncrement())
    : table.addColumn('id', 'bigint', (col) => col.primaryKey().generatedByDefaultAsIdentity())
  )
    .addColumn('idempotency_key', 'text', (col) => col.notNull().unique())
    .addColumn('create_token', 'text', (col) => col.notNull())
    .addColumn('slack_user', 'text', (col) => col.notNull())
    .addColumn('acting_user', 'text', (col) => col.notNull())
    .addColumn('channel', 'text', (col) => col.notNull())
    .addColumn('thread_ts', 'text')
    .addColumn('message_ts', 'text')
    .addColumn('sender', 'text', (col) => col.notNull())
    .addColumn('body', 'text', (col) => col.notNull())
    .addColumn('plan', 'text', (col) => col.notNull())
    .addColumn('recipient_count', 'integer', (col) => col.notNull())
    .addColumn('segments', 'integer', (col) => col.notNull())
    .addColumn('estimated_cost', 'double precision')
    .addColumn('chunk_size', 'integer', (col) => col.notNull())
    .addColumn('chunk_count', 'integer', (col) => col.notNull())
    .addColumn('round', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('cursor', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('state', 'text', (col) => col.notNull())
    .addColumn('stop_reason', 'text')
    .addColumn('next_at', 'bigint', (col) => col.notNull())
    .addColumn('owner', 'text')
    .addColumn('lease_until', 'bigint')
    .addColumn('cancelled_by', 'text')
    .addColumn('cancelled_at', 'bigint')
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addColumn('updated_at', 'bigint', (col) => col.notNull())
    .addColumn('redacted_at', 'bigint')
    .execute();
  await db.schema.createIndex('campaigns_state').on('campaigns').columns(['state', 'next_at']).execute();
  await db.schema.alterTable('outbox').addColumn('campaign_id', 'bigint').execute();
  await db.schema.alterTable('outbox').addColumn('campaign_chunk', 'integer').execute();
  await db.schema
    .createIndex('outbox_campaign')
    .on('outbox')
    .columns(['campaign_id', 'campaign_chunk'])
    .execute();
}
