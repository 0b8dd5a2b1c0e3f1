import type { Kysely } from 'kysely';

/** The tables this migration reads and writes, as they are at this point in the schema's history. */
interface AtThisMigration {
  relay_cursors: { name: string; value: string; updated_at: number };
  digest_memory: { subscription_id: number; memory: string; updated_at: number };
}

// Digest memory used to be kept among the relay's cursors under this name.
const OLD_NAME = /^digest:(\d+)$/;
const ROWS_PER_INSERT = 200;

/**
 * What each digest subscription remembers of its last posted digest gets a table of its own, keyed by the
 * subscription. Memory written before lived in relay_cursors as `digest:<id>`; it is copied over so the
 * first digest after an upgrade still says what changed. The old rows are left where they are.
 */
export async function up(untyped: Kysely<unknown>): Promise<void> {
  const db = untyped as unknown as Kysely<AtThisMigration>;
  await db.schema
    .createTable('digest_memory')
    .addColumn('subscription_id', 'bigint', (col) => col.primaryKey())
    .addColumn('memory', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'bigint', (col) => col.notNull())
    .execute();

  const old = await db
    .selectFrom('relay_cursors')
    .select(['name', 'value', 'updated_at'])
    .where('name', 'like', 'digest:%')
    .execute();
  const carried = old.flatMap((row) => {
    const id = OLD_NAME.exec(row.name)?.[1];
    return id === undefined
      ? []
      : [{ subscription_id: Number(id), memory: row.value, updated_at: Number(row.updated_at) }];
  });
  for (let i = 0; i < carried.length; i += ROWS_PER_INSERT) {
    await db
      .insertInto('digest_memory')
      .values(carried.slice(i, i + ROWS_PER_INSERT))
      .execute();
  }
}
