import { setFlagsFromString } from 'node:v8';

/**
 * Makes a worker thread's `resourceLimits.maxYoungGenerationSizeMb` hold: call it just before `new Worker`.
 *
 * A process started with `--max-semi-space-size` (`npm start` gives the main thread 32 MiB semi-spaces) gives
 * that cap to every isolate it makes, whatever the Worker's resourceLimits ask: V8 sizes a new heap from its
 * constraints, then lets the flag override them (Heap::ConfigureHeap). Measured on 2026-11-28: a reading thread
 * asked for a 192 MB young generation got 2 × 32 MiB semi-spaces, the same as one asked for 32. So the flag is set
 * to the thread's own cap before it starts. The main thread's heap was sized when the process started and keeps
 * its own (measured: its new space stays 2 × 32 MiB after the flag changes); only isolates made later read it.
 * The flag is read when the new thread builds its heap, on its own thread, some time after `new Worker` returns:
 * two threads started at the same moment with different caps could swap them. So only the reading pool calls this,
 * always with the same cap; every thread the process starts after the first reading thread (the SQLite store's,
 * started on its first large write) gets that cap too, as it got npm start's before: a cap only lets a space grow
 * under allocation pressure, it commits no memory by itself.
 */
export function honourYoungGenerationLimit(maxYoungGenerationSizeMb: number): void {
  // V8's young generation is three of its semi-spaces (two, and the large-object space beside them).
  const semiSpaceMb = Math.max(1, Math.floor(maxYoungGenerationSizeMb / 3));
  setFlagsFromString(`--max-semi-space-size=${semiSpaceMb}`);
}
