import { Worker } from 'node:worker_threads';
import { PackedNumbers } from '../../sms/packed-numbers.js';
import { PackedStrings } from '../../sms/packed-strings.js';
import { CHRT_PATHS, type ThreadPriority } from '../../threads/idle-priority.js';
import { threadRunMs } from '../../threads/run-time.js';
import { honourYoungGenerationLimit } from '../../threads/young-generation.js';
import { TableFileError } from '../table-file.js';
import type { FileReading, ReadRequest } from './reading.js';
import { readerScript } from './script.js';
import {
  type FromReader,
  joinReading,
  KEPT_PACKED,
  type ListName,
  type ReaderStart,
  type ToReader,
} from './wire.js';

/**
 * Uploaded files are read in worker threads, never on the thread that acks Slack: a file made to be slow (a row
 * of 800,000 cells) or large (a zip whose directory lies about its sizes) costs a thread that can be ended, not
 * the bot. Each thread runs under V8 heap limits and each read under a time limit; a thread that runs out of
 * either is ended and the person is told why. A thread is kept for the next read unless the read left its heap
 * large (it is ended, and its memory goes back to the system with it) or it stays idle.
 */
export interface TableReaderLimits {
  /** Reads at once; more wait their turn (each may hold up to its heap limit). */
  concurrency: number;
  /** Reads waiting beyond those: more are refused with "try again" rather than held (10 MB each). */
  maxQueued: number;
  /** A read that takes longer is ended (the thread with it). */
  timeoutMs: number;
  /** V8's old generation of a reading thread: where a file's strings and rows live. */
  maxOldGenerationSizeMb: number;
  maxYoungGenerationSizeMb: number;
  /** A thread whose heap is larger than this after a read is ended rather than kept. */
  recycleAboveMb: number;
  /** A thread idle this long is ended. */
  idleMs: number;
  /**
   * `idle`: each reading thread runs only on the cores the bot's other threads leave free (Linux's SCHED_IDLE,
   * else nice 19: threads/idle-priority.ts), so that a read does not hold a core an ack wants. `normal`: as any
   * thread. A read that ran out of time having had a core for less than half of it is told apart (tooBusy).
   */
  priority: 'idle' | 'normal';
  /** Where `chrt` is looked for (threads/idle-priority.ts, CHRT_PATHS). */
  chrtPaths: readonly string[];
}

export const DEFAULT_READER_LIMITS: TableReaderLimits = {
  concurrency: 2,
  maxQueued: 16,
  timeoutMs: 30_000,
  maxOldGenerationSizeMb: 512,
  // Semi-spaces of 64 MiB: a 100,000-row read (~50 MB, a third of it in the large-object space) fits in one, so
  // nothing it keeps is copied by the scavenger or promoted, and its garbage is gone by the next read. At 32 (the
  // cap `npm start`'s flag gave every thread until 2026-11-28, whatever this said) each personalised read paid a
  // scavenge of 20-35 ms copying its rows and a mark-compact of 15-25 ms while its answer crossed: the answer's
  // way 100-110 -> ~50 ms, the .csv pass ~405 -> ~350 ms (bench/files.ts). Only pages a read touches count in RSS,
  // but they stay until the thread ends (~80 MiB after a 100,000-row read).
  maxYoungGenerationSizeMb: 192,
  // A 100,000-row read leaves ~165 MB of heap (total_heap_size: 128 MiB of it the young generation committed,
  // most of the rest garbage): kept (and warm) for the next read; a file of hundreds of megabytes of strings
  // leaves more, and its thread goes with them.
  recycleAboveMb: 256,
  // An idle thread keeps the pages its young generation grew to (a collection does not give them back): ended,
  // its memory is back within this.
  idleMs: 15_000,
  priority: 'idle',
  chrtPaths: CHRT_PATHS,
};

/** Reads uploaded files for what a request asks, off the main thread. */
export interface TableReader {
  read(filename: string, bytes: Uint8Array, request: ReadRequest): Promise<FileReading>;
}

/** What a bench or a test may watch of the pool: thread starts and ends, and why. */
export interface ReaderEvents {
  /** A read handed to a thread (a fresh one or one kept from an earlier read). */
  reading?(filename: string): void;
  started?(ms: number): void;
  /**
   * A read answered: its time in the thread, and the time from its end there to the whole answer here (the
   * chunks, each asked for, copied into this thread's heap).
   */
  answered?(timing: { readMs: number; transferMs: number }): void;
  ended?(reason: 'recycled' | 'idle' | 'timeout' | 'memory' | 'crashed' | 'closed'): void;
  /**
   * A thread idle since its answer gave its heap back (`collected`), or found too little garbage to: from then
   * on it takes no CPU until its next read (bench/files.ts times its floor after this).
   */
  released?(collected: boolean): void;
  /** A thread asked to lower its priority did: what it got (`unchanged` where the system gives no way to). */
  priority?(priority: ThreadPriority): void;
}

