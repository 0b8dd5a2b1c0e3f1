import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * Below this much allocated (live or garbage), a thread's heap is left as it is: a full collection is not worth
 * its milliseconds. Counted in use, not committed: a thread's young generation, once grown by a large read, is
 * committed whole (2 × 64 MiB) whether or not anything is in it.
 */
const WORTH_COLLECTING_BYTES = 32 * 2 ** 20;

/**
 * V8's full collection, or undefined where V8 will not give one. A reading thread's heap is garbage once its
 * answer is out (a 100,000-row file leaves 90-100 MB of it), and V8 collects only when the thread allocates
 * again: kept warm for the next read, the thread held that much of the bot's RSS for as long as it idled (15 s),
 * on top of the main thread's heap; collected, it keeps ~40 MB (~110 MB since its young generation is its own,
 * 2026-11-28: the pages that generation grew to stay until the thread ends, the large objects and the old
 * generation go). Ending the thread releases all of it, but the next read then runs in a fresh thread with none
 * of its code optimised yet: twice as slow on a 100,000-row file
 * (bench/files.ts, 2026-11-27). `--expose-gc` is a V8 flag the process starts without: set here, it gives `gc`
 * to contexts made after it (the way jest's leak detector gets one); no context made before, the bot's own
 * included, gains it.
 */
function fullCollection(): (() => void) | undefined {
  try {
    setFlagsFromString('--expose-gc');
    const gc: unknown = runInNewContext('gc');
    return typeof gc === 'function' ? (gc as () => void) : undefined;
  } catch {
    return undefined;
  }
}

let collect: (() => void) | undefined | null = null;

/** Gives this thread's garbage back to the system, when there is enough of it to matter: whether it collected. */
export function releaseHeap(): boolean {
  if (getHeapStatistics().used_heap_size < WORTH_COLLECTING_BYTES) return false;
  if (collect === null) collect = fullCollection();
  collect?.();
  return collect !== undefined;
}
