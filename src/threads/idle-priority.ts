import { execFile } from 'node:child_process';
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';

/** What the calling thread got: Linux's SCHED_IDLE, the lowest nice value, or nothing (another system). */
export type ThreadPriority = 'idle' | 'nice' | 'unchanged';

/**
 * Lets the calling thread run only when the process's other threads do not want its core: for work (reading an
 * uploaded file) that must never delay an ack. Call it from the thread itself, never from the main thread.
 *
 * SCHED_IDLE, not only nice 19: on Linux 6.6 and later (EEVDF) a thread at nice 19 keeps its core until its slice
 * runs out, so the main thread, woken by a request, still waited for it; a SCHED_IDLE thread gives way the moment
 * a normal one wakes (the scheduler's wakeup path preempts it at once). Measured on the 2-core bench, 100,000-row
 * .xlsx files read back to back beside a campaign: the main thread's wait for a core fell from 175-176 to 118-137
 * ms per second, and nice 19 had not moved it (docs/performance.md). A normal thread may lower itself to SCHED_IDLE
 * without privileges; Node has no call for it, so util-linux's `chrt` does it for this thread's id, once per
 * thread (2-3 ms for the process to start: waited for beside the thread's first read, not before it). Without
 * `chrt` (Alpine's BusyBox has no --idle), nice 19.
 * The cost: while the bot's own normal threads keep every core busy, a read waits for them.
 */
export async function lowerThisThreadsPriority(): Promise<ThreadPriority> {
  if (process.platform !== 'linux') return 'unchanged';
  let threadId: number;
  try {
    // "<pid>/task/<tid>": the kernel's id of the calling thread, which Node does not otherwise give.
    threadId = Number(readlinkSync('/proc/thread-self').split('/').pop());
  } catch {
    return 'unchanged';
  }
  // Without a thread's own id, setpriority and chrt would act on the main thread: never.
  if (!Number.isInteger(threadId) || threadId === process.pid) return 'unchanged';
  const chrt = await new Promise<boolean>((resolve) =>
    execFile('chrt', ['--idle', '--pid', '0', String(threadId)], { timeout: 2_000 }, (error) =>
      resolve(!error),
    ),
  );
  if (chrt) return 'idle';
  try {
    setPriority(threadId, 19);
    return 'nice';
  } catch {
    return 'unchanged';
  }
}
