import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/index.js';
import { tempDir } from './helpers.js';

/** Blocks this thread (no event loop turn) until `done()` or the deadline: what happens meanwhile is another thread's. */
function blockUntil(done: () => boolean, deadlineMs: number): boolean {
  const cell = new Int32Array(new SharedArrayBuffer(4));
  const end = Date.now() + deadlineMs;
  while (!done()) {
    if (Date.now() > end) return false;
    Atomics.wait(cell, 0, 0, 20);
  }
  return true;
}

describe('SQLite checkpoints and large writes off the event loop', () => {
  const dirs: Array<{ remove(): void }> = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) dir.remove();
  });
  /** A store on a new file in a folder of its own, removed after the test. */
  const openInNewFolder = async () => {
    const tmp = tempDir();
    dirs.push(tmp);
    const path = join(tmp.dir, 'smsops.db');
    return { store: await openStore(`sqlite:${path}`), path };
  };

  it('after a large draft, the draft reaches the database file while the main thread does nothing', async () => {
    const { store, path } = await openInNewFolder();
    const numbers = Array.from({ length: 40_000 }, (_, i) => `90532${String(1_000_000 + i)}`);
    const fileBefore = statSync(path).size;
    await store.drafts.put('draft:big', 'U1', { recipients: numbers }, new Date(Date.now() + 60_000));
    // The commit went into the WAL; the main connection checkpoints only past 1,000 pages (this is ~150).
    // With the event loop blocked, only the checkpoint thread can copy it into the file.
    const payloadBytes = JSON.stringify(numbers).length;
    const reached = blockUntil(() => statSync(path).size - fileBefore >= payloadBytes, 10_000);
    expect(reached).toBe(true);
    expect((await store.drafts.get('draft:big', new Date()))?.payload).toEqual({ recipients: numbers });
    await store.close();
    // Both connections closed: the last one took the WAL away.
    expect(existsSync(`${path}-wal`)).toBe(false);
  });

  it('small writes only: no thread, and the file is written by the connection itself when it closes', async () => {
    const { store, path } = await openInNewFolder();
    const fileBefore = statSync(path).size;
    const numbers = Array.from({ length: 40_000 }, (_, i) => `90532${String(1_000_000 + i)}`);
    // Many drafts, each below the size that starts the thread: the WAL grows, nothing copies it while blocked.
    for (let i = 0; i < 40; i++) {
      await store.drafts.put(
        `draft:${i}`,
        'U1',
        { recipients: numbers.slice(i * 1_000, i * 1_000 + 1_000) },
        new Date(Date.now() + 60_000),
      );
    }
    expect(blockUntil(() => statSync(path).size > fileBefore, 600)).toBe(false);
    await store.close();
    expect(existsSync(`${path}-wal`)).toBe(false);
    expect(statSync(path).size).toBeGreaterThan(fileBefore);
  });

  it('a large draft replaced by a smaller one leaves none of its numbers in the file (written from the thread)', async () => {
    const { store, path } = await openInNewFolder();
    const expires = new Date(Date.now() + 60_000);
    const first = Array.from({ length: 60_000 }, (_, i) => `90533${String(7_000_000 + i)}`);
    const second = Array.from({ length: 25_000 }, (_, i) => `90532${String(1_000_000 + i)}`);
    // A file's numbers, kept beside the draft's JSON: what the thread writes.
    await store.drafts.put('draft:picked', 'U1', { text: 'Kampanya' }, expires, first.join(','));
    // Another column picked in the confirmation: the draft under the same key is replaced.
    await store.drafts.put('draft:picked', 'U1', { text: 'Kampanya' }, expires, second.join(','));
    expect((await store.drafts.get('draft:picked', new Date()))?.numbers).toBe(second.join(','));
    await store.close();
    const bytes = readFileSync(path);
    // The last of the first list's numbers were in pages the second one did not need: freed, and erased.
    expect(bytes.includes(Buffer.from(first.at(-1)!))).toBe(false);
    expect(bytes.includes(Buffer.from(second.at(-1)!))).toBe(true);
  });

  it('a draft put after a large one under the same key is the one kept, though the large one went to the thread', async () => {
    const { store } = await openInNewFolder();
    const expires = new Date(Date.now() + 60_000);
    const numbers = Array.from({ length: 40_000 }, (_, i) => `90532${String(1_000_000 + i)}`).join(',');
    // The first large write starts the thread and waits for it; the second file's small draft comes meanwhile.
    const first = store.drafts.put('draft:V1', 'U1', { text: 'A' }, expires, numbers);
    const second = store.drafts.put('draft:V1', 'U1', { text: 'B' }, expires);
    const seen = store.drafts.get('draft:V1', new Date());
    await Promise.all([first, second]);
    expect((await seen)?.payload).toEqual({ text: 'B' });
    const kept = await store.drafts.get('draft:V1', new Date());
    expect(kept?.payload).toEqual({ text: 'B' });
    expect(kept?.numbers).toBeUndefined();
    await store.close();
  });

  it('after an erasure, the WAL is emptied by the thread that checkpoints it', async () => {
    const { store, path } = await openInNewFolder();
    const numbers = Array.from({ length: 40_000 }, (_, i) => `90532${String(1_000_000 + i)}`);
    await store.drafts.put('draft:V1', 'U1', { text: 'A' }, new Date(Date.now() + 60_000), numbers.join(','));
    expect(await store.drafts.forgetNumber(numbers[7]!)).toBe(1);
    expect(await store.eraseResidue()).toBe(true);
    expect(statSync(`${path}-wal`).size).toBe(0);
    expect(readFileSync(path).includes(Buffer.from(numbers[7]!))).toBe(false);
    await store.close();
  });
});
