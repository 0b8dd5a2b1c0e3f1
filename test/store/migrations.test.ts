import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, type Migration, Migrator, SqliteDialect } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/log.js';
import { openStore } from '../../src/store/index.js';
import { migrate } from '../../src/store/migrate.js';
import {
  MIGRATION_LOCK_TABLE,
  MIGRATION_TABLE,
  migrationProvider,
} from '../../src/store/migrations/index.js';
import { createPool, postgresKysely } from '../../src/store/postgres.js';
import { repositories } from '../../src/store/repos/index.js';
import { Resilience } from '../../src/store/resilience.js';
import type { Database as Schema } from '../../src/store/schema.js';
import { openSqliteFile, sqliteKysely } from '../../src/store/sqlite.js';
import { captureLogger } from '../support/logs.js';
import { dropSchema, pgSkipNote, pgUrl, scratchSchema, tempDir } from './helpers.js';

const migratedLines = (lines: Array<Record<string, unknown>>) =>
  lines.filter((l) => l.msg === 'database ready (migrated)');

interface Target {
  url: string;
  schema?: string;
  cleanup(): Promise<void>;
}

/** A Kysely on the target, the way the store would make it. */
function kyselyFor(kind: 'sqlite' | 'postgres', url: string, schema?: string): Kysely<Schema> {
  if (kind === 'sqlite') return sqliteKysely(openSqliteFile(url.slice('sqlite:'.length)));
  const resilience = new Resilience(silentLogger, 'test', []);
  return postgresKysely(
    createPool({
      connectionString: url,
      schema,
      applicationName: 'migrations-test',
      poolSize: 2,
      resilience,
    }),
  );
}

const targets: Record<'sqlite' | 'postgres', () => Target> = {
  sqlite: () => {
    const tmp = tempDir();
    return { url: `sqlite:${join(tmp.dir, 'm.db')}`, cleanup: async () => tmp.remove() };
  },
  postgres: () => {
    const schema = scratchSchema();
    return { url: pgUrl!, schema, cleanup: () => dropSchema(schema) };
  },
};

/** A store as the migrations before `name` left it (an install from before that migration): resolves with them all. */
async function migrateBefore(
  kind: 'sqlite' | 'postgres',
  db: Kysely<Schema>,
  schema: string | undefined,
  name: string,
): Promise<Record<string, Migration>> {
  const all = await migrationProvider(kind).getMigrations();
  const before = Object.fromEntries(Object.entries(all).filter(([n]) => n < name));
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => before },
    migrationTableName: MIGRATION_TABLE,
    migrationLockTableName: MIGRATION_LOCK_TABLE,
    migrationTableSchema: schema,
  });
  expect((await migrator.migrateToLatest()).error).toBeUndefined();
  return all;
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

