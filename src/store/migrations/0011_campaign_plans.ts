import type { Kysely } from 'kysely';

/** The tables this migration reads and writes, as they are at this point in the schema's history. */
interface AtThisMigration {
  campaigns: { id: number; plan: string };
  campaign_plans: { campaign_id: number; plan: string };
}

/**
 * A campaign's plan (its recipients, ~1.5 MB of JSON for 100,000) gets a table of its own, written once. Inside the
 * campaigns row, every claim and every step of the cursor (two updates a chunk, one chunk a second) rewrote the
 * whole row, plan included, on SQLite (a record whose size changes is written anew; secure_delete zeroes what it
 * frees): 5-16 ms of the event loop each time, measured under a 100,000-recipient campaign (docs/performance.md).
 * The plans are moved, not copied: the old column is emptied, so that a number is kept, and erased (`/sms forget`,
 * the retention purge), in one place. A plan an instance of an older release writes in the old column during a
 * rolling upgrade is read and erased there (repos/campaigns.ts).
 */
export async function up(untyped: Kysely<unknown>): Promise<void> {
  const db = untyped as unknown as Kysely<AtThisMigration>;
  await db.schema
    .createTable('campaign_plans')
    .addColumn('campaign_id', 'bigint', (col) => col.primaryKey().references('campaigns.id'))
    .addColumn('plan', 'text', (col) => col.notNull())
    .execute();
  await db
    .insertInto('campaign_plans')
    .columns(['campaign_id', 'plan'])
    .expression(db.selectFrom('campaigns').select(['id', 'plan']))
    .execute();
  await db.updateTable('campaigns').set({ plan: '' }).where('plan', '<>', '').execute();
}
