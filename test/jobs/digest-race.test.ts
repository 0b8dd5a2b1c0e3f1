import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { digestJob } from '../../src/jobs/digest-scheduler.js';
import type { Store } from '../../src/store/index.js';
import { startWorker as startProcess } from '../support/worker.js';
import { tempStore } from './digest-fakes.js';

const WORKER = join(import.meta.dirname, 'digest-race-worker.ts');
const SLOTS = 60;
const START = Date.UTC(2030, 0, 15, 9, 0, 0);

interface Result {
  type: 'result';
  posts: Array<{ subscriptionId: number; slot: string }>;
  recorded: number;
}

function startWorker(url: string, instanceId: string) {
  return startProcess(WORKER, [url, instanceId, String(SLOTS), String(START)], instanceId);
}

describe('two real processes on one store racing for the same digest slots', () => {
  let store: Store;
  let path: string;
  let close: () => Promise<void>;
  const subscriptionIds: number[] = [];

  beforeAll(async () => {
    ({ store, path, close } = await tempStore());
    for (const digest of ['balance', 'stats', 'surveys'] as const) {
      const { subscription } = await store.subscriptions.add(
        'C0RACE',
        { kind: 'digest', digest, cron: '* * * * *', timezone: 'UTC' },
        'U0ADMIN',
        new Date(START - 60_000),
      );
      subscriptionIds.push(subscription.id);
    }
  });
  afterAll(() => close());

  it(`posts each of ${SLOTS} slots of 3 subscriptions exactly once`, async () => {
    const workers = [startWorker(`sqlite:${path}`, 'proc-a'), startWorker(`sqlite:${path}`, 'proc-b')];
    try {
      await Promise.all(workers.map((w) => w.expectMessage('booted')));
      for (const w of workers) w.child.send({ type: 'go' });
      const results = await Promise.all(workers.map((w) => w.expectMessage<Result>('result')));
      expect(await Promise.all(workers.map((w) => w.exited))).toEqual([0, 0]);

      const perSlot = new Map<string, number>();
      for (const r of results) {
        expect(r.recorded).toBe(r.posts.length);
        for (const p of r.posts) {
          const key = `${p.subscriptionId}@${p.slot}`;
          perSlot.set(key, (perSlot.get(key) ?? 0) + 1);
        }
      }
      expect(perSlot.size).toBe(3 * SLOTS);
      expect([...perSlot.values()].every((n) => n === 1)).toBe(true);
      console.info(
        `digest race: proc-a posted ${results[0]!.posts.length}, proc-b ${results[1]!.posts.length} of ${3 * SLOTS} slots`,
      );
      // The store agrees: one claim per slot, by the process that posted it.
      for (const id of subscriptionIds) {
        const runs = await store.jobRuns.runs(digestJob(id), SLOTS * 2);
        expect(runs).toHaveLength(SLOTS);
      }
    } finally {
      for (const w of workers) if (w.child.exitCode === null) w.child.kill();
    }
  }, 90_000);
});
