import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';

/**
 * SQLite's WAL checkpoints, moved off the event loop once the store writes large rows.
 *
 * By default the connection that commits a write checkpoints the WAL into the file whenever it has grown past
 * 1,000 pages, inside that commit: on the main thread, every few 100,000-row drafts, a block of 15-20 ms
 * (bench/uploads.ts, 2026-11-27: most of the drafts write's slowest calls, while acks wait behind it). From the
 * first large write on, that connection stops checkpointing and a thread of its own, with its own connection to
 * the same file, checkpoints instead (PASSIVE: it never waits for, nor blocks, a reader or a writer).
 *
 * Started on the first large write, not with the store: a thread is ~10 MB of memory that a bot which never
 * writes a large row does without.
 */

/** A payload of this many characters or more starts the thread: a list of some 15,000 numbers. */
export const LARGE_WRITE_CHARS = 256 * 1024;

/** How often the thread checkpoints: a WAL holds at most this long's writes beyond the file. */
const EVERY_MS = 250;

// A script given as text: this module is bundled into dist/main.cjs, and a thread of this size needs no bundle
// of its own. better-sqlite3 is loaded by the path the main thread resolved.
const THREAD_CODE = `
const { workerData, parentPort } = require('node:worker_threads');
const Database = require(workerData.module);
const db = new Database(workerData.path, { fileMustExist: true, timeout: workerData.busyTimeoutMs });
db.pragma('synchronous = NORMAL');
const timer = setInterval(() => {
  try {
    const [result] = db.pragma('wal_checkpoint(PASSIVE)');
    parentPort.postMessage({ type: 'checkpointed', frames: result ? result.checkpointed : 0 });
  } catch (error) {
    parentPort.postMessage({ type: 'failed', message: String(error && error.message || error) });
  }
}, workerData.everyMs);
parentPort.on('message', (message) => {
  if (message !== 'close') return;
  clearInterval(timer);
  db.close();
  parentPort.close();
});
parentPort.postMessage({ type: 'ready' });
`;

export interface CheckpointEvents {
  /** The thread could not start or stopped: the connection checkpoints as before. */
  failed?(reason: string): void;
  /** Each checkpoint the thread made, with the WAL frames it copied into the file (0 when none were new). */
  checkpointed?(frames: number): void;
}

export interface Checkpointer {
  /** A write of `chars` characters is about to be made: the thread starts with the first large one. */
  noteWrite(chars: number): void;
  /** Ends the thread (its connection closed first); the main connection is closed after this. */
  close(): Promise<void>;
}

export function walCheckpointer(
  db: Database.Database,
  path: string,
  busyTimeoutMs: number,
  events: CheckpointEvents = {},
): Checkpointer {
  let worker: Worker | undefined;
  let exited: Promise<void> = Promise.resolve();
  let closed = false;
  // A thread that failed once is not started again: the connection checkpoints as it did before.
  let gaveUp = false;
  const giveBack = (reason: string) => {
    if (closed || gaveUp) return;
    gaveUp = true;
    // The connection checkpoints on its own again, at SQLite's default size.
    db.pragma('wal_autocheckpoint = 1000');
    worker = undefined;
    events.failed?.(reason);
  };
  const start = () => {
    const thread = new Worker(THREAD_CODE, {
      eval: true,
      workerData: {
        module: createRequire(import.meta.url).resolve('better-sqlite3'),
        path,
        busyTimeoutMs,
        everyMs: EVERY_MS,
      },
      resourceLimits: { maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 2 },
      stdout: true,
      stderr: true,
    });
    thread.stdout.resume();
    thread.stderr.resume();
    // A bot with nothing else to do exits as before: the thread keeps no process alive.
    thread.unref();
    thread.on('message', (message: { type: string; frames?: number; message?: string }) => {
      if (message.type === 'ready') db.pragma('wal_autocheckpoint = 0');
      else if (message.type === 'checkpointed') events.checkpointed?.(message.frames ?? 0);
      else if (message.type === 'failed') events.failed?.(message.message ?? 'checkpoint failed');
    });
    thread.on('error', (error) => giveBack(error.message));
    exited = new Promise((resolve) =>
      thread.once('exit', () => {
        if (worker === thread) giveBack('the checkpoint thread stopped');
        resolve();
      }),
    );
    worker = thread;
  };
  return {
    noteWrite(chars) {
      if (worker || closed || gaveUp || chars < LARGE_WRITE_CHARS) return;
      start();
    },
    async close() {
      if (closed) return;
      closed = true;
      const thread = worker;
      worker = undefined;
      if (!thread) return;
      thread.postMessage('close');
      const timer = setTimeout(() => void thread.terminate(), busyTimeoutMs);
      await exited;
      clearTimeout(timer);
    },
  };
}
