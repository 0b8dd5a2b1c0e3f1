import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/index.js';
import { startWorker as startProcess } from '../support/worker.js';
import { type Backend, dropSchema, pgSkipNote, pgUrl, scratchSchema, tempDir } from './helpers.js';

const COUNT = 1_000;
const WORKER = join(import.meta.dirname, 'race-worker.ts');

interface Result {
  type: 'result';
  jobWins: number[];
  inboundWins: number[];
  ms: number;
}

function startWorker(url: string, schema: string, instanceId: string) {
  return startProcess(WORKER, [url, schema, instanceId, String(COUNT)], instanceId);
}

/** Two real processes open one fresh store at the same moment, then claim the same ids as fast as they can. */
async function race(url: string, schema: string) {
  const workers = [startWorker(url, schema, 'proc-a'), startWorker(url, schema, 'proc-b')];
  try {
    await Promise.all(workers.map((w) => w.expectMessage('booted')));
    for (const w of workers) w.child.send({ type: 'open' });
    const opened = await Promise.all(
      workers.map((w) => w.expectMessage<{ type: string; migrated: boolean }>('opened')),
    );
    for (const w of workers) w.child.send({ type: 'go' });
    const results = await Promise.all(workers.map((w) => w.expectMessage<Result>('result')));
    const codes = await Promise.all(workers.map((w) => w.exited));
    return { opened, results, codes };
  } finally {
    for (const w of workers) if (w.child.exitCode === null) w.child.kill();
  }
}

async function expectEachClaimedOnce(url: string, schema: string | undefined, results: Result[]) {
  const [a, b] = results as [Result, Result];
  for (const key of ['jobWins', 'inboundWins'] as const) {
    const all = [...a[key], ...b[key]];
    expect(all).toHaveLength(COUNT);
    expect(new Set(all).size).toBe(COUNT);
  }
  const store = await openStore(url, { schema });
  try {
    const winners = new Map<number, string>();
    for (const i of a.jobWins) winners.set(i, 'proc-a');
    for (const i of b.jobWins) winners.set(i, 'proc-b');
    const runs = await store.jobRuns.runs('race', COUNT * 2);
    expect(runs).toHaveLength(COUNT);
    for (const run of runs) {
      const i = (new Date(run.slot).getTime() - Date.UTC(2030, 0, 1)) / 60_000;
      expect(run.instanceId).toBe(winners.get(i));
    }
    const inboundWinners = new Map<string, string>();
    for (const i of a.inboundWins)
      inboundWinners.set(String(9_000_000_000_000_000_000n + BigInt(i)), 'proc-a');
    for (const i of b.inboundWins)
      inboundWinners.set(String(9_000_000_000_000_000_000n + BigInt(i)), 'proc-b');
    const inbound = await store.inbound.recent(COUNT * 2);
    expect(inbound).toHaveLength(COUNT);
    for (const row of inbound) expect(row.claimedBy).toBe(inboundWinners.get(row.gatewayId));
  } finally {
    await store.close();
  }
}

function raceSuite(
  backend: Backend['name'],
  prepare: () => { url: string; schema: string; cleanup(): Promise<void> },
) {
  it(`two processes migrate one fresh store together, then claim ${COUNT} job slots and ${COUNT} inbound Ids: each exactly once`, async () => {
    const { url, schema, cleanup } = prepare();
    cleanups.push(cleanup);
    const { opened, results, codes } = await race(url, schema);
    expect(codes).toEqual([0, 0]);
    expect(opened.filter((o) => o.migrated)).toHaveLength(1);
    const [a, b] = results as [Result, Result];
    console.info(
      `${backend} race: proc-a won ${a.jobWins.length} slots / ${a.inboundWins.length} ids in ${a.ms.toFixed(0)} ms, ` +
        `proc-b won ${b.jobWins.length} / ${b.inboundWins.length} in ${b.ms.toFixed(0)} ms`,
    );
    await expectEachClaimedOnce(url, schema || undefined, results);
  }, 60_000);
}

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

describe('race between two processes: sqlite (one file, WAL)', () => {
  raceSuite('sqlite', () => {
    const tmp = tempDir();
    return {
      url: `sqlite:${join(tmp.dir, 'nested', 'race.db')}`,
      schema: '',
      cleanup: async () => tmp.remove(),
    };
  });
});

describe.skipIf(!pgUrl)(`race between two processes: postgres (one schema)${pgSkipNote}`, () => {
  raceSuite('postgres', () => {
    const schema = scratchSchema();
    return { url: pgUrl!, schema, cleanup: () => dropSchema(schema) };
  });
});
