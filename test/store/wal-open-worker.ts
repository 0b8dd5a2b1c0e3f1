// One of two processes that open the same new SQLite files at the same instants (sqlite-open.test.ts):
// file i at startAt + i × stepMs, each as the store opens it, then one write under the write lock.
// Reports { type: 'result', failures } over IPC.
import { join } from 'node:path';
import { openSqliteFile } from '../../src/store/sqlite.js';

const [dir, startAtText, countText, stepText] = process.argv.slice(2);
const startAt = Number(startAtText);
const step = Number(stepText);
const pause = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Math.max(0, ms));
const failures: string[] = [];
for (let i = 0; i < Number(countText); i++) {
  const at = startAt + i * step;
  pause(at - Date.now() - 2);
  while (Date.now() < at) {
    // The last milliseconds spun, so both processes start within one of each other.
  }
  try {
    const db = openSqliteFile(join(dir!, `file-${i}.db`));
    db.exec('BEGIN IMMEDIATE');
    db.exec('create table if not exists t (id integer primary key)');
    db.exec('COMMIT');
    db.close();
  } catch (error) {
    failures.push(`file-${i}: ${error instanceof Error ? error.message : String(error)}`);
  }
}
process.send!({ type: 'result', failures }, () => process.exit(0));
