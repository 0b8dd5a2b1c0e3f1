import { spawnSync } from 'node:child_process';
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';

/** What the calling thread got: Linux's SCHED_IDLE, the lowest nice value, or nothing; and why not the first. */
export interface ThreadPriority {
  got: 'idle' | 'nice' | 'unchanged';
  /** The kernel's id of the thread (Linux), to read its own counters by (/proc/self/task/<tid>/schedstat). */
  tid?: number;
  /** Why it is not `idle`: what failed, in a few words (no path, no output of the command). */
  reason?: string;
}

/** Where util-linux installs `chrt`: never looked up on PATH (npm puts node_modules/.bin first). */
export const CHRT_PATHS: readonly string[] = ['/usr/bin/chrt', '/bin/chrt'];

/**
 * Lets the calling thread run only when the process's other threads leave a core free. Call it from the thread
 * itself, never from the main thread: it acts on the caller's own kernel thread id.
 *
 * SCHED_IDLE rather than nice 19: on Linux 6.6 and later (EEVDF), as we read the scheduler, a running thread keeps
 * its core until its slice ends, whatever its nice value, while a SCHED_IDLE one is preempted as soon as a normal
 * thread wakes (on the bench, nice 19 did not move the acks and SCHED_IDLE did). A thread may
 * lower itself to SCHED_IDLE without privileges (sched(7)); Node has no call for it, so util-linux's `chrt` does it,
 * by the thread's id: 2-3 ms on the calling thread, once, before its first read (so the read runs lowered, and the
 * thread's id is known to its pool before the read can run out of time).
 * Without a `chrt` that can (none, or Alpine's BusyBox one with no --idle): nice 19, for this thread alone (Linux's
 * nice value is per thread). Measured, and what it costs: docs/performance.md, "the reading thread gives way".
 */
export function lowerThisThreadsPriority(chrtPaths: readonly string[] = CHRT_PATHS): ThreadPriority {
  if (process.platform !== 'linux') return { got: 'unchanged', reason: `not Linux (${process.platform})` };
  let tid: number;
  try {
    // /proc must be this process's own (not another PID namespace's), then "<pid>/task/<tid>" names this thread.
    if (readlinkSync('/proc/self') !== String(process.pid))
      return { got: 'unchanged', reason: "/proc is not this process's" };
    tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
  } catch {
    return { got: 'unchanged', reason: 'no /proc' };
  }
  // A wrong id would lower another thread, the main one above all: never.
  if (!Number.isInteger(tid) || tid <= 0 || tid === process.pid)
    return { got: 'unchanged', reason: 'no thread id' };
  let failed = 'no chrt';
  for (const chrt of chrtPaths) {
    const outcome = run(chrt, ['--idle', '--pid', '0', String(tid)]);
    if (outcome === 'ok') return { got: 'idle', tid };
    if (outcome !== 'ENOENT') {
      failed = `chrt: ${outcome}`;
      break;
    }
  }
  try {
    setPriority(tid, 19);
    return { got: 'nice', tid, reason: failed };
  } catch (error) {
    return {
      got: 'unchanged',
      tid,
      reason: `${failed}; setpriority: ${(error as { code?: string }).code ?? 'failed'}`,
    };
  }
}

/** 'ok', or why not: an error code, or the command's exit status. Never throws. */
function run(file: string, args: string[]): string {
  // No environment: the bot's secrets have no business in a child process.
  const result = spawnSync(file, args, { env: {}, stdio: 'ignore', timeout: 2_000 });
  if (result.error) return (result.error as { code?: string }).code ?? 'spawn failed';
  if (result.signal) return `killed (${result.signal})`;
  return result.status === 0 ? 'ok' : `exit ${result.status}`;
}