for (const kind of ['sqlite', 'postgres'] as const) {
  const skip = kind === 'postgres' && !pgUrl;
  describe.skipIf(skip)(`migrations: ${kind}${kind === 'postgres' ? pgSkipNote : ''}`, () => {
    const target = () => {
      const t = targets[kind]();
      cleanups.push(t.cleanup);
      return t;
    };

    it('apply once; reopening applies nothing and keeps every row', async () => {
      const { url, schema } = target();
      const first = captureLogger();
      const store = await openStore(url, { schema, logger: first.logger });
      expect(migratedLines(first.lines)).toHaveLength(1);
      await store.outbox.createPending({
        idempotencyKey: 'kept',
        slackUser: 'U',
        recipients: ['+1'],
        text: 't',
        segments: 1,
        encoding: 'GSM-7',
      });
      await store.audit.append({ actor: 'U', action: 'send' });
      await store.close();

      const second = captureLogger();
      const again = await openStore(url, { schema, logger: second.logger });
      expect(migratedLines(second.lines)).toHaveLength(0);
      expect(second.lines.filter((l) => l.msg === 'database ready')).toHaveLength(1);
      expect((await again.outbox.getByKey('kept'))?.text).toBe('t');
      expect(await again.audit.recent(5)).toHaveLength(1);
      await again.close();
    });

    it('upgrade a store made by the first migration alone, keeping its rows', async () => {
      const { url, schema } = target();
      const db = kyselyFor(kind, url, schema);
      const all = await migrationProvider(kind).getMigrations();
      const firstOnly = new Migrator({
        db,
        provider: { getMigrations: async () => ({ '0001_initial': all['0001_initial']! }) },
        migrationTableName: MIGRATION_TABLE,
        migrationLockTableName: MIGRATION_LOCK_TABLE,
        migrationTableSchema: schema,
      });
      expect((await firstOnly.migrateToLatest()).error).toBeUndefined();
      const old = repositories({ db, run: (op) => op(0), now: () => new Date() });
      await old.permissions.grant('U1', 'admin', 'root');
      await old.optOuts.add('+491', { source: 'stop_word' });
      await db.destroy();

      const log = captureLogger();
      const store = await openStore(url, { schema, logger: log.logger });
      expect(migratedLines(log.lines).map((l) => l.migrationsApplied)).toEqual([
        Object.keys(all).filter((name) => name !== '0001_initial'),
      ]);
      expect(Object.keys(all)).toContain('0003_redaction');
      expect(Object.keys(all)).toContain('0004_send_leases');
      expect(await store.permissions.getRole('U1')).toBe('admin');
      expect(await store.optOuts.has('+491')).toBe(true);
      await store.drafts.put('k', 'U1', { a: 1 }, new Date(Date.now() + 60_000));
      expect((await store.drafts.get('k', new Date()))?.payload).toEqual({ a: 1 });
      await store.close();
    });

    it('upgrade carries digest memory kept among the relay cursors over to its own table', async () => {
      const { url, schema } = target();
      const db = kyselyFor(kind, url, schema);
      const all = await migrateBefore(kind, db, schema, '0005_digest_memory');
      const old = repositories({ db, run: (op) => op(0), now: () => new Date() });
      const memory = '{"slot":"2030-01-01T08:00:00.000Z","at":"2030-01-01T08:00:03.000Z","usable":41.5}';
      await old.inbound.setCursor('digest:12', memory, new Date('2030-01-01T08:00:03.000Z'));
      await old.inbound.setCursor('inbound', '2030-01-01T07:59:00.000Z');
      await db.destroy();

      const log = captureLogger();
      const store = await openStore(url, { schema, logger: log.logger });
      // 0005 and whatever later migrations there are.
      expect(migratedLines(log.lines).map((l) => l.migrationsApplied)).toEqual([
        Object.keys(all).filter((name) => name >= '0005_digest_memory'),
      ]);
      expect(await store.digestMemory.get(12)).toBe(memory);
      expect(await store.digestMemory.get(13)).toBeUndefined();
      expect(await store.inbound.getCursor('inbound')).toBe('2030-01-01T07:59:00.000Z');
      await store.close();
    });

    it("upgrade moves each campaign's plan out of its row; purge and forget reach it, and a plan an older instance still writes in the row", async () => {
      const { url, schema } = target();
      const db = kyselyFor(kind, url, schema);
      await migrateBefore(kind, db, schema, '0011_campaign_plans');
      const plan = { sender: 'ACME', recipients: ['905320000001', '905320000002'], text: 'Hi' };
      const row = (key: string, state: string) => ({
        idempotency_key: key,
        create_token: 't',
        slack_user: 'U1',
        acting_user: 'U1',
        channel: 'C1',
        sender: 'ACME',
        body: 'Hi',
        plan: JSON.stringify(plan),
        recipient_count: 2,
        segments: 1,
        chunk_size: 1,
        chunk_count: 2,
        round: 0,
        cursor: 0,
        state,
        next_at: 0,
        created_at: 0,
        updated_at: 0,
      });
      const made = async (k: Kysely<Schema>, key: string, state: string) =>
        Number(
          (await k.insertInto('campaigns').values(row(key, state)).returning('id').executeTakeFirstOrThrow())
            .id,
        );
      const running = await made(db, 'running', 'running');
      const done = await made(db, 'done', 'done');
      await db.destroy();

      const store = await openStore(url, { schema });
      expect(await store.campaigns.plan(running)).toEqual(plan);
      expect(await store.campaigns.plan(done)).toEqual(plan);
      // An instance of the release before, still running during a rolling upgrade, writes the plan in the row.
      const raw = kyselyFor(kind, url, schema);
      const unmoved = await made(raw, 'unmoved', 'running');
      expect(await store.campaigns.plan(unmoved)).toEqual(plan);

      expect(await store.campaigns.forgetNumber('905320000001')).toBe(3);
      const forgotten = { ...plan, recipients: ['', '905320000002'] };
      expect(await store.campaigns.plan(running)).toEqual(forgotten);
      expect(await store.campaigns.plan(unmoved)).toEqual(forgotten);
      expect((await store.campaigns.get(running))?.redactedAt).not.toBeNull();

      await raw.updateTable('campaigns').set({ state: 'done' }).where('id', '=', unmoved).execute();
      expect(await store.campaigns.purgeContentBefore(new Date(1))).toBe(2);
      for (const id of [done, unmoved]) {
        expect(await store.campaigns.plan(id)).toBeUndefined();
        expect((await store.campaigns.get(id))?.text).toBe('');
      }
      expect(await store.campaigns.plan(running)).toEqual(forgotten);
      expect((await store.campaigns.get(running))?.text).toBe('Hi');
      await store.close();
      // No number is left in the old column.
      const left = await raw.selectFrom('campaigns').select('plan').execute();
      await raw.destroy();
      expect(left.map((r) => r.plan)).toEqual(['', '', '']);
    });

    it('are safe when several opens of one fresh store start at once: one migrates, all work', async () => {
      const { url, schema } = target();
      const logs = Array.from({ length: 4 }, () => captureLogger());
      const stores = await Promise.all(logs.map((l) => openStore(url, { schema, logger: l.logger })));
      expect(logs.flatMap((l) => migratedLines(l.lines))).toHaveLength(1);
      const claims = await Promise.all(stores.map((s, i) => s.jobRuns.claim('j', 'slot', `i${i}`)));
      expect(claims.filter(Boolean)).toHaveLength(1);
      await Promise.all(stores.map((s) => s.close()));
    });
  });
}

describe('migration definitions', () => {
  it('never drop or delete: no down steps, and no destructive statement in what they run', async () => {
    for (const kind of ['sqlite', 'postgres'] as const) {
      const migrations = await migrationProvider(kind).getMigrations();
      expect(Object.keys(migrations).every((name) => /^\d{4}_[a-z0-9_]+$/.test(name))).toBe(true);
      expect(Object.values(migrations).filter((m) => m.down)).toEqual([]);
    }
    const statements: string[] = [];
    const db = new Kysely<Schema>({
      dialect: new SqliteDialect({ database: new Database(':memory:') }),
      log: (event) => {
        statements.push(event.query.sql);
      },
    });
    await migrate(db, 'sqlite', { disableTransactions: true });
    await db.destroy();
    const ours = statements.filter((s) => /create table "(?!smsops_migration)/i.test(s));
    expect(ours.length).toBeGreaterThanOrEqual(11);
    expect(statements.filter((s) => /\b(drop|truncate|delete)\b/i.test(s))).toEqual([]);
  });
});
