import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';
import { truncateWal } from './sqlite.js';

/**
 * A thread of the SQLite store's own, with its own connection to the file, for the work that would hold the
 * event loop for milliseconds at a time: WAL checkpoints, and the write of a large row (a 100,000-row draft).
 *
 * - Checkpoints. By default the connection that commits a write copies the WAL into the file whenever it has
 *   grown past 1,000 pages, inside that commit: on the main thread, every few 100,000-row drafts, a block of
 *   15-20 ms while acks waited (bench/uploads.ts, 2026-11-27). With the thread, the main connection stops
 *   checkpointing and the thread checkpoints every EVERY_MS instead (PASSIVE: it never waits for, nor blocks,
 *   a reader or a writer).
 * - Large writes. A 1.5 MB draft took SQLite 6-10 ms on the main thread. The thread runs the same statement
 *   on its connection; the main thread only waits for its answer. Both connections write to one WAL file:
 *   a main-thread write made meanwhile waits for the thread's (busy_timeout), as a second process's would.
 *
 * Started on the first large write, not with the store: a thread is ~10 MB of memory that a bot which never
 * writes a large row does without. Should it fail, the main connection does both again, as before.
 */

/** A value of this many characters or more starts the thread: a list of some 15,000 numbers. */
export const LARGE_WRITE_CHARS = 256 * 1024;

/** How often the thread checkpoints: the WAL holds at most this long's writes beyond the file. */
const EVERY_MS = 250;

// A script given as text: this module is bundled into dist/main.cjs, and a thread this small needs no bundle of
// its own. better-sqlite3 is loaded by the path the main thread resolved; the pragmas are the store's own
// (sqlite.ts), secure_delete included: a draft written here may replace another.
const THREAD_CODE = `
const { workerData, parentPort } = require('node:worker_threads');
const Database = require(workerData.module);
const db = new Database(workerData.path, { fileMustExist: true, timeout: workerData.busyTimeoutMs });
db.pragma('busy_timeout = ' + workerData.busyTimeoutMs);
db.pragma('synchronous = NORMAL');
db.pragma('foreign_keys = ON');
db.pragma('secure_delete = ON');
const timer = setInterval(() => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch (error) {
    parentPort.postMessage({ type: 'warning', message: String((error && error.message) || error) });
  }
}, workerData.everyMs);
parentPort.on('message', (message) => {
  if (message.type === 'close') {
    clearInterval(timer);
    db.close();
    parentPort.close();
    return;
  }
  if (message.type === 'truncate') {
    try {
      const [result] = db.pragma('wal_checkpoint(TRUNCATE)');
      parentPort.postMessage({ type: 'ran', id: message.id, busy: Boolean(result && result.busy) });
    } catch (error) {
      parentPort.postMessage({ type: 'ran', id: message.id, busy: true });
    }
    return;
  }
  try {
    db.prepare(message.sql).run(...message.parameters);
    parentPort.postMessage({ type: 'ran', id: message.id });
  } catch (error) {
    parentPort.postMessage({
      type: 'ran',
      id: message.id,
      error: { message: String((error && error.message) || error), code: error && error.code },
    });
  }
});
parentPort.postMessage({ type: 'ready' });
`;

export interface SqliteThreadEvents {
  /** The thread could not start or stopped: the main connection checkpoints and writes as before. */
  failed?(reason: string): void;
  /** A checkpoint failed in the thread; the next one tries again. */
  warning?(reason: string): void;
}

/** A statement as Kysely compiles it: SQL with `?` placeholders and their values. */
export interface CompiledWrite {
  sql: string;
  parameters: readonly unknown[];
}

export interface SqliteThread {
  /** A write of `chars` characters is about to be made: the thread starts with the first large one. */
  noteWrite(chars: number): void;
  /**
   * Runs a large write in the thread (starting it if need be); on the main connection when the thread failed.
   * Rejects with SQLite's error (its `code` kept) when the statement fails.
   */
  write(query: CompiledWrite, chars: number): Promise<void>;
  /**
   * After an erasure: the WAL copied into the file and emptied (sqlite.ts truncateWal), by the thread's connection
   * while the thread runs (its own checkpoints would make the main connection's attempt give up at once), else
   * by the main one. False when a reader kept part of the WAL.
   */
  truncateWal(): Promise<boolean>;
  /** Ends the thread (its connection closed first); the main connection is closed after this. */
  close(): Promise<void>;
}

