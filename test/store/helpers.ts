import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openStore, type Store, type StoreOptions } from '../../src/store/index.js';

export const pgUrl = process.env.TEST_DATABASE_URL || undefined;
export const pgSkipNote = pgUrl ? '' : ' (skipped: TEST_DATABASE_URL is unset)';

export function tempDir(): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'smsops-store-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A schema name no other test file or CI run will pick. */
export const scratchSchema = (): string => `smsops_t_${randomBytes(6).toString('hex')}`;

export async function withAdmin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: pgUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export async function dropSchema(schema: string): Promise<void> {
  await withAdmin((client) => client.query(`drop schema if exists "${schema}" cascade`));
}

export interface OpenedStore {
  store: Store;
  cleanup(): Promise<void>;
}

export interface Backend {
  name: 'sqlite' | 'postgres';
  available: boolean;
  /** A fresh, empty store of its own. */
  open(options?: StoreOptions): Promise<OpenedStore>;
}

export const sqliteBackend: Backend = {
  name: 'sqlite',
  available: true,
  async open(options) {
    const tmp = tempDir();
    const store = await openStore(`sqlite:${join(tmp.dir, 'store.db')}`, options);
    return {
      store,
      async cleanup() {
        await store.close();
        tmp.remove();
      },
    };
  },
};

export const postgresBackend: Backend = {
  name: 'postgres',
  available: pgUrl !== undefined,
  async open(options) {
    const schema = scratchSchema();
    const store = await openStore(pgUrl!, { ...options, schema }).catch(async (error: unknown) => {
      await dropSchema(schema);
      throw error;
    });
    return {
      store,
      async cleanup() {
        await store.close();
        await dropSchema(schema);
      },
    };
  },
};
