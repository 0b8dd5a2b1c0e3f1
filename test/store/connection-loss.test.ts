import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore, StoreUnavailableError } from '../../src/store/index.js';
import { captureLogger } from '../support/logs.js';
import { dropSchema, pgSkipNote, pgUrl, scratchSchema, withAdmin } from './helpers.js';
import { proxyInFront } from './tcp-proxy.js';

const warnings = (lines: Array<Record<string, unknown>>) =>
  lines.filter((l) => l.msg === 'database unavailable; retrying');
const recoveries = (lines: Array<Record<string, unknown>>) =>
  lines.filter((l) => l.msg === 'database available again');

// SQLite has no connection to lose; its counterpart, a writer holding the lock, is in the race test.
describe.skipIf(!pgUrl)(`postgres connection loss while running${pgSkipNote}`, () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function open(url: string, appName: string, retry?: { retries?: number; baseDelayMs?: number }) {
    const schema = scratchSchema();
    cleanups.push(() => dropSchema(schema));
    const log = captureLogger();
    const store = await openStore(url, { schema, logger: log.logger, applicationName: appName, retry });
    cleanups.push(() => store.close());
    return { store, ...log };
  }

  const terminate = (appName: string) =>
    withAdmin(async (client) => {
      const { rows } = await client.query(
        'select pg_terminate_backend(pid) as done from pg_stat_activity where application_name = $1 and pid <> pg_backend_pid()',
        [appName],
      );
      return rows.length;
    });

  it('keeps working when the server terminates its connections, idle or busy, without losing or doubling a claim', async () => {
    const appName = `smsops-test-${Date.now()}`;
    const { store, lines } = await open(pgUrl!, appName);
    // Fill the pool so there are idle connections to kill.
    await Promise.all(Array.from({ length: 20 }, (_, i) => store.jobRuns.claim('warm', String(i), 'me')));
    expect(await terminate(appName)).toBeGreaterThan(0);
    await sleep(50);
    expect(await store.jobRuns.claim('after-idle-kill', 'x', 'me')).toBe(true);

    // Now kill them again and again while claims are in flight, including connections still being opened.
    for (let round = 0; round < 4; round++) {
      const claims = Promise.all(
        Array.from({ length: 300 }, (_, i) => store.inbound.claim(`busy-${round}-${i}`, 'me')),
      );
      for (const pause of [2, 10, 25]) {
        await sleep(pause);
        await terminate(appName);
      }
      // Each Id was new, so each claim must report a win exactly once, even when its first reply was lost.
      expect((await claims).every(Boolean)).toBe(true);
    }
    expect(await store.inbound.recent(2_000)).toHaveLength(1_200);
    expect(await store.health()).toEqual({ ok: true });
    expect(warnings(lines).length).toBeGreaterThanOrEqual(1);
    expect(recoveries(lines).length).toBe(warnings(lines).length);
    // No connection may leak out of the pool along the way, or closing would wait for it forever.
    const closing = await Promise.race([
      store.close().then(() => 'closed'),
      sleep(5_000).then(() => 'stuck'),
    ]);
    expect(closing).toBe('closed');
  });

  it('reports an outage in health(), waits it out within the retry budget, and logs it once', async () => {
    const { proxy, viaProxy } = await proxyInFront(pgUrl!);
    cleanups.push(() => proxy.cut());
    const { store, lines } = await open(viaProxy.toString(), 'smsops-outage', {
      retries: 8,
      baseDelayMs: 100,
    });
    await store.permissions.grant('U1', 'admin', 'root');

    await proxy.cut();
    const health = await store.health();
    expect(health.ok).toBe(false);
    expect(health.detail).toMatch(/^database postgres:\/\/.*127\.0\.0\.1:\d+\/.* unreachable: /);

    // Twenty operations run into the outage; the proxy comes back while they are retrying.
    const during = Promise.all(
      Array.from({ length: 20 }, (_, i) => store.jobRuns.claim('outage', String(i), 'me')),
    );
    await sleep(400);
    await proxy.start();
    expect((await during).every(Boolean)).toBe(true);
    expect(await store.permissions.getRole('U1')).toBe('admin');
    expect(await store.health()).toEqual({ ok: true });
    expect(warnings(lines)).toHaveLength(1);
    expect(recoveries(lines)).toHaveLength(1);
    expect(JSON.stringify(lines)).not.toMatch(/password/i);
  });

  it('gives up with a clear error when the outage outlasts the retries, then recovers', async () => {
    const { proxy, viaProxy } = await proxyInFront(pgUrl!);
    cleanups.push(() => proxy.cut());
    viaProxy.password = 'not-needed-with-trust';
    const { store } = await open(viaProxy.toString(), 'smsops-giveup', { retries: 2, baseDelayMs: 20 });

    await proxy.cut();
    const failure = await store.templates.list().catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(StoreUnavailableError);
    expect((failure as Error).message).toMatch(
      /^database postgres:\/\/.*:\*\*\*@127\.0\.0\.1:\d+\/\S+ unavailable: /,
    );
    expect((failure as Error).message).not.toContain('not-needed-with-trust');

    await proxy.start();
    expect(await store.templates.list()).toEqual([]);
  });
});
