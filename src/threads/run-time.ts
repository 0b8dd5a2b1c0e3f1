import { readFileSync } from 'node:fs';

/**
 * A thread's scheduler statistics, by its process and kernel id (Linux's /proc/<pid>/task/<tid>/schedstat): the
 * time it ran on a core and the time it was ready to run but waited for one, in ns; undefined where the file is
 * missing. A kernel without scheduler statistics writes zeros rather than no file: the caller decides what a 0 means.
 */
export function threadSchedstat(
  pid: number | 'self',
  tid: number,
): { runNs: number; waitNs: number } | undefined {
  try {
    const [runNs, waitNs] = readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'latin1')
      .trim()
      .split(/\s+/)
      .map(Number);
    return Number.isFinite(runNs) && Number.isFinite(waitNs) ? { runNs: runNs!, waitNs: waitNs! } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * How long a thread of this process has run on a core, in ms, by its kernel id; undefined where that is unknown
 * (no file, or zeros). Tells a thread that worked for a long time from one that waited for a core most of it.
 */
export function threadRunMs(tid: number): number | undefined {
  const ran = threadSchedstat('self', tid)?.runNs;
  return ran !== undefined && ran > 0 ? ran / 1e6 : undefined;
}
