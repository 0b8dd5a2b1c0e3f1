import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, type SqliteDatabase, SqliteDialect } from 'kysely';
import type { Database as Schema } from './schema.js';

export const BUSY_TIMEOUT_MS = 5_000;

/** Opens (creating its folder and file if needed) a SQLite file set up for several processes at once. */
export function openSqliteFile(path: string): Database.Database {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path, { timeout: BUSY_TIMEOUT_MS });
  try {
    // busy_timeout first: switching to WAL needs a moment of exclusive access while others may be opening too.
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    if (path !== ':memory:') {
      const mode = switchToWal(db);
      if (String(mode).toLowerCase() !== 'wal')
        throw new Error(`could not switch to WAL (journal_mode is ${mode})`);
    }
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    // Erasure (`/sms forget`, the retention purge) must take the bytes too: without this, a deleted or rewritten
    // row stays in the page's free space and in the file's free pages, readable by anyone who has the file or a
    // copy of it. Costs a few more writes on deletes; the store deletes little.
    db.pragma('secure_delete = ON');
    // Reading the schema proves the file is a database now rather than at the first query.
    db.prepare('select count(*) from sqlite_master').get();
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/**
 * PRAGMA journal_mode = WAL, tried again while another process holds the file: SQLite answers SQLITE_BUSY at
 * once there, without its busy handler (two processes opening one new file together failed 65 times in 300).
 * A few milliseconds apart, within busy_timeout; the wait blocks this thread, but only while the file is
 * being opened and another process is switching it.
 */
function switchToWal(db: Database.Database): unknown {
  const deadline = Date.now() + BUSY_TIMEOUT_MS;
  for (let attempt = 0; ; attempt++) {
    try {
      return db.pragma('journal_mode = WAL', { simple: true });
    } catch (error) {
      const busy = (error as { code?: unknown }).code === 'SQLITE_BUSY';
      if (!busy || Date.now() >= deadline) throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Math.min(50, 2 ** attempt));
    }
  }
}

/**
 * Kysely prepares every statement anew; keeping the prepared statements of the last few hundred
 * distinct SQL texts spares that work on every repeated claim. Safe because the store never streams
 * (a statement mid-iteration cannot be reused).
 */
export function withStatementCache(db: Database.Database, size = 256): SqliteDatabase {
  const cache = new Map<string, Database.Statement>();
  return {
    close: () => db.close(),
    prepare(sql) {
      let statement = cache.get(sql);
      if (statement) {
        cache.delete(sql);
      } else {
        statement = db.prepare(sql);
        if (cache.size >= size) cache.delete(cache.keys().next().value as string);
      }
      cache.set(sql, statement);
      return statement;
    },
  };
}

export function sqliteKysely(db: Database.Database): Kysely<Schema> {
  return new Kysely<Schema>({ dialect: new SqliteDialect({ database: withStatementCache(db) }) });
}

/**
 * Runs `work` holding SQLite's write lock for its whole length (BEGIN IMMEDIATE waits up to
 * busy_timeout for it), so another process migrating the same file waits and then finds nothing to do.
 * Kysely's own migration lock is a no-op on SQLite.
 */
export async function withWriteLock<T>(db: Database.Database, work: () => Promise<T>): Promise<T> {
  db.exec('BEGIN IMMEDIATE');
  try {
    const result = await work();
    db.exec('COMMIT');
    return result;
  } catch (error) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw error;
  }
}

/**
 * After an erasure: copies the WAL into the file and truncates the WAL to nothing, so that neither the WAL's frames
 * of the rows as they were nor a later copy of the file (a `.backup`) holds what was erased. False when another
 * connection's read kept part of the WAL (SQLite waits busy_timeout for it first): the frames are then
 * overwritten by the next checkpoint instead.
 */
export function truncateWal(db: Database.Database): boolean {
  const [result] = db.pragma('wal_checkpoint(TRUNCATE)') as Array<{ busy: number }>;
  return result === undefined || result.busy === 0;
}
