import { getHeapStatistics } from 'node:v8';
import { parentPort } from 'node:worker_threads';
import { TableFileError } from '../table-file.js';
import { readFileFor } from './reading.js';
import { releaseHeap } from './release-heap.js';
import { chunksOf, type FromReader, splitReading, type ToReader } from './wire.js';

/**
 * The reading thread: reads one uploaded file at a time and makes of it what the request asks, under the
 * memory limits the pool started it with (pool.ts). Its answer goes back in chunks, each when the main thread
 * asks for more (wire.ts). Nothing here knows Slack or the store.
 */
const port = parentPort;
if (!port) throw new Error('thread-main.ts runs as a worker thread (src/tables/worker/pool.ts)');

/**
 * Once a read's answer is out, all it made is garbage: collected at once, unless a message comes first. Not
 * after a second, as until 2026-11-27 (later): reads closer than that (a person picking another sheet,
 * back-to-back uploads) each carried the last one's garbage, and the process's peak with it (.csv +228-232
 * against +183-189 MiB at 150 ms). Not after 150 ms, as until 2026-11-28: the main thread's draft and drafts-store
 * write peak within that, beside this thread's uncollected heap. Collected at once, the personalised .csv's peak
 * fell from +182-202 to +163-184 MiB (bench/files.ts, seven runs each, alternately), its passes within noise
 * (443-476 against 417-473 ms), and 16 reads of it back to back in one pool took the same (median 365-372
 * against 372-379 ms): the heap a read grows again is no slower to grow than one left full of garbage. (At
 * 150 ms the collection also fell on bench/files.ts's .xlsx floor, timed ~150 ms after the answer: the floor
 * took 57-61 ms where it takes 51-53 on a quiet thread, and its ratio looked a tenth better than it was.)
 */
const RELEASE_AFTER_IDLE_MS = 0;
let release: NodeJS.Timeout | undefined;

const post = (message: FromReader, transfer: ArrayBuffer[] = []) => {
  port.postMessage(message, transfer);
  if (message.type !== 'chunk') {
    clearTimeout(release);
    release = setTimeout(releaseHeap, RELEASE_AFTER_IDLE_MS);
  }
};
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
