import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { TableFileError } from '../../src/tables/table-file.js';
import {
  DEFAULT_READER_LIMITS,
  outOfTime,
  type TableReaderLimits,
  TableReaderPool,
} from '../../src/tables/worker/pool.js';
import type { ReadRequest } from '../../src/tables/worker/reading.js';
import { CHRT_PATHS, type ThreadPriority } from '../../src/threads/idle-priority.js';
import { threadRunMs } from '../../src/threads/run-time.js';

/**
 * The kernel's own account of a thread of this process (/proc/self/task/<tid>/stat), not the reading thread's
 * report of itself: its scheduling policy (field 41: 0 normal, 5 SCHED_IDLE) and nice value (field 19).
 */
function scheduling(tid: number): { policy: number; nice: number } | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
  } catch {
    return undefined; // no such thread (any more)
  }
  // The fields after the command's name, which may hold spaces and ends at the last ")": the 3rd field on.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { policy: Number(fields[41 - 3]), nice: Number(fields[19 - 3]) };
}

const SCHED_IDLE = 5;
const linux = process.platform === 'linux';
// util-linux's, which knows --idle (BusyBox's does not).
const hasChrt =
  linux &&
  CHRT_PATHS.some(
    (path) =>
      existsSync(path) && (spawnSync(path, ['--help'], { encoding: 'utf8' }).stdout ?? '').includes('--idle'),
  );
const hasTaskset = linux && spawnSync('taskset', ['--version'], { stdio: 'ignore' }).status === 0;
const recipients: ReadRequest = { purpose: 'recipients', country: 'TR' };
const smallCsv = () => new Uint8Array(Buffer.from('Telefon\n05321234567\n05327654321\n', 'utf8'));

let pools: TableReaderPool[] = [];
let children: ChildProcess[] = [];
afterEach(async () => {
  for (const child of children) child.kill('SIGKILL');
  children = [];
  await Promise.all(pools.map((p) => p.close()));
  pools = [];
});

/** A pool whose threads' priorities are collected as they say them, and a promise of the first. */
function watchedPool(limits: Partial<TableReaderLimits> = {}) {
  const said: ThreadPriority[] = [];
  let first!: (priority: ThreadPriority) => void;
  const firstSaid = new Promise<ThreadPriority>((resolve) => {
    first = resolve;
  });
  const pool = new TableReaderPool(limits, {
    priority: (priority) => {
      said.push(priority);
      first(priority);
    },
  });
  pools.push(pool);
  return { pool, said, firstSaid };
}

