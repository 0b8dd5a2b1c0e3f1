import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/log.js';
import type { RepoContext } from '../../src/store/context.js';
import { migrate } from '../../src/store/migrate.js';
import { createPool, postgresKysely } from '../../src/store/postgres.js';
import { repositories } from '../../src/store/repos/index.js';
import { Resilience } from '../../src/store/resilience.js';
import { openSqliteFile, sqliteKysely } from '../../src/store/sqlite.js';
import { dropSchema, pgSkipNote, pgUrl, scratchSchema, tempDir } from './helpers.js';

// A connection can die after the server committed a statement but before the reply arrived; the
// store then runs the statement again. These tests stage exactly that: every operation's first
// attempt is applied and its result thrown away, then the retry's answer is what the caller sees.
// A claim must still say "won" (its own earlier write), never "lost", and nothing may land twice.

type Setup = () => Promise<{ ctx: RepoContext; close(): Promise<void> }>;

const replyLost = <T>(op: (attempt: number) => Promise<T>): Promise<T> => op(0).then(() => op(1));

const setups: Record<'sqlite' | 'postgres', Setup> = {
  async sqlite() {
    const tmp = tempDir();
    const db = sqliteKysely(openSqliteFile(join(tmp.dir, 'x.db')));
    await migrate(db, 'sqlite', { disableTransactions: true });
    return {
      ctx: { db, run: replyLost, now: () => new Date() },
      close: async () => {
        await db.destroy();
        tmp.remove();
      },
    };
  },
  async postgres() {
    const schema = scratchSchema();
    const resilience = new Resilience(silentLogger, 'test', []);
    const db = postgresKysely(
      createPool({
        connectionString: pgUrl!,
        schema,
        applicationName: 'lost-reply',
        poolSize: 2,
        resilience,
      }),
    );
    await migrate(db, 'postgres', { schema });
    return {
      ctx: { db, run: replyLost, now: () => new Date() },
      close: async () => {
        await db.destroy();
        await dropSchema(schema);
      },
    };
  },
};

for (const kind of ['sqlite', 'postgres'] as const) {
  describe.skipIf(kind === 'postgres' && !pgUrl)(
    `a retried statement whose first reply was lost: ${kind}${kind === 'postgres' ? pgSkipNote : ''}`,
    () => {
      let close: () => Promise<void> = async () => undefined;
      afterEach(() => close());

      async function repos() {
        const setup = await setups[kind]();
        close = setup.close;
        return repositories(setup.ctx);
      }

      it('still reports the claim won, and a rival still loses', async () => {
        const r = await repos();
        expect(await r.jobRuns.claim('j', 'slot', 'me')).toBe(true);
        expect(await r.jobRuns.claim('j', 'slot', 'rival')).toBe(false);
        expect(await r.inbound.claim('1', 'me')).toBe(true);
        expect(await r.inbound.claim('1', 'rival')).toBe(false);
        expect(await r.inbound.claimMany(['1', '2', '3'], 'me')).toEqual(new Set(['2', '3']));
        expect(await r.inbound.claimMany(['3', '4'], 'rival')).toEqual(new Set(['4']));
      });

      it('still reports the send created once, and its transitions won', async () => {
        const r = await repos();
        const intent = {
          idempotencyKey: 'k',
          slackUser: 'U',
          recipients: ['+1'],
          text: 't',
          segments: 1,
          encoding: 'GSM-7',
        };
        const { row, created } = await r.outbox.createPending(intent);
        expect(created).toBe(true);
        expect((await r.outbox.createPending(intent)).created).toBe(false);
        expect(await r.outbox.markSubmitted(row.id, '99')).toBe(true);
        expect(await r.outbox.markFailed(row.id, 'rival')).toBe(false);
        const progress = {
          delivered: 1,
          undelivered: 0,
          count: 1,
          state: 'ok',
          final: true,
          nextPollAt: null,
        };
        expect(await r.outbox.recordProgress(row.id, { ...progress, lastPolledAt: new Date() })).toBe(true);
        const other = (await r.outbox.createPending({ ...intent, idempotencyKey: 'k2' })).row;
        expect(await r.outbox.markCancelled(other.id, 'U')).toBe(true);
        const third = (await r.outbox.createPending({ ...intent, idempotencyKey: 'k3' })).row;
        expect(await r.outbox.markUnknown(third.id, 'timeout')).toBe(true);
      });

      it('appends one audit entry, and moves an alert state once', async () => {
        const r = await repos();
        await r.audit.append({ actor: 'U', action: 'send' });
        expect(await r.audit.recent(10)).toHaveLength(1);
        const { subscription } = await r.subscriptions.add('C', { kind: 'low_balance', threshold: 1 }, 'U');
        expect(
          await r.subscriptions.setAlertState(subscription.id, { from: null, to: 'low', at: new Date() }),
        ).toBe(true);
      });
    },
  );
}
