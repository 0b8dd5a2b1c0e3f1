import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore, StoreOpenError } from '../../src/store/index.js';
import { pgSkipNote, pgUrl, tempDir } from './helpers.js';

async function openError(url: string, options?: Parameters<typeof openStore>[1]): Promise<StoreOpenError> {
  const error = await openStore(url, options).then(
    async (store) => {
      await store.close();
      throw new Error(`${url} opened`);
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(StoreOpenError);
  const { message } = error as StoreOpenError;
  expect(message).not.toContain('\n');
  return error as StoreOpenError;
}

describe('opening the store', () => {
  const dirs: Array<{ remove(): void }> = [];
  const dir = () => {
    const tmp = tempDir();
    dirs.push(tmp);
    return tmp.dir;
  };
  afterEach(() => {
    for (const d of dirs.splice(0)) d.remove();
  });

  it('names an unreachable PostgreSQL with its password masked, and says why', async () => {
    const error = await openError('postgres://smsops:hunter2@127.0.0.1:1/prod');
    expect(error.message).toBe(
      'cannot open database postgres://smsops:***@127.0.0.1:1/prod: connection refused',
    );
  });

  it('masks a password given as a query parameter or percent-encoded', async () => {
    const query = await openError('postgresql://127.0.0.1:1/prod?user=u&password=hunter2');
    expect(query.message).not.toContain('hunter2');
    expect(query.message).toContain('password=***');
    const encoded = await openError('postgres://u:p%40ss%3Aword@127.0.0.1:1/prod');
    expect(encoded.message).toBe(
      'cannot open database postgres://u:***@127.0.0.1:1/prod: connection refused',
    );
  });

  it('creates the missing folders of a sqlite: path', async () => {
    const file = join(dir(), 'a', 'b', 'c', 'smsops.db');
    const store = await openStore(`sqlite:${file}`);
    await store.close();
    expect(existsSync(file)).toBe(true);
  });

  it('says clearly when a sqlite: path cannot be created', async () => {
    const base = dir();
    writeFileSync(join(base, 'plain-file'), 'not a folder');
    const error = await openError(`sqlite:${join(base, 'plain-file', 'sub', 'x.db')}`);
    expect(error.message).toBe(
      `cannot open database sqlite:${join(base, 'plain-file', 'sub', 'x.db')}: a part of the path is a file, not a folder`,
    );
  });

  it('says clearly when the sqlite: path is a folder', async () => {
    const base = dir();
    mkdirSync(join(base, 'db-folder'));
    const error = await openError(`sqlite:${join(base, 'db-folder')}`);
    expect(error.message).toMatch(/^cannot open database sqlite:.*db-folder: unable to open the file/);
  });

  it('says clearly when the file is not a database', async () => {
    const file = join(dir(), 'junk.db');
    writeFileSync(
      file,
      'this is not sqlite at all, just some text that is long enough to matter '.repeat(100),
    );
    const error = await openError(`sqlite:${file}`);
    expect(error.message).toBe(`cannot open database sqlite:${file}: the file is not a SQLite database`);
  });

  it('shows the absolute file for a relative sqlite: path', async () => {
    const error = await openError('sqlite:./no/such/../../package.json/x.db');
    expect(error.message).toBe(
      `cannot open database sqlite:./no/such/../../package.json/x.db (${join(process.cwd(), 'package.json', 'x.db')}): a part of the path is a file, not a folder`,
    );
  });

  it('rejects an empty or unsupported DATABASE_URL in one line', async () => {
    expect((await openError('')).message).toBe('cannot open database: DATABASE_URL is empty');
    expect((await openError('mysql://root:pw@db/x')).message).toBe(
      'cannot open database mysql://root:***@db/x: unsupported DATABASE_URL (expected sqlite:<path> or postgres://…)',
    );
  });

  it('rejects a schema name that is not a plain identifier', async () => {
    const error = await openError('postgres://u:pw@127.0.0.1:1/x', { schema: 'a"; drop table x; --' });
    expect(error.message).toMatch(
      /^cannot open database postgres:\/\/u:\*\*\*@127\.0\.0\.1:1\/x: invalid schema name/,
    );
  });

  it.skipIf(!pgUrl)(`names a PostgreSQL database that does not exist${pgSkipNote}`, async () => {
    const url = new URL(pgUrl!);
    url.pathname = '/smsops_no_such_database';
    url.password = 'secret-pw';
    const error = await openError(url.toString());
    expect(error.message).toMatch(
      /^cannot open database postgres:\/\/[^:]+:\*\*\*@[^/]+\/smsops_no_such_database: the database does not exist$/,
    );
  });
});
