import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type TableReaderLimits, TableReaderPool } from '../../src/tables/worker/pool.js';
import type { ThreadPriority } from '../../src/threads/idle-priority.js';

/**
 * The kernel's own account of each thread of this process (/proc/self/task/<tid>/stat), not the reading thread's
 * report of itself: its scheduling policy (field 41: 0 normal, 5 SCHED_IDLE) and nice value (field 19).
 */
function threadsOfThisProcess(): { tid: number; policy: number; nice: number }[] {
  const threads = [];
  for (const tid of readdirSync('/proc/self/task')) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    } catch {
      continue; // ended meanwhile
    }
    // The fields after the command's name, which may hold spaces and ends at the last ")": the 3rd field on.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    threads.push({ tid: Number(tid), policy: Number(fields[41 - 3]), nice: Number(fields[19 - 3]) });
  }
  return threads;
}

const SCHED_OTHER = 0;
const SCHED_IDLE = 5;
const linux = process.platform === 'linux';
const hasChrt = linux && spawnSync('chrt', ['--version'], { stdio: 'ignore' }).status === 0;
const csv = new Uint8Array(Buffer.from('Telefon\n05321234567\n05327654321\n', 'utf8'));

let pools: TableReaderPool[] = [];
afterEach(async () => {
  await Promise.all(pools.map((p) => p.close()));
  pools = [];
});

/**
 * A pool that has read one file, its thread kept (idle) for the next, and the priority the thread said it got
 * (said as the thread starts, beside its first read: awaited when the thread is to lower itself).
 */
async function afterOneRead(limits: Partial<TableReaderLimits> = {}) {
  const said: ThreadPriority[] = [];
  let saidIt!: () => void;
  const spoken = new Promise<void>((resolve) => {
    saidIt = resolve;
  });
  const pool = new TableReaderPool(limits, {
    priority: (got) => {
      said.push(got);
      saidIt();
    },
  });
  pools.push(pool);
  const reading = await pool.read('liste.csv', csv.slice(), { purpose: 'recipients', country: 'TR' });
  expect(reading.purpose).toBe('recipients');
  expect(pool.size).toBe(1);
  if (limits.priority !== 'normal') await spoken;
  return { said };
}

describe.skipIf(!linux)('a reading thread gives way to the threads that ack', () => {
  it.skipIf(!hasChrt)(
    'runs under SCHED_IDLE by default, and the main thread keeps its own policy and nice value',
    async () => {
      const before = threadsOfThisProcess();
      const main = before.find((t) => t.tid === process.pid)!;
      expect(before.filter((t) => t.policy === SCHED_IDLE)).toEqual([]);

      const { said } = await afterOneRead();

      const after = threadsOfThisProcess();
      const idle = after.filter((t) => t.policy === SCHED_IDLE);
      expect(idle).toHaveLength(1);
      expect(idle[0]!.tid).not.toBe(process.pid);
      expect(after.find((t) => t.tid === process.pid)).toEqual(main);
      expect(said).toEqual(['idle']);
    },
  );

  it('falls back to nice 19 for that thread alone where chrt is missing', async () => {
    const path = process.env.PATH;
    // A worker takes a copy of process.env when it starts: it finds no chrt on an empty PATH.
    process.env.PATH = mkdtempSync(join(tmpdir(), 'no-chrt-'));
    try {
      const main = threadsOfThisProcess().find((t) => t.tid === process.pid)!;
      const { said } = await afterOneRead();
      expect(said).toEqual(['nice']);
      const after = threadsOfThisProcess();
      expect(after.filter((t) => t.nice === 19 && t.policy === SCHED_OTHER)).toHaveLength(1);
      expect(after.find((t) => t.tid === process.pid)).toEqual(main);
    } finally {
      process.env.PATH = path;
    }
  });

  it('stays at normal priority when the pool is told so', async () => {
    const { said } = await afterOneRead({ priority: 'normal' });
    expect(said).toEqual([]);
    expect(threadsOfThisProcess().filter((t) => t.policy === SCHED_IDLE || t.nice === 19)).toEqual([]);
  });
});
