import type { Kysely } from 'kysely';

/** The tables this migration creates, as they are at this point in the schema's history. */
interface AtThisMigration {
  app_settings: { name: string; value: string; updated_by: string; updated_at: number };
}

/**
 * Switches an admin turns on or off from Slack and that every instance must read alike (first of them: whether
 * Workflow Builder steps may run, `/sms workflows on|off`). One row per setting; no row means the default.
 */
export async function up(untyped: Kysely<unknown>): Promise<void> {
  const db = untyped as unknown as Kysely<AtThisMigration>;
  await db.schema
    .createTable('app_settings')
    .addColumn('name', 'text', (col) => col.primaryKey())
    .addColumn('value', 'text', (col) => col.notNull())
    .addColumn('updated_by', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'bigint', (col) => col.notNull())
    .execute();
}
