import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/index.js';
import { maskUrl, parseDatabaseUrl } from '../../src/store/url.js';

describe('DATABASE_URL', () => {
  it('masks passwords and nothing else', () => {
    expect(maskUrl('postgres://user:pw@host:5432/db')).toBe('postgres://user:***@host:5432/db');
    expect(maskUrl('postgres://user@host/db')).toBe('postgres://user@host/db');
    expect(maskUrl('postgres://host/db?sslmode=require&password=x&a=1')).toBe(
      'postgres://host/db?sslmode=require&password=***&a=1',
    );
    expect(maskUrl('postgres://u:p@ss@host/db')).toBe('postgres://u:***@ss@host/db');
    expect(maskUrl('sqlite:./data/smsops.db')).toBe('sqlite:./data/smsops.db');
  });

  it('reads the sqlite: forms', () => {
    expect(parseDatabaseUrl('sqlite:./data/smsops.db')).toMatchObject({
      kind: 'sqlite',
      path: resolve('data/smsops.db'),
    });
    expect(parseDatabaseUrl('sqlite:///var/lib/smsops.db')).toMatchObject({ path: '/var/lib/smsops.db' });
    expect(parseDatabaseUrl('sqlite:/var/lib/smsops.db')).toMatchObject({ path: '/var/lib/smsops.db' });
    expect(parseDatabaseUrl('sqlite::memory:')).toMatchObject({ path: ':memory:' });
    expect(parseDatabaseUrl(' postgres://u:pw@h/db ')).toMatchObject({ kind: 'postgres', password: 'pw' });
  });

  it('opens an in-memory SQLite store', async () => {
    const store = await openStore('sqlite::memory:');
    expect(await store.jobRuns.claim('j', 's', 'i')).toBe(true);
    expect(await store.jobRuns.claim('j', 's', 'i')).toBe(false);
    await store.close();
  });
});
