import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startWorker } from '../support/worker.js';
import { tempDir } from './helpers.js';

const WORKER = join(import.meta.dirname, 'wal-open-worker.ts');
const FILES = 40;

describe('two processes opening one new SQLite file at the same moment', () => {
  const dirs: Array<{ remove(): void }> = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) dir.remove();
  });

  it('both switch it to WAL and write, none failing with "database is locked"', async () => {
    // SQLite refuses one of two concurrent switches to WAL at once, without its busy handler: before the
    // retry, about one open in five failed so.
    const tmp = tempDir();
    dirs.push(tmp);
    const startAt = String(Date.now() + 1_500);
    const args = [tmp.dir, startAt, String(FILES), '40'];
    const workers = [startWorker(WORKER, args, 'a'), startWorker(WORKER, args, 'b')];
    const results = await Promise.all(
      workers.map((w) => w.expectMessage<{ type: string; failures: string[] }>('result')),
    );
    expect(results.flatMap((r) => r.failures)).toEqual([]);
    expect(await Promise.all(workers.map((w) => w.exited))).toEqual([0, 0]);
  }, 30_000);
});
