import { readFileSync } from 'node:fs';

/**
 * How long a thread of this process has run on a core, in ms, by its kernel id (Linux's
 * /proc/self/task/<tid>/schedstat, whose first field is the time on a core in ns); undefined where that is missing.
 * Tells a thread that worked for a long time from one that waited for a core most of it.
 */
export function threadRunMs(tid: number): number | undefined {
  try {
    const ns = Number(readFileSync(`/proc/self/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
    // 0: a kernel without scheduler statistics writes "0 0 0" rather than no file.
    return Number.isFinite(ns) && ns > 0 ? ns / 1e6 : undefined;
  } catch {
    return undefined;
  }
}