interface Job {
  filename: string;
  bytes: Uint8Array;
  request: ReadRequest;
  resolve(reading: FileReading): void;
  reject(error: Error): void;
}

const mb = (n: number) => n.toLocaleString('en-US');

/** Strings made from a packed chunk in one turn of the event loop: ~2 ms of the main thread's time. */
const UNPACK_SLICE = 10_000;

function outOfMemory(filename: string, limits: TableReaderLimits): TableFileError {
  return new TableFileError(
    `“${filename}” needs more memory than a list of recipients can: reading it took more than ${mb(limits.maxOldGenerationSizeMb)} MB, so it was stopped. A list of 100,000 people takes a tenth of that: save only the sheet with the people (as .xlsx or CSV) and upload it again.`,
  );
}

function tooSlow(filename: string, limits: TableReaderLimits): TableFileError {
  return new TableFileError(
    `“${filename}” took longer than ${mb(limits.timeoutMs / 1000)} s to read, so it was stopped. A list of 100,000 people takes a second or two: save only the sheet with the people (as .xlsx or CSV) and upload it again.`,
  );
}

/**
 * The read's time ran out while the thread mostly waited for a core (the bot's other threads, at a higher
 * priority, kept them busy): the file is not the cause, so the person is not told to cut it down.
 */
function tooBusy(filename: string, limits: TableReaderLimits, ranMs: number): TableFileError {
  const seconds =
    ranMs < 50 ? 'under 0.1' : (ranMs / 1000).toLocaleString('en-US', { maximumFractionDigits: 1 });
  return new TableFileError(
    `“${filename}” could not be read in ${mb(limits.timeoutMs / 1000)} s: the app was busy with other work and gave the file ${seconds} s of them. Upload it again in a few minutes; if it fails again while the app is quiet, save only the sheet with the people (as .xlsx or CSV).`,
  );
}

/**
 * Why a read ran out of time, as the person is told it: the file (it had a core for at least half the limit, or
 * its time on a core is unknown) or the app (less than half).
 */
export function outOfTime(
  filename: string,
  limits: TableReaderLimits,
  ranMs: number | undefined,
): TableFileError {
  return ranMs !== undefined && ranMs < limits.timeoutMs / 2
    ? tooBusy(filename, limits, ranMs)
    : tooSlow(filename, limits);
}

/** One reading thread and the read it runs. */
class ReaderThread {
  readonly worker: Worker;
  readonly exited: Promise<void>;
  job: Job | undefined;
  private received: Partial<Record<ListName, unknown[]>> = {};
  private timer: NodeJS.Timeout | undefined;
  private idleTimer: NodeJS.Timeout | undefined;
  /** The thread's kernel id, once it has said it (with its priority). */
  private tid: number | undefined;
  private ending: Parameters<NonNullable<ReaderEvents['ended']>>[0] | undefined;

  /** Being ended: it takes no more reads. */
  get isEnding(): boolean {
    return this.ending !== undefined;
  }

  constructor(
    private readonly limits: TableReaderLimits,
    private readonly events: ReaderEvents,
    private readonly onFree: (thread: ReaderThread) => void,
    onExit: (thread: ReaderThread) => void,
    compiled: URL | undefined,
  ) {
    const started = performance.now();
    const script = compiled ? { url: compiled, options: {} } : readerScript();
    // Else `npm start`'s --max-semi-space-size, not resourceLimits, sizes the thread's young generation.
    honourYoungGenerationLimit(limits.maxYoungGenerationSizeMb);
    this.worker = new Worker(script.url, {
      ...script.options,
      workerData: { priority: limits.priority, chrtPaths: limits.chrtPaths } satisfies ReaderStart,
      resourceLimits: {
        maxOldGenerationSizeMb: limits.maxOldGenerationSizeMb,
        maxYoungGenerationSizeMb: limits.maxYoungGenerationSizeMb,
      },
      // Its output is the answer, never the console: a stray line must not reach the bot's log as raw text.
      stdout: true,
      stderr: true,
    });
    this.worker.stdout.resume();
    this.worker.stderr.resume();
    this.worker.once('online', () => events.started?.(performance.now() - started));
    this.worker.on('message', (message: FromReader) => this.onMessage(message));
    this.worker.on('error', (error: Error & { code?: string }) => {
      this.ending ??= error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'memory' : 'crashed';
      this.fail(
        this.ending === 'memory'
          ? (job) => outOfMemory(job.filename, limits)
          : (job) =>
              new TableFileError(
                `“${job.filename}” could not be read: the reader stopped (${error.message}). Upload it again; if it fails again, save it again from Excel as .xlsx or CSV.`,
              ),
      );
    });
    this.exited = new Promise((resolve) => {
      this.worker.once('exit', () => {
        clearTimeout(this.timer);
        clearTimeout(this.idleTimer);
        this.fail(
          (job) =>
            new TableFileError(`“${job.filename}” could not be read: the reader stopped. Upload it again.`),
        );
        events.ended?.(this.ending ?? 'crashed');
        onExit(this);
        resolve();
      });
    });
  }

