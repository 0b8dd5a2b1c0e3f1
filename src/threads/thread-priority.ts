import { getPriority, setPriority } from 'node:os';

/**
 * Gives the calling thread, and it alone, a lower CPU priority (a higher nice value): call it first thing in a
 * worker thread that does heavy work beside the thread that acks Slack. Whether it could.
 *
 * On Linux a nice value is a thread's own (setpriority(2), "NOTES": with NPTL, PRIO_PROCESS and who 0 is the
 * calling thread), so the main thread and the others keep theirs. Elsewhere the same call reaches the whole
 * process (macOS; on Windows a priority class): there it is not made, a slower bot being worse than a slower
 * read. Lowering needs no privilege; raising it again would, so a thread lowered stays lowered until it ends.
 */
export function lowerThisThreadPriority(niceness: number): boolean {
  if (process.platform !== 'linux' || niceness <= 0) return false;
  try {
    setPriority(0, Math.max(getPriority(0), Math.min(19, Math.round(niceness))));
    return true;
  } catch {
    // A sandbox may refuse setpriority: the thread runs at the bot's priority, as before.
    return false;
  }
}
