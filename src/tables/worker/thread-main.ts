import { getHeapStatistics } from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import { lowerThisThreadsPriority } from '../../threads/idle-priority.js';
import { TableFileError } from '../table-file.js';
import { readFileFor } from './reading.js';
import { releaseHeap } from './release-heap.js';
import { chunksOf, type FromReader, type ReaderStart, splitReading, type ToReader } from './wire.js';

/**
 * The reading thread: reads one uploaded file at a time and makes of it what the request asks, under the
 * memory limits the pool started it with (pool.ts). Its answer goes back in chunks, each when the main thread
 * asks for more (wire.ts). Nothing here knows Slack or the store.
 */
const port = parentPort;
if (!port) throw new Error('thread-main.ts runs as a worker thread (src/tables/worker/pool.ts)');
// Before its first read: no read should hold a core the main thread's next ack wants (idle-priority.ts).
// No workerData (a thread started by hand, as the build's test does): as any thread.
const start = workerData as ReaderStart | null;
if (start?.priority === 'idle') {
  port.postMessage({ type: 'priority', ...lowerThisThreadsPriority(start.chrtPaths) } satisfies FromReader);
}

/**
 * Once a read's answer is out, all it made is garbage: collected when no read follows within this. Not at
 * once: the main thread is still making its draft of the answer, and a collected heap must grow again (a read
 * right after one took half as long again, 2026-11-27). Not after a second, as until 2026-11-27 (later): reads
 * closer than that (a person picking another sheet, back-to-back uploads) each carried the last one's garbage,
 * and the process's peak with it: 100,000-row files, bench/files.ts, alternately, 1 s against 150 ms: .csv
 * +228-232 against +183-189 MiB, .xlsx +148-151 against +90 MiB, passes within 3-8% of each other.
 */
const RELEASE_AFTER_IDLE_MS = 150;
let release: NodeJS.Timeout | undefined;

const post = (message: FromReader, transfer: ArrayBuffer[] = []) => {
  port.postMessage(message, transfer);
  if (message.type !== 'chunk') {
    clearTimeout(release);
    release = setTimeout(released, RELEASE_AFTER_IDLE_MS);
  }
};
/** The heap given back, and said so: a bench times what it compares with a quiet thread, not beside a collection. */
function released(): void {
  port!.postMessage({ type: 'released', collected: releaseHeap() } satisfies FromReader);
}
let pending: { chunks: ReturnType<typeof chunksOf>; done: () => void } | undefined;

function sendNext(): void {
  if (!pending) return;
  const next = pending.chunks.next();
  if (next.done) {
    const { done } = pending;
    pending = undefined;
    done();
    return;
  }
  post({ type: 'chunk', ...next.value.chunk }, next.value.transfer);
}

async function read(message: Extract<ToReader, { type: 'read' }>): Promise<void> {
  let reading: Awaited<ReturnType<typeof readFileFor>>;
  const started = performance.now();
  try {
    reading = await readFileFor(message.filename, message.bytes, message.request);
  } catch (error) {
    if (error instanceof TableFileError) post({ type: 'refused', message: error.message });
    else post({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
    return;
  }
  const readMs = performance.now() - started;
  const answeredAt = performance.timeOrigin + performance.now();
  const { head, lists, transfer } = splitReading(reading);
  pending = {
    chunks: chunksOf(lists),
    // What this thread holds once the answer is out: the pool ends a thread left large (pool.ts).
    done: () =>
      post(
        {
          type: 'done',
          reading: head,
          heapBytes: getHeapStatistics().total_heap_size,
          readMs,
          answeredAt,
        },
        transfer,
      ),
  };
  sendNext();
}

port.on('message', (message: ToReader) => {
  clearTimeout(release);
  if (message.type === 'more') sendNext();
  else void read(message);
});