type ThreadMessage =
  | { type: 'ready' }
  | { type: 'warning'; message: string }
  | { type: 'ran'; id: number; error?: { message: string; code?: string }; busy?: boolean };

interface Pending {
  /** A write, or the WAL truncated (`query` absent: resolved with whether it was). */
  query?: CompiledWrite;
  resolve(truncated?: boolean): void;
  reject(error: Error): void;
}

export function sqliteThread(
  db: Database.Database,
  path: string,
  busyTimeoutMs: number,
  events: SqliteThreadEvents = {},
): SqliteThread {
  let worker: Worker | undefined;
  let exited: Promise<void> = Promise.resolve();
  let closed = false;
  // A thread that failed once is not started again.
  let gaveUp = false;
  let nextId = 0;
  const pending = new Map<number, Pending>();

  const onMain = (job: Pending) => {
    try {
      if (!job.query) {
        job.resolve(truncateWal(db));
        return;
      }
      db.prepare(job.query.sql).run(...job.query.parameters);
      job.resolve();
    } catch (error) {
      job.reject(error as Error);
    }
  };
  const giveBack = (reason: string) => {
    if (gaveUp) return;
    gaveUp = true;
    worker = undefined;
    // The main connection checkpoints on its own again, at SQLite's default size, and makes the writes the
    // thread was given (a draft's write replaces the row under its key: made twice, it is the same row).
    db.pragma('wal_autocheckpoint = 1000');
    const jobs = [...pending.values()];
    pending.clear();
    for (const job of jobs) onMain(job);
    if (!closed) events.failed?.(reason);
  };
  const start = (): Worker => {
    const thread = new Worker(THREAD_CODE, {
      eval: true,
      workerData: {
        module: createRequire(import.meta.url).resolve('better-sqlite3'),
        path,
        busyTimeoutMs,
        everyMs: EVERY_MS,
      },
      resourceLimits: { maxOldGenerationSizeMb: 512, maxYoungGenerationSizeMb: 8 },
      stdout: true,
      stderr: true,
    });
    thread.stdout.resume();
    thread.stderr.resume();
    // Idle, the thread keeps no process alive; a write waiting for its answer does (ref'd while one is out).
    thread.unref();
    thread.on('message', (message: ThreadMessage) => {
      if (message.type === 'ready') {
        if (!gaveUp) db.pragma('wal_autocheckpoint = 0');
      } else if (message.type === 'warning') {
        events.warning?.(message.message);
      } else {
        const job = pending.get(message.id);
        if (!job) return;
        pending.delete(message.id);
        if (pending.size === 0) thread.unref();
        if (!message.error) job.resolve(message.busy === undefined ? undefined : !message.busy);
        else job.reject(Object.assign(new Error(message.error.message), { code: message.error.code }));
      }
    });
    thread.on('error', (error) => giveBack(error.message));
    exited = new Promise((resolve) =>
      thread.once('exit', () => {
        if (worker === thread) giveBack('the store thread stopped');
        resolve();
      }),
    );
    worker = thread;
    return thread;
  };
  /** A job for the thread, answered by its id; on the main connection at once when there is no thread. */
  const submit = (thread: Worker | undefined, job: Pending) => {
    if (!thread) {
      onMain(job);
      return;
    }
    const id = nextId++;
    pending.set(id, job);
    thread.ref();
    thread.postMessage(
      job.query
        ? { type: 'run', id, sql: job.query.sql, parameters: job.query.parameters }
        : { type: 'truncate', id },
    );
  };
  const threadFor = (chars: number): Worker | undefined => {
    if (worker || closed || gaveUp || chars < LARGE_WRITE_CHARS) return worker;
    return start();
  };
  return {
    noteWrite(chars) {
      threadFor(chars);
    },
    write(query, chars) {
      return new Promise<void>((resolve, reject) => {
        submit(threadFor(chars), { query, resolve: () => resolve(), reject });
      });
    },
    truncateWal() {
      return new Promise<boolean>((resolve, reject) => {
        submit(worker, { resolve: (truncated) => resolve(truncated === true), reject });
      });
    },
    async close() {
      if (closed) return;
      closed = true;
      const thread = worker;
      if (!thread) return;
      // Writes already given to the thread are answered before it closes its connection (messages in order).
      thread.postMessage({ type: 'close' });
      const timer = setTimeout(() => void thread.terminate(), busyTimeoutMs);
      await exited;
      clearTimeout(timer);
    },
  };
}
