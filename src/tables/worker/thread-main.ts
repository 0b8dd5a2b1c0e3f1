import { getHeapStatistics } from 'node:v8';
import { parentPort } from 'node:worker_threads';
import { TableFileError } from '../table-file.js';
import { readFileFor } from './reading.js';
import { releaseHeap } from './release-heap.js';
import { type FromReader, splitReading, type ToReader } from './wire.js';

/**
 * The reading thread: reads one uploaded file at a time and makes of it what the request asks, under the
 * memory limits the pool started it with (pool.ts). Its answer goes back in one message, its long lists packed
 * (wire.ts). Nothing here knows Slack or the store.
 */
const port = parentPort;
if (!port) throw new Error('thread-main.ts runs as a worker thread (src/tables/worker/pool.ts)');

/**
 * Once a read's answer is out, all it made is garbage: collected when no read follows within this. Not at
 * once: a collected heap must grow again, and a read right after one (a person trying a corrected file) took
 * half as long again (bench/files.ts, 2026-11-27).
 */
const RELEASE_AFTER_IDLE_MS = 1_000;
let release: NodeJS.Timeout | undefined;

const post = (message: FromReader, transfer: ArrayBuffer[] = []) => {
  port.postMessage(message, transfer);
  clearTimeout(release);
  release = setTimeout(releaseHeap, RELEASE_AFTER_IDLE_MS);
};

async function read(message: ToReader): Promise<void> {
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
  post(
    {
      type: 'done',
      reading: head,
      lists,
      // What this thread holds once the answer is out: the pool ends a thread left large (pool.ts).
      heapBytes: getHeapStatistics().total_heap_size,
      readMs,
      answeredAt,
    },
    transfer,
  );
}

port.on('message', (message: ToReader) => {
  clearTimeout(release);
  void read(message);
});