describe.skipIf(!linux)('a reading thread gives way to the threads that ack', () => {
  it.skipIf(!hasChrt)(
    'runs under SCHED_IDLE by default, the main thread keeping its own policy and nice value',
    async () => {
      const main = scheduling(process.pid);
      const { pool, firstSaid } = watchedPool();
      expect((await pool.read('liste.csv', smallCsv(), recipients)).purpose).toBe('recipients');
      const priority = await firstSaid;

      expect(priority).toEqual({ got: 'idle', tid: expect.any(Number) });
      expect(priority.tid).not.toBe(process.pid);
      expect(scheduling(priority.tid!)).toEqual({ policy: SCHED_IDLE, nice: main!.nice });
      expect(scheduling(process.pid)).toEqual(main);
      // The thread kept for the next read is that one; once the pool closes, it is gone.
      await pool.close();
      expect(scheduling(priority.tid!)).toBeUndefined();
    },
  );

  it('falls back to nice 19 for that thread alone where there is no chrt, and says why', async () => {
    const main = scheduling(process.pid);
    const { pool, firstSaid } = watchedPool({ chrtPaths: ['/nonexistent/chrt'] });
    await pool.read('liste.csv', smallCsv(), recipients);
    const priority = await firstSaid;

    expect(priority).toEqual({ got: 'nice', tid: expect.any(Number), reason: 'no chrt' });
    expect(scheduling(priority.tid!)).toEqual({ policy: main!.policy, nice: 19 });
    expect(scheduling(process.pid)).toEqual(main);
  });

  it('stays as the main thread is when the pool is told so', async () => {
    const main = scheduling(process.pid);
    const { pool, said } = watchedPool({ priority: 'normal' });
    const before = new Set(readdirTasks());
    // Two reads: a thread that lowered itself would have said so (3 ms after it starts) by the second's answer.
    await pool.read('liste.csv', smallCsv(), recipients);
    await pool.read('liste.csv', smallCsv(), recipients);
    expect(said).toEqual([]);
    const started = readdirTasks().filter((tid) => !before.has(tid));
    expect(started.length).toBeGreaterThan(0);
    for (const tid of started) {
      const got = scheduling(tid);
      if (got) expect(got).toEqual(main);
    }
  });

  it.skipIf(!hasChrt || !hasTaskset)(
    'tells the person the app was busy, not that the file is slow, when the read ran out of time waiting for a core',
    async () => {
      // A busy program of normal priority on one core this process may use, spinning before the read starts (for
      // 20 s at most, should this process die before it can end it).
      const cpu = firstAllowedCpu();
      const busy = spawn(
        'taskset',
        [
          '--cpu-list',
          cpu,
          process.execPath,
          '-e',
          'process.stdout.write("spinning\\n"); const end = Date.now() + 20_000; while (Date.now() < end) {}',
        ],
        { stdio: ['ignore', 'pipe', 'ignore'] },
      );
      children.push(busy);
      const spinning = await new Promise((resolve) => {
        busy.stdout!.once('data', () => resolve(true));
        busy.once('exit', () => resolve(false));
      });
      expect(spinning).toBe(true);
      const { pool, firstSaid } = watchedPool({ timeoutMs: 1_500 });
      // A read of ~0.5 s of a core: 300,000 numbers.
      const lines = ['Telefon'];
      for (let i = 0; i < 300_000; i++) lines.push(`0532${String(1_000_000 + i)}`);
      const reading = pool.read('buyuk.csv', new Uint8Array(Buffer.from(lines.join('\n'))), recipients);
      // Said before its read begins: the thread joins the busy program on core 0, where it gets almost nothing.
      const { got, tid } = await firstSaid;
      expect(got).toBe('idle');
      expect(spawnSync('taskset', ['--pid', '--cpu-list', cpu, String(tid)]).status).toBe(0);

      const error = await reading.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(TableFileError);
      expect((error as Error).message).toMatch(
        /^“buyuk\.csv” could not be read in 1\.5 s: the app was busy with other work and gave the file (under )?[0-9.]+ s of them\. Upload it again in a few minutes/,
      );
    },
  );
});

function readdirTasks(): number[] {
  return readdirSync('/proc/self/task').map(Number);
}

/** The first core in this process's affinity (a container's cpuset may leave out core 0). */
function firstAllowedCpu(): string {
  const list = /^Cpus_allowed_list:\s*(\d+)/m.exec(readFileSync('/proc/self/status', 'utf8'));
  return list?.[1] ?? '0';
}

describe('a read out of time is told by what held it', () => {
  const limits = { ...DEFAULT_READER_LIMITS, timeoutMs: 30_000 };

  it('blames the file when its thread had a core for half the limit or more, or when that is unknown', () => {
    for (const ranMs of [15_000, 29_000, undefined]) {
      expect(outOfTime('liste.csv', limits, ranMs).message).toMatch(
        /^“liste\.csv” took longer than 30 s to read, so it was stopped\./,
      );
    }
  });

  it('blames the busy app when its thread had a core for less than half of it', () => {
    expect(outOfTime('liste.csv', limits, 14_900).message).toMatch(
      /^“liste\.csv” could not be read in 30 s: the app was busy with other work and gave the file 14\.9 s of them\./,
    );
    expect(outOfTime('liste.csv', limits, 10).message).toContain('gave the file under 0.1 s of them');
  });
});

describe.skipIf(!linux)("a thread's time on a core", () => {
  it('grows by the milliseconds the thread works, and not while it sleeps', async () => {
    const before = threadRunMs(process.pid)!;
    const end = performance.now() + 200;
    while (performance.now() < end) {
      // busy for 200 ms of wall time
    }
    const worked = threadRunMs(process.pid)! - before;
    // At most the wall time it spun (plus a tick of the clock); at least a little of it, even on a loaded machine.
    expect(worked).toBeLessThanOrEqual(260);
    expect(worked).toBeGreaterThan(1);
    const slept = threadRunMs(process.pid)!;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(threadRunMs(process.pid)! - slept).toBeLessThan(100);
  });

  it("is unknown for a thread that is not this process's", () => {
    expect(threadRunMs(1)).toBeUndefined();
  });
});
