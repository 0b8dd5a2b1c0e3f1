import type { CreateTableBuilder, Kysely } from 'kysely';
import type { StoreKind } from '../types.js';

// Auto-increment ids are the one place the dialects need different DDL; everything else is shared.
function withId<T extends string>(table: CreateTableBuilder<T, never>, kind: StoreKind) {
  return kind === 'sqlite'
    ? table.addColumn('id', 'integer', (col) => col.primaryKey().autoIncrement())
    : table.addColumn('id', 'bigint', (col) => col.primaryKey().generatedByDefaultAsIdentity());
}

export async function up(db: Kysely<unknown>, kind: StoreKind): Promise<void> {
  await withId(db.schema.createTable('outbox'), kind)
    .addColumn('idempotency_key', 'text', (col) => col.notNull().unique())
    .addColumn('create_token', 'text', (col) => col.notNull())
    .addColumn('slack_user', 'text', (col) => col.notNull())
    .addColumn('channel', 'text')
    .addColumn('message_ts', 'text')
    .addColumn('sender', 'text')
    .addColumn('recipients', 'text', (col) => col.notNull())
    .addColumn('recipient_count', 'integer', (col) => col.notNull())
    .addColumn('body', 'text', (col) => col.notNull())
    .addColumn('segments', 'integer', (col) => col.notNull())
    .addColumn('encoding', 'text', (col) => col.notNull())
    .addColumn('estimated_cost', 'double precision')
    .addColumn('payload', 'text')
    .addColumn('state', 'text', (col) => col.notNull())
    .addColumn('message_id', 'text')
    .addColumn('reason', 'text')
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addColumn('updated_at', 'bigint', (col) => col.notNull())
    .addColumn('submitted_at', 'bigint')
    .addColumn('delivered', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('undelivered', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('delivery_count', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('delivery_state', 'text')
    .addColumn('final', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('last_polled_at', 'bigint')
    .addColumn('next_poll_at', 'bigint')
    .addColumn('cancelled_at', 'bigint')
    .addColumn('cancelled_by', 'text')
    .execute();
  await db.schema.createIndex('outbox_message_id').on('outbox').column('message_id').execute();
  await db.schema
    .createIndex('outbox_poll')
    .on('outbox')
    .columns(['state', 'final', 'next_poll_at'])
    .execute();
  await db.schema.createIndex('outbox_created_at').on('outbox').column('created_at').execute();

  await db.schema
    .createTable('inbound_messages')
    .addColumn('gateway_id', 'text', (col) => col.primaryKey())
    .addColumn('claim_token', 'text', (col) => col.notNull())
    .addColumn('claimed_by', 'text', (col) => col.notNull())
    .addColumn('claimed_at', 'bigint', (col) => col.notNull())
    .addColumn('channel', 'text')
    .addColumn('ts', 'text')
    .addColumn('thread_ts', 'text')
    .addColumn('posted_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('inbound_messages_claimed_at')
    .on('inbound_messages')
    .column('claimed_at')
    .execute();

  await db.schema
    .createTable('relay_cursors')
    .addColumn('name', 'text', (col) => col.primaryKey())
    .addColumn('value', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'bigint', (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('inbound_threads')
    .addColumn('channel', 'text', (col) => col.notNull())
    .addColumn('msisdn', 'text', (col) => col.notNull())
    .addColumn('thread_ts', 'text', (col) => col.notNull())
    .addColumn('last_at', 'bigint', (col) => col.notNull())
    .addPrimaryKeyConstraint('inbound_threads_pk', ['channel', 'msisdn'])
    .execute();

  await withId(db.schema.createTable('subscriptions'), kind)
    .addColumn('channel', 'text', (col) => col.notNull())
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('filter_key', 'text', (col) => col.notNull())
    .addColumn('config', 'text', (col) => col.notNull())
    .addColumn('alert_state', 'text')
    .addColumn('alerted_at', 'bigint')
    .addColumn('created_by', 'text', (col) => col.notNull())
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addUniqueConstraint('subscriptions_unique', ['channel', 'kind', 'filter_key'])
    .execute();
  await db.schema.createIndex('subscriptions_kind').on('subscriptions').column('kind').execute();

  await db.schema
    .createTable('job_runs')
    .addColumn('job', 'text', (col) => col.notNull())
    .addColumn('slot', 'text', (col) => col.notNull())
    .addColumn('instance_id', 'text', (col) => col.notNull())
    .addColumn('claim_token', 'text', (col) => col.notNull())
    .addColumn('claimed_at', 'bigint', (col) => col.notNull())
    .addPrimaryKeyConstraint('job_runs_pk', ['job', 'slot'])
    .execute();
  await db.schema
    .createIndex('job_runs_job_claimed_at')
    .on('job_runs')
    .columns(['job', 'claimed_at'])
    .execute();

  await db.schema
    .createTable('permissions')
    .addColumn('slack_user', 'text', (col) => col.primaryKey())
    .addColumn('role', 'text', (col) => col.notNull())
    .addColumn('granted_by', 'text', (col) => col.notNull())
    .addColumn('granted_at', 'bigint', (col) => col.notNull())
    .execute();

  await withId(db.schema.createTable('audit_log'), kind)
    .addColumn('entry_token', 'text', (col) => col.notNull().unique())
    .addColumn('at', 'bigint', (col) => col.notNull())
    .addColumn('actor', 'text', (col) => col.notNull())
    .addColumn('action', 'text', (col) => col.notNull())
    .addColumn('target', 'text')
    .addColumn('details', 'text')
    .execute();

  await db.schema
    .createTable('opt_outs')
    .addColumn('msisdn', 'text', (col) => col.primaryKey())
    .addColumn('since', 'bigint', (col) => col.notNull())
    .addColumn('source', 'text', (col) => col.notNull())
    .addColumn('added_by', 'text')
    .execute();

  await withId(db.schema.createTable('recipient_lists'), kind)
    .addColumn('name', 'text', (col) => col.notNull().unique())
    .addColumn('owner', 'text', (col) => col.notNull())
    .addColumn('content', 'text', (col) => col.notNull())
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addColumn('updated_at', 'bigint', (col) => col.notNull())
    .execute();

  await withId(db.schema.createTable('templates'), kind)
    .addColumn('name', 'text', (col) => col.notNull().unique())
    .addColumn('owner', 'text', (col) => col.notNull())
    .addColumn('content', 'text', (col) => col.notNull())
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addColumn('updated_at', 'bigint', (col) => col.notNull())
    .execute();
}
