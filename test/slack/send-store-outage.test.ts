import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openStore } from '../../src/store/index.js';
import { dropSchema, pgSkipNote, pgUrl, scratchSchema } from '../store/helpers.js';
import { proxyInFront, type TcpProxy } from '../store/tcp-proxy.js';
import { captureLogger } from '../support/logs.js';
import { channels, type Harness, startHarness, textBlockOf, users } from '../support/slack-harness.js';

/**
 * The database goes away right after the gateway accepted a send, while its reply is on the way. The
 * MessageId is in the log before any store write, and it is recorded once the database is back: the
 * modal, the outbox, the audit and the card all name the batch.
 */
describe.skipIf(!pgUrl)(`a store outage right after Submit${pgSkipNote}`, () => {
  let h: Harness;
  let proxy: TcpProxy;
  const schema = scratchSchema();
  const log = captureLogger();

  beforeAll(async () => {
    let viaProxy: URL;
    ({ proxy, viaProxy } = await proxyInFront(pgUrl!));
    // The store gives up on an operation after about a tenth of a second: the outage outlasts that.
    const store = await openStore(viaProxy.toString(), { schema, retry: { retries: 2, baseDelayMs: 20 } });
    h = await startHarness({ store, logger: log.logger });
  });
  afterAll(async () => {
    await proxy.start().catch(() => undefined);
    await h?.close();
    await proxy.cut();
    await dropSchema(schema);
  });

  it('does not lose the MessageId: it is logged first and recorded once the store is back', async () => {
    const start = h.fake.state.journal.seq;
    // The reply drips in for 1.5 s: time to cut the database while the gateway already has the batch.
    await h.control.fault({ operation: 'Submit', kind: 'trickle', delayMs: 1_500 });
    const view = await h.openCompose();
    await h.driver.viewSubmission({
      userId: users.admin,
      view,
      values: {
        recipients: { recipients: '0532 123 45 67' },
        [textBlockOf(view)]: { text: 'store went away' },
      },
    });
    await h.fake.state.waitFor('view', (e) => JSON.stringify(e.view.blocks).includes('Sending to'), {
      after: start,
    });
    await vi.waitFor(async () => expect(await h.control.callCount('Submit')).toBe(1), {
      timeout: 10_000,
      interval: 20,
    });
    await proxy.cut();

    // Wait until the send met the outage beyond the store's own retries: it says it retries the write
    // (before this fix, the send gave up instead and its MessageId was never recorded).
    await waitForLine(
      (l) =>
        l.msg === 'MessageId of an accepted SMS batch not stored yet; retrying' ||
        l.msg === 'send failed before the gateway',
    );
    await proxy.start();

    await h.fake.state.waitFor(
      'view',
      (e) => JSON.stringify(e.view.blocks).includes('Sent. Batch *100001*'),
      {
        after: start,
        timeoutMs: 30_000,
      },
    );
    const row = (await h.store.outbox.recent(5)).find((r) => r.text === 'store went away');
    expect(row).toMatchObject({ state: 'submitted', messageId: '100001' });
    const audit = await h.store.audit.recent(5);
    expect(audit.filter((a) => a.action === 'send' && a.target === '100001')).toHaveLength(1);
    await h.fake.state.waitForMessage(
      (m) => m.channel === channels.smsOps && m.text.startsWith('SMS batch 100001:'),
      { after: start, timeoutMs: 10_000 },
    );
    expect(await h.control.callCount('Submit')).toBe(1);

    // The MessageId was in the log in one line before the first store write for it failed.
    const accepted = log.lines.find((l) => l.msg === 'gateway accepted the SMS batch');
    const failed = log.lines.find(
      (l) => l.msg === 'MessageId of an accepted SMS batch not stored yet; retrying',
    );
    expect(accepted?.messageId).toBe(100001);
    expect(failed?.messageId).toBe('100001');
    expect(log.lines.indexOf(accepted!)).toBeLessThan(log.lines.indexOf(failed!));
  }, 60_000);

  function waitForLine(match: (line: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> {
    return vi.waitFor(
      () => {
        const line = log.lines.find(match);
        if (!line) throw new Error(`no such log line yet; got: ${log.lines.map((l) => l.msg).join(' | ')}`);
        return line;
      },
      { timeout: 20_000, interval: 20 },
    );
  }
});
