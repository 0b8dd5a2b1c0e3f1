import { readFileSync } from 'node:fs';
import { threadSchedstat } from '../src/threads/run-time.js';

// What the machine's cores did over a window, from Linux's own counters: how busy all its cores were (whatever ran
// on them: on a quiet machine, the bench's processes, the bot's threads and the stand-ins), how much the host took
// from them (steal), and how long the bot's main thread, the one that acks Slack, was ready to run but waited for a
// core (behind the stand-ins and the bot's own other threads alike). An average over the window, not the acks'
// tail: it says whether the main thread had the cores the idle acks had. Time the host takes from a vCPU is not
// counted as waiting (the thread still runs, as the guest sees it): that is the steal share.

/** What a window cost the cores; undefined off Linux (no /proc). */
export interface CpuShare {
  /** Busy share of all cores (0-1): user, system, interrupts; not idle, not I/O wait, not steal. */
  busy: number;
  /** Share of all cores the host gave to others while this machine wanted them (0-1; 0 where not reported). */
  steal: number;
  /** Milliseconds per second of the window the bot's main thread ran. */
  mainRunMsPerS: number;
  /** Milliseconds per second of the window the bot's main thread was ready to run and waited for a core. */
  mainWaitMsPerS: number;
}

interface Counters {
  at: number;
  cores: { busy: number; steal: number; total: number };
  /** Nanoseconds run and waited by the main thread (/proc/PID/task/PID/schedstat). */
  main: { runNs: number; waitNs: number };
}

function countersOf(pid: number): Counters | undefined {
  try {
    // cpu  user nice system idle iowait irq softirq steal guest guest_nice (guest time is inside user already)
    const first = readFileSync('/proc/stat', 'latin1').split('\n', 1)[0]!;
    const [user, nice, system, idle, iowait, irq, softirq, steal = 0] = first
      .trim()
      .split(/\s+/)
      .slice(1)
      .map(Number) as number[];
    const busy = user! + nice! + system! + irq! + softirq!;
    const main = threadSchedstat(pid, pid);
    if (!main) return undefined;
    return { at: performance.now(), cores: { busy, steal, total: busy + idle! + iowait! + steal }, main };
  } catch {
    return undefined;
  }
}

/** Starts counting now; `stop()` says what the cores did since, or undefined where Linux's counters are missing. */
export function cpuWatch(botPid: number): { stop(): CpuShare | undefined } {
  const from = countersOf(botPid);
  return {
    stop() {
      const to = countersOf(botPid);
      if (!from || !to) return undefined;
      const seconds = (to.at - from.at) / 1000;
      const ticks = to.cores.total - from.cores.total;
      // A kernel without scheduler statistics prints zeros: no figure, rather than "never waited".
      const ran = to.main.runNs - from.main.runNs;
      if (seconds <= 0 || ticks <= 0 || ran <= 0) return undefined;
      const perSecond = (ns: number) => ns / 1e6 / seconds;
      return {
        busy: (to.cores.busy - from.cores.busy) / ticks,
        steal: (to.cores.steal - from.cores.steal) / ticks,
        mainRunMsPerS: perSecond(ran),
        mainWaitMsPerS: perSecond(to.main.waitNs - from.main.waitNs),
      };
    },
  };
}