  run(job: Job): void {
    clearTimeout(this.idleTimer);
    this.events.reading?.(job.filename);
    this.job = job;
    this.received = {};
    this.worker.ref();
    // The thread's own time on a core, where the kernel tells it: before its id is known (its first read), from 0.
    const ranBefore = this.tid === undefined ? 0 : threadRunMs(this.tid);
    this.timer = setTimeout(() => {
      const ranNow = this.tid === undefined ? undefined : threadRunMs(this.tid);
      const ranMs = ranNow === undefined || ranBefore === undefined ? undefined : ranNow - ranBefore;
      this.end('timeout');
      this.fail((j) => outOfTime(j.filename, this.limits, ranMs));
    }, this.limits.timeoutMs);
    // Moved, not copied: only a view of its whole buffer can be (a small Buffer shares Node's pool).
    const whole = job.bytes.byteOffset === 0 && job.bytes.byteLength === job.bytes.buffer.byteLength;
    const bytes = whole ? job.bytes : job.bytes.slice();
    const message: ToReader = { type: 'read', filename: job.filename, bytes, request: job.request };
    this.worker.postMessage(message, [bytes.buffer as ArrayBuffer]);
  }

  end(reason: NonNullable<typeof this.ending>): Promise<void> {
    this.ending ??= reason;
    void this.worker.terminate();
    return this.exited;
  }

  fail(error: (job: Job) => Error): void {
    const job = this.job;
    if (!job) return;
    this.job = undefined;
    clearTimeout(this.timer);
    job.reject(error(job));
  }

  private onMessage(message: FromReader): void {
    if (message.type === 'released') {
      this.events.released?.(message.collected);
      return;
    }
    if (message.type === 'priority') {
      const { type: _, ...priority } = message;
      this.tid = priority.tid;
      this.events.priority?.(priority);
      return;
    }
    const job = this.job;
    if (!job) return;
    switch (message.type) {
      case 'chunk': {
        const list = this.received[message.list] ?? [];
        this.received[message.list] = list;
        if (message.packed && !KEPT_PACKED.has(message.list)) {
          // Asks for the next chunk once this one is made into strings.
          void this.unpackInSlices(job, PackedStrings.from(message.packed), list);
          return;
        }
        // Kept packed: the message values made into strings only when the send joins the messages (joinReading),
        // the numbers only if a reader of the list asks for them (file-recipients.ts).
        if (message.packed) list.push(PackedStrings.from(message.packed));
        else if (message.numbers) {
          list.push(PackedNumbers.fromJoined(message.numbers.joined, message.numbers.count));
        } else for (let i = 0; i < message.items.length; i++) list.push(message.items[i]);
        this.worker.postMessage({ type: 'more' } satisfies ToReader);
        return;
      }
      case 'refused':
      case 'failed': {
        this.job = undefined;
        clearTimeout(this.timer);
        job.reject(
          message.type === 'refused' ? new TableFileError(message.message) : new Error(message.message),
        );
        this.free(0);
        return;
      }
      case 'done': {
        this.job = undefined;
        clearTimeout(this.timer);
        const reading = joinReading(message.reading, this.received);
        this.received = {};
        this.events.answered?.({
          readMs: message.readMs,
          transferMs: performance.timeOrigin + performance.now() - message.answeredAt,
        });
        job.resolve(reading);
        this.free(message.heapBytes);
        return;
      }
    }
  }

