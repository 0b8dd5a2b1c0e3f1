import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RETENTION_JOB, RetentionPurge } from '../../src/jobs/retention.js';
import { MENTION_JOB } from '../../src/slack/events/mention.js';
import type { Store } from '../../src/store/index.js';
import { captureLogger } from '../support/logs.js';
import { tempStore } from './digest-fakes.js';

const DAY = 86_400_000;
const NOW = new Date('2026-11-20T03:00:00Z');
const daysAgo = (days: number) => new Date(NOW.getTime() - days * DAY);

let store: Store;
let close: () => Promise<void>;

beforeEach(async () => {
  ({ store, close } = await tempStore());
});
afterEach(() => close());

async function finishedSend(key: string, createdAt: Date, recipients = ['905321234567', '905331234567']) {
  const { row } = await store.outbox.createPending({
    idempotencyKey: key,
    slackUser: 'U0ALICE',
    channel: 'C0SMSOPS',
    sender: 'ACME',
    recipients,
    text: `Your order ${key} is ready`,
    segments: 1,
    encoding: 'GSM-7',
    estimatedCost: 0.1,
    at: createdAt,
  });
  await store.outbox.markSubmitted(row.id, String(100 + row.id), { at: createdAt });
  await store.outbox.recordProgress(row.id, {
    delivered: recipients.length,
    undelivered: 0,
    count: recipients.length,
    state: 'Delivered',
    final: true,
    nextPollAt: null,
    lastPolledAt: createdAt,
  });
  return row.id;
}

function purger(instanceId: string, logger = captureLogger().logger) {
  return new RetentionPurge({ store, logger, settings: { retentionDays: 180, instanceId } });
}

describe('RetentionPurge (RETENTION_DAYS)', () => {
  it('purges texts and numbers older than RETENTION_DAYS once a day across instances, keeping counts and ids', async () => {
    const old = await finishedSend('old', daysAgo(181));
    const young = await finishedSend('young', daysAgo(179));
    await store.inbound.saveThread('C0SMSOPS', '905321234567', '111.1', daysAgo(200));
    await store.inbound.saveThread('C0SMSOPS', '905331234567', '222.2', daysAgo(1));
    // A confirmation draft nobody confirmed, long expired.
    await store.drafts.put('draft:V1', 'U0ALICE', { draft: { recipients: ['905321234567'] } }, daysAgo(1));

    const { logger, lines } = captureLogger();
    expect(await purger('a', logger).runDue(NOW)).toEqual({ sends: 1, drafts: 1, threads: 1, jobClaims: 0 });
    expect(lines.find((l) => l.msg === 'personal data older than RETENTION_DAYS purged')).toMatchObject({
      retentionDays: 180,
      before: daysAgo(180).toISOString(),
      sends: 1,
    });
    expect(await store.outbox.get(old)).toMatchObject({
      text: '',
      recipients: [],
      recipientCount: 2,
      segments: 1,
      estimatedCost: 0.1,
      messageId: String(100 + old),
      delivery: { delivered: 2, count: 2, final: true },
      redactedAt: NOW,
    });
    expect(await store.outbox.get(young)).toMatchObject({
      text: 'Your order young is ready',
      recipients: ['905321234567', '905331234567'],
    });
    expect(await store.inbound.findThread('C0SMSOPS', '905321234567', daysAgo(365))).toBeUndefined();
    expect(await store.inbound.findThread('C0SMSOPS', '905331234567', daysAgo(365))).toBe('222.2');

    // Another instance the same day finds the day claimed and does nothing.
    expect(await purger('b').runDue(new Date(NOW.getTime() + 3_600_000))).toBeUndefined();
    expect((await store.outbox.get(young))?.text).toBe('Your order young is ready');
    // The next day one of them purges what has grown old meanwhile.
    const tomorrow = new Date(NOW.getTime() + 2 * DAY);
    expect(await purger('b').runDue(tomorrow)).toEqual({ sends: 1, drafts: 0, threads: 0, jobClaims: 0 });
    expect(await store.outbox.get(young)).toMatchObject({ text: '', recipients: [], recipientCount: 2 });
    expect((await store.jobRuns.runs(RETENTION_JOB, 10)).map((r) => [r.slot, r.instanceId])).toEqual([
      ['2026-11-22', 'b'],
      ['2026-11-20', 'a'],
    ]);
  });

  it('forgets job claims older than a week, each job keeping its latest', async () => {
    // A mention is claimed per mention, a digest per slot: without this the table grows for ever.
    await store.jobRuns.claim(MENTION_JOB, 'C0SMSOPS:1700000000.000100', 'a', daysAgo(8));
    await store.jobRuns.claim(MENTION_JOB, 'C0SMSOPS:1700000000.000200', 'a', daysAgo(6));
    await store.jobRuns.claim('digest:5', '2026-10-21T06:00:00.000Z', 'a', daysAgo(30));
    await store.jobRuns.claim('digest:5', '2026-10-20T06:00:00.000Z', 'a', daysAgo(31));

    const { logger, lines } = captureLogger();
    expect((await purger('a', logger).runDue(NOW))?.jobClaims).toBe(2);
    expect(lines.find((l) => l.msg === 'job claims older than a week forgotten')).toMatchObject({
      jobClaims: 2,
    });
    expect((await store.jobRuns.runs(MENTION_JOB, 10)).map((r) => r.slot)).toEqual([
      'C0SMSOPS:1700000000.000200',
    ]);
    // The subscription's last digest is still known, however long ago it was.
    expect((await store.jobRuns.runs('digest:5', 10)).map((r) => r.slot)).toEqual([
      '2026-10-21T06:00:00.000Z',
    ]);
    // A claim still within the week is still contended: a redelivered mention is not shown twice.
    expect(await store.jobRuns.claim(MENTION_JOB, 'C0SMSOPS:1700000000.000200', 'b', NOW)).toBe(false);
  });

  it('a shorter RETENTION_DAYS reaches further', async () => {
    const id = await finishedSend('week-old', daysAgo(8));
    const p = new RetentionPurge({
      store,
      logger: captureLogger().logger,
      settings: { retentionDays: 7, instanceId: 'a' },
    });
    expect((await p.runDue(NOW))?.sends).toBe(1);
    expect((await store.outbox.get(id))?.text).toBe('');
  });
});
