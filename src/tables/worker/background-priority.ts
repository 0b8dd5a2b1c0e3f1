import { constants, setPriority } from 'node:os';

/**
 * A read is background work beside the thread that acks Slack: on a machine with fewer cores than busy
 * threads (the reading threads, the campaign's gateway calls, the bot's own thread), the kernel would give them
 * equal turns and an ack would wait behind a read. On Linux the nice value belongs to each thread, and
 * setpriority() with no process id sets the calling thread's alone (`man 2 setpriority`, NOTES), so a reading
 * thread can step back without touching the bot's. Elsewhere the same call would lower the whole process, the
 * bot's own thread included: there the reading thread keeps the bot's priority.
 *
 * Nice 10, not 19: against a busy thread of the bot's priority it still gets about a tenth of a core (19 would
 * leave it ~1.5%), so a read on a loaded machine slows down rather than running into its time limit.
 */
export function stepBehindTheBot(platform: NodeJS.Platform = process.platform): boolean {
  if (platform !== 'linux') return false;
  try {
    setPriority(constants.priority.PRIORITY_BELOW_NORMAL);
    return true;
  } catch {
    // A container may forbid it (seccomp): the read goes on at the bot's priority.
    return false;
  }
}