  /**
   * A packed chunk made into strings UNPACK_SLICE at a time, a turn of the event loop between slices, then the
   * next chunk asked for. At once, a chunk of 50,000 numbers held the main thread 7-10 ms, and acks waited
   * behind it (bench/uploads.ts, 2026-11-27).
   */
  private async unpackInSlices(job: Job, packed: PackedStrings, list: unknown[]): Promise<void> {
    const count = packed.length;
    for (let from = 0; from < count; from += UNPACK_SLICE) {
      if (from > 0) {
        await new Promise((resolve) => setImmediate(resolve));
        // Timed out or ended meanwhile: the job has had its answer.
        if (this.job !== job) return;
      }
      packed.unpackInto(list, from, Math.min(count, from + UNPACK_SLICE));
    }
    this.worker.postMessage({ type: 'more' } satisfies ToReader);
  }

  /** After a read: kept for the next one, or ended when the read left its heap large. */
  private free(heapBytes: number): void {
    if (heapBytes > this.limits.recycleAboveMb * 2 ** 20) {
      void this.end('recycled');
      return;
    }
    this.worker.unref();
    this.idleTimer = setTimeout(() => void this.end('idle'), this.limits.idleMs);
    this.idleTimer.unref();
    this.onFree(this);
  }
}

/** At most `concurrency` reading threads, reads queued for them in order. */
export class TableReaderPool implements TableReader {
  readonly limits: TableReaderLimits;
  private readonly threads = new Set<ReaderThread>();
  private readonly idle: ReaderThread[] = [];
  private readonly queue: Job[] = [];
  private closed = false;

  /** `compiled`: the built thread (dist/table-reader.cjs) for a bench run from the sources; else readerScript(). */
  constructor(
    limits: Partial<TableReaderLimits> = {},
    private readonly events: ReaderEvents = {},
    private readonly compiled?: URL,
  ) {
    this.limits = { ...DEFAULT_READER_LIMITS, ...limits };
  }

  read(filename: string, bytes: Uint8Array, request: ReadRequest): Promise<FileReading> {
    if (this.closed) return Promise.reject(stopping(filename));
    if (movedAway(bytes)) return Promise.reject(bytesMoved(filename));
    if (this.queue.length >= this.limits.maxQueued) {
      return Promise.reject(
        new TableFileError(
          `“${filename}” was not read: ${mb(this.queue.length + this.limits.concurrency)} files are being read already. Upload it again in a minute.`,
        ),
      );
    }
    return new Promise((resolve, reject) => {
      this.queue.push({ filename, bytes, request, resolve, reject });
      this.pump();
    });
  }

  /** Threads running now (busy or idle): for tests and benches. */
  get size(): number {
    return this.threads.size;
  }

  /** Ends every thread, and with them the reads in flight; reads still queued are refused. */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(stopping(job.filename));
    await Promise.all(
      [...this.threads].map((t) => {
        t.fail((job) => stopping(job.filename));
        return t.end('closed');
      }),
    );
  }

  private pump(): void {
    while (this.queue.length > 0 && !this.closed) {
      // Bytes an earlier read (queued before with the same array) took to its thread: a thread sent them would
      // get nothing and never answer.
      if (movedAway(this.queue[0]!.bytes)) {
        const job = this.queue.shift()!;
        job.reject(bytesMoved(job.filename));
        continue;
      }
      let thread: ReaderThread | undefined;
      while (!thread && this.idle.length > 0) {
        const next = this.idle.pop()!;
        if (!next.isEnding) thread = next;
      }
      // Ended threads count until they are gone: their memory is still the process's.
      if (!thread && this.threads.size < this.limits.concurrency) {
        thread = new ReaderThread(
          this.limits,
          this.events,
          (t) => {
            this.idle.push(t);
            this.pump();
          },
          (t) => {
            this.threads.delete(t);
            const at = this.idle.indexOf(t);
            if (at >= 0) this.idle.splice(at, 1);
            this.pump();
          },
          this.compiled,
        );
        this.threads.add(thread);
      }
      if (!thread) return;
      thread.run(this.queue.shift()!);
    }
  }
}

/** Whether the bytes' buffer was moved to another thread (detached): what is left of it is unreadable. */
function movedAway(bytes: Uint8Array): boolean {
  if (bytes.buffer.byteLength > 0) return false;
  try {
    new Uint8Array(bytes.buffer);
    return false;
  } catch {
    return true;
  }
}

/** A caller's mistake, not the file's: a read moves its bytes to the reading thread, so each read needs its own. */
function bytesMoved(filename: string): Error {
  return new Error(
    `“${filename}” was not read: its bytes were given to an earlier read, which moved them to its reading thread. Pass each read its own copy (bytes.slice()).`,
  );
}

function stopping(filename: string): TableFileError {
  return new TableFileError(
    `“${filename}” was not read: the app is restarting. Upload it again in a minute.`,
  );
}
