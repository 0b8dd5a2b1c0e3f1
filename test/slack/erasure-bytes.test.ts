import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/index.js';
import {
  channels,
  ephemeralText,
  type Harness,
  sendThroughCompose,
  startHarness,
  users,
} from '../support/slack-harness.js';

const DAY_MS = 86_400_000;
const FORGOTTEN = '905327778899';
// A text sent to the forgotten number alone (`/sms forget` takes it), and one sent to many (the purge takes it).
const PRIVATE_TEXT = 'Mehmet, biopsy result QX7-ready';
const SHARED_TEXT = 'Pharmacy closes early ZK4 today';

let h: Harness;
let dir: string;
let dbPath: string;

/** How often each secret occurs in a file's raw bytes (UTF-8, as SQLite stores text). */
function occurrences(path: string): Record<string, number> {
  const bytes = existsSync(path) ? readFileSync(path) : Buffer.alloc(0);
  const count = (needle: string) => {
    let n = 0;
    for (let at = bytes.indexOf(needle); at !== -1; at = bytes.indexOf(needle, at + 1)) n++;
    return n;
  };
  return { number: count(FORGOTTEN.slice(2)), private: count('QX7-ready'), shared: count('ZK4 today') };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'smsops-erasure-'));
  dbPath = join(dir, 'smsops.db');
  h = await startHarness({ store: await openStore(`sqlite:${dbPath}`) });
});
afterAll(async () => {
  await h?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('/sms forget and the retention purge on SQLite', () => {
  it('leave the number and the erased texts nowhere in the database file, its WAL or a backup of it', async () => {
    await sendThroughCompose(h, '0532 777 88 99', PRIVATE_TEXT);
    await sendThroughCompose(h, '0532 777 88 99\n0533 123 45 67', SHARED_TEXT);
    await h.store.inbound.saveThread(channels.smsOps, FORGOTTEN, '1700000000.000100', new Date());
    const before = {
      ...occurrences(dbPath),
      ...Object.fromEntries(Object.entries(occurrences(`${dbPath}-wal`)).map(([k, v]) => [`wal.${k}`, v])),
    };
    // The test's own premise: the secrets were on disk before.
    expect(before.number + before['wal.number']).toBeGreaterThan(0);
    expect(before.private + before['wal.private']).toBeGreaterThan(0);

    // Delivered in full: the purge keeps what a send still in flight needs.
    await h.control.advance({ deliver: 1 });
    for (const row of await h.store.outbox.recent(2)) await h.tracker.pollNow(row.id);
    expect((await h.store.outbox.recent(2)).map((row) => row.delivery.final)).toEqual([true, true]);

    h.mark();
    await h.sms('forget 0532 777 88 99');
    expect(ephemeralText(await h.ephemeral(users.admin, /forgotten/))).toContain('smsops has forgotten');
    await h.bot.retention.purge(new Date(Date.now() + 181 * DAY_MS));

    const backupPath = join(dir, 'copy.backup');
    const reader = new Database(dbPath, { readonly: true });
    try {
      await reader.backup(backupPath);
    } finally {
      reader.close();
    }
    const none = { number: 0, private: 0, shared: 0 };
    expect(occurrences(dbPath), 'the database file').toEqual(none);
    expect(occurrences(`${dbPath}-wal`), 'its WAL').toEqual(none);
    expect(occurrences(backupPath), 'a backup taken after').toEqual(none);
  });
});
