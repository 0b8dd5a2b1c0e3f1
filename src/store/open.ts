import { type CompiledQuery, type Kysely, sql } from 'kysely';
import { type Logger, silentLogger } from '../log.js';
import { describeError, StoreOpenError } from './errors.js';
import { migrate } from './migrate.js';
import { repositories } from './repos/index.js';
import { isConnectionError, Resilience } from './resilience.js';
import type { Database } from './schema.js';
import type { SqliteThread } from './sqlite-thread.js';
import type { Store, StoreKind, StoreOptions } from './types.js';
import { type DatabaseTarget, parseDatabaseUrl } from './url.js';

/**
 * Opens the database named by DATABASE_URL (`sqlite:<path>` or `postgres://…`), applies pending
 * migrations and returns the repositories. Any failure is a StoreOpenError whose message is one line
 * naming the target, password masked.
 */
export async function openStore(databaseUrl: string, options: StoreOptions = {}): Promise<Store> {
  const target = parseDatabaseUrl(databaseUrl);
  const logger = options.logger ?? silentLogger;
  return target.kind === 'sqlite'
    ? openSqlite(target, options, logger)
    : openPostgres(target, options, logger);
}

type SqliteTarget = Extract<DatabaseTarget, { kind: 'sqlite' }>;
type PostgresTarget = Extract<DatabaseTarget, { kind: 'postgres' }>;

function openError(target: DatabaseTarget, error: unknown): StoreOpenError {
  const secrets = target.kind === 'postgres' ? [target.password] : [];
  const where =
    target.kind === 'sqlite' && !target.masked.includes(target.path)
      ? `${target.masked} (${target.path})`
      : target.masked;
  return new StoreOpenError(`cannot open database ${where}: ${describeError(error, secrets)}`, {
    cause: error,
  });
}

// Two stores of one process on one file would each wait on the other's write lock while blocking the
// thread that holds it, so within a process migrations of a file take turns instead.
const sqliteMigrations = new Map<string, Promise<unknown>>();

// Each driver is loaded by the store that uses it: a SQLite bot never loads pg, nor PostgreSQL better-sqlite3.
async function openSqlite(target: SqliteTarget, options: StoreOptions, logger: Logger): Promise<Store> {
  const { BUSY_TIMEOUT_MS, openSqliteFile, sqliteKysely, truncateWal, withWriteLock } = await import(
    './sqlite.js'
  );
  const { sqliteThread } = await import('./sqlite-thread.js');
  let raw: ReturnType<typeof openSqliteFile>;
  try {
    raw = openSqliteFile(target.path);
  } catch (error) {
    throw openError(target, error);
  }
  const db = sqliteKysely(raw);
  try {
    const previous = sqliteMigrations.get(target.path) ?? Promise.resolve();
    const current = previous
      .catch(() => undefined)
      .then(() => withWriteLock(raw, () => migrate(db, 'sqlite', { disableTransactions: true })));
    sqliteMigrations.set(target.path, current);
    const applied = await current.finally(() => {
      if (sqliteMigrations.get(target.path) === current) sqliteMigrations.delete(target.path);
    });
    logReady(logger, target, applied);
  } catch (error) {
    await db.destroy();
    throw openError(target, error);
  }
  const resilience = new Resilience(logger, target.masked, [], options.retry);
  const thread =
    target.path === ':memory:'
      ? undefined
      : sqliteThread(raw, target.path, BUSY_TIMEOUT_MS, {
          failed: (reason) =>
            logger.warn(
              { target: target.masked, reason },
              'SQLite checkpoints and large writes back on the main thread',
            ),
          warning: (reason) => logger.warn({ target: target.masked, reason }, 'WAL checkpoint failed'),
        });
  const eraseResidue = thread ? () => thread.truncateWal() : async () => truncateWal(raw);
  return assemble('sqlite', target, db, resilience, eraseResidue, thread);
}

async function openPostgres(target: PostgresTarget, options: StoreOptions, logger: Logger): Promise<Store> {
  const { createPool, isValidSchemaName, postgresKysely } = await import('./postgres.js');
  if (options.schema !== undefined && !isValidSchemaName(options.schema)) {
    throw new StoreOpenError(
      `cannot open database ${target.masked}: invalid schema name ${JSON.stringify(options.schema)}`,
    );
  }
  const resilience = new Resilience(logger, target.masked, [target.password], options.retry);
  const pool = createPool({
    connectionString: target.connectionString,
    schema: options.schema,
    applicationName: options.applicationName ?? 'smsops',
    poolSize: options.poolSize ?? 10,
    resilience,
  });
  const db = postgresKysely(pool);
  try {
    let schema = options.schema;
    if (schema === undefined) {
      const { rows } = await sql<{ schema: string | null }>`select current_schema() as schema`.execute(db);
      schema = rows[0]?.schema ?? undefined;
      if (!schema) throw new Error('no current schema: its search_path names no existing schema');
    }
    // Naming the schema keeps Kysely's migration bookkeeping from seeing another schema's tables.
    const applied = await migrate(db, 'postgres', { schema });
    logReady(logger, target, applied);
  } catch (error) {
    await db.destroy().catch(() => undefined);
    throw openError(target, error);
  }
  // Dead row versions stay in the table's pages until VACUUM: the operator's to schedule (README, Storage).
  return assemble('postgres', target, db, resilience, async () => true);
}

function logReady(logger: Logger, target: DatabaseTarget, applied: string[]): void {
  logger.info(
    { target: target.masked, kind: target.kind, migrationsApplied: applied },
    applied.length > 0 ? 'database ready (migrated)' : 'database ready',
  );
}

function assemble(
  kind: StoreKind,
  target: DatabaseTarget,
  db: Kysely<Database>,
  resilience: Resilience,
  eraseResidue: () => Promise<boolean>,
  thread?: SqliteThread,
): Store {
  const secrets = target.kind === 'postgres' ? [target.password] : [];
  let closed = false;
  return {
    kind,
    target: target.masked,
    ...repositories({
      db,
      run: (op) => resilience.run(op),
      now: () => new Date(),
      ...(thread
        ? {
            noteWrite: (chars: number) => thread.noteWrite(chars),
            writeLarge: (query: CompiledQuery, chars: number) => thread.write(query, chars),
          }
        : {}),
    }),
    async health() {
      if (closed) return { ok: false, detail: 'store is closed' };
      try {
        await sql`select 1`.execute(db);
        resilience.noteSuccess();
        return { ok: true };
      } catch (error) {
        if (isConnectionError(error)) resilience.noteFailure(error);
        return {
          ok: false,
          detail: `database ${target.masked} unreachable: ${describeError(error, secrets)}`,
        };
      }
    },
    eraseResidue: () => (closed ? Promise.resolve(false) : eraseResidue()),
    async close() {
      if (closed) return;
      closed = true;
      await thread?.close();
      await db.destroy();
    },
  };
}
