import { type Kysely, Migrator } from 'kysely';
import { MIGRATION_LOCK_TABLE, MIGRATION_TABLE, migrationProvider } from './migrations/index.js';
import type { Database } from './schema.js';
import type { StoreKind } from './types.js';

/**
 * Applies pending migrations; returns the names applied by this call. Concurrent callers are
 * serialised by the caller's lock (PostgreSQL: Kysely's advisory lock; SQLite: see withWriteLock),
 * and whoever comes second finds nothing left to do.
 */
export async function migrate(
  db: Kysely<Database>,
  kind: StoreKind,
  options: { schema?: string; disableTransactions?: boolean },
): Promise<string[]> {
  const migrator = new Migrator({
    db,
    provider: migrationProvider(kind),
    migrationTableName: MIGRATION_TABLE,
    migrationLockTableName: MIGRATION_LOCK_TABLE,
    migrationTableSchema: options.schema,
    disableTransactions: options.disableTransactions,
  });
  const { error, results = [] } = await migrator.migrateToLatest();
  if (error) {
    const failed = results.find((r) => r.status === 'Error')?.migrationName;
    if (!failed) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`migration ${failed} failed: ${reason}`, { cause: error });
  }
  return results.filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
