import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PackedNumbers } from '../../src/sms/packed-numbers.js';
import { PackedStrings } from '../../src/sms/packed-strings.js';
import type { SendIntent, Store } from '../../src/store/index.js';
import type { JsonValue } from '../../src/store/types.js';
import type { Backend, OpenedStore } from './helpers.js';

const T0 = new Date('2030-01-01T00:00:00.000Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

const intent = (key: string, extra: Partial<SendIntent> = {}): SendIntent => ({
  idempotencyKey: key,
  slackUser: 'U1',
  channel: 'C1',
  sender: 'ACME',
  recipients: ['+4915112345678', '+4915187654321'],
  text: 'Hello ✓',
  segments: 1,
  encoding: 'UCS-2',
  estimatedCost: 0.075,
  payload: { template: 'greeting', vars: { n: 1 } },
  at: T0,
  ...extra,
});

/** The behaviour every backend must show; run once per backend. */
export function storeContract(backend: Backend): void {
  let opened: OpenedStore;
  let store: Store;

  beforeEach(async () => {
    opened = await backend.open();
    store = opened.store;
  });
  afterEach(async () => {
    await opened.cleanup();
  });

  it('reports its kind and health, and not-ok once closed', async () => {
    expect(store.kind).toBe(backend.name);
    expect(await store.health()).toEqual({ ok: true });
    await store.close();
    expect(await store.health()).toMatchObject({ ok: false });
  });

  describe('outbox', () => {
    it('creates one row per idempotency key and round-trips every field', async () => {
      const first = await store.outbox.createPending(intent('k1'));
      expect(first.created).toBe(true);
      expect(first.row).toMatchObject({
        idempotencyKey: 'k1',
        slackUser: 'U1',
        channel: 'C1',
        sender: 'ACME',
        recipients: ['+4915112345678', '+4915187654321'],
        recipientCount: 2,
        text: 'Hello ✓',
        segments: 1,
        encoding: 'UCS-2',
        estimatedCost: 0.075,
        payload: { template: 'greeting', vars: { n: 1 } },
        state: 'pending',
        messageId: null,
        createdAt: T0,
        delivery: { delivered: 0, undelivered: 0, count: 0, final: false, nextPollAt: null },
      });
      const again = await store.outbox.createPending(intent('k1', { text: 'different' }));
      expect(again).toEqual({ row: first.row, created: false });
      expect(await store.outbox.getByKey('k1')).toEqual(first.row);
      expect(await store.outbox.get(first.row.id)).toEqual(first.row);
      expect(await store.outbox.get(999_999)).toBeUndefined();
    });

    it('lets exactly one of many simultaneous identical intents create the row', async () => {
      const results = await Promise.all(
        Array.from({ length: 20 }, () => store.outbox.createPending(intent('dup'))),
      );
      expect(results.filter((r) => r.created)).toHaveLength(1);
      expect(new Set(results.map((r) => r.row.id)).size).toBe(1);
      expect(await store.outbox.recent(10)).toHaveLength(1);
    });

    it('moves pending to submitted once, keeping a 64-bit MessageId exact', async () => {
      const { row } = await store.outbox.createPending(intent('k'));
      const big = 18446744073709551615n;
      expect(await store.outbox.markSubmitted(row.id, big, { at: at(1) })).toBe(true);
      expect(await store.outbox.markSubmitted(row.id, '5', { at: at(2) })).toBe(false);
      expect(await store.outbox.markFailed(row.id, 'late', at(2))).toBe(false);
      expect(await store.outbox.markUnknown(row.id, 'late', at(2))).toBe(false);
      const got = await store.outbox.getByMessageId('18446744073709551615');
      expect(got).toMatchObject({ id: row.id, state: 'submitted', messageId: '18446744073709551615' });
      expect(got?.submittedAt).toEqual(at(1));
      expect(got?.delivery.nextPollAt).toEqual(at(1));
      expect(await store.outbox.getByMessageId(18446744073709551614n)).toBeUndefined();
    });

    it('gives the pending-to-final race to exactly one caller', async () => {
      const { row } = await store.outbox.createPending(intent('race'));
      const outcomes = await Promise.all([
        store.outbox.markSubmitted(row.id, '1'),
        store.outbox.markFailed(row.id, 'gateway said no'),
        store.outbox.markUnknown(row.id, 'timeout'),
        store.outbox.markSubmitted(row.id, '2'),
      ]);
      expect(outcomes.filter(Boolean)).toHaveLength(1);
    });

    it('records failure and unknown outcomes with their reason', async () => {
      const a = (await store.outbox.createPending(intent('a'))).row;
      const b = (await store.outbox.createPending(intent('b'))).row;
      expect(await store.outbox.markFailed(a.id, 'invalid number', at(3))).toBe(true);
      expect(await store.outbox.markUnknown(b.id, 'gateway timed out', at(3))).toBe(true);
      expect(await store.outbox.get(a.id)).toMatchObject({ state: 'failed', reason: 'invalid number' });
      expect((await store.outbox.get(a.id))?.delivery.final).toBe(true);
      expect(await store.outbox.get(b.id)).toMatchObject({ state: 'unknown', reason: 'gateway timed out' });
    });

    it('takes a pending send for abandoned only once its owner stopped renewing the lease', async () => {
      const live = (await store.outbox.createPending(intent('live', { owner: 'A', leaseUntil: at(30) }))).row;
      expect(live).toMatchObject({ owner: 'A', leaseUntil: at(30) });
      // A row from before leases is judged by its age.
      const old = (await store.outbox.createPending(intent('old', { at: at(0) }))).row;
      const test = (now: number, unleasedBefore = -1) => ({
        now: at(now),
        unleasedBefore: at(unleasedBefore),
      });

      expect(await store.outbox.abandonedPending(test(29), 10)).toEqual([]);
      expect((await store.outbox.abandonedPending(test(31), 10)).map((r) => r.id)).toEqual([live.id]);
      expect((await store.outbox.abandonedPending(test(31, 1), 10)).map((r) => r.id)).toEqual([
        live.id,
        old.id,
      ]);

      // The owner renews while its call is in flight: the reaper that read the row before loses.
      expect(await store.outbox.renewLease(live.id, 'B', at(90))).toBe(false);
      expect(await store.outbox.renewLease(live.id, 'A', at(60))).toBe(true);
      expect(await store.outbox.markAbandoned(live.id, 'owner gone', test(31))).toBe(false);
      expect((await store.outbox.get(live.id))?.state).toBe('pending');
      expect(await store.outbox.abandonedPending(test(59), 10)).toEqual([]);
      const reapers = await Promise.all(
        [1, 2, 3].map(() => store.outbox.markAbandoned(live.id, 'owner gone', test(61))),
      );
      expect(reapers.filter(Boolean)).toHaveLength(1);
      expect(await store.outbox.get(live.id)).toMatchObject({ state: 'unknown', reason: 'owner gone' });
      expect(await store.outbox.renewLease(live.id, 'A', at(120))).toBe(false);
      expect(await store.outbox.markAbandoned(old.id, 'too old', test(61, 1))).toBe(true);

      // Submitted, failed and unknown sends are never abandoned.
      const done = (await store.outbox.createPending(intent('done', { owner: 'A', leaseUntil: at(1) }))).row;
      await store.outbox.markSubmitted(done.id, '9');
      expect(await store.outbox.abandonedPending(test(1000, 1000), 10)).toEqual([]);
    });

    it('resolves an unknown send: a MessageId makes it submitted and polled, or a person marks it not sent', async () => {
      const late = (await store.outbox.createPending(intent('late'))).row;
      const gone = (await store.outbox.createPending(intent('gone'))).row;
      const pending = (await store.outbox.createPending(intent('pending'))).row;
      await store.outbox.markUnknown(late.id, 'timed out', at(1));
      await store.outbox.markUnknown(gone.id, 'timed out', at(1));
      // markSubmitted stays pending-only; the late path is its own, explicit transition.
      expect(await store.outbox.markSubmitted(late.id, '41', { at: at(2) })).toBe(false);
      expect(await store.outbox.resolveSubmitted(pending.id, '41', { note: 'x', at: at(2) })).toBe(false);

      const resolving = await Promise.all([
        store.outbox.resolveSubmitted(late.id, '41', { note: 'reply came late', at: at(2) }),
        store.outbox.resolveSubmitted(late.id, '42', { note: 'reply came late', at: at(2) }),
      ]);
      expect(resolving.filter(Boolean)).toHaveLength(1);
      const resolved = await store.outbox.get(late.id);
      expect(resolved).toMatchObject({ state: 'submitted', reason: 'reply came late', submittedAt: at(2) });
      expect(['41', '42']).toContain(resolved!.messageId);
      expect(resolved!.delivery.final).toBe(false);
      expect((await store.outbox.dueForPoll(at(2), 10)).map((r) => r.id)).toEqual([late.id]);
      expect(await store.outbox.resolveNotSent(late.id, 'nope', at(3))).toBe(false);

      expect(await store.outbox.resolveNotSent(pending.id, 'nope', at(3))).toBe(false);
      expect(await store.outbox.resolveNotSent(gone.id, 'no match at the gateway', at(3))).toBe(true);
      expect(await store.outbox.get(gone.id)).toMatchObject({
        state: 'failed',
        reason: 'no match at the gateway',
      });
      expect((await store.outbox.get(gone.id))?.delivery.final).toBe(true);
      // A MessageId that turns up after all still wins over "not sent": the batch went out.
      expect(await store.outbox.resolveSubmitted(gone.id, '43', { note: 'reply came late', at: at(4) })).toBe(
        true,
      );
      expect(await store.outbox.get(gone.id)).toMatchObject({ state: 'submitted', messageId: '43' });
    });

    it('cancels pending or still-running sends only', async () => {
      const pending = (await store.outbox.createPending(intent('p'))).row;
      const running = (await store.outbox.createPending(intent('r'))).row;
      const failed = (await store.outbox.createPending(intent('f'))).row;
      await store.outbox.markSubmitted(running.id, '7');
      await store.outbox.markFailed(failed.id, 'x');
      expect(await store.outbox.markCancelled(pending.id, 'U2', at(5))).toBe(true);
      expect(await store.outbox.markCancelled(pending.id, 'U3', at(6))).toBe(false);
      expect(await store.outbox.markCancelled(running.id, 'U2', at(5))).toBe(true);
      expect(await store.outbox.markCancelled(failed.id, 'U2', at(5))).toBe(false);
      expect(await store.outbox.get(pending.id)).toMatchObject({
        state: 'cancelled',
        cancelledBy: 'U2',
        cancelledAt: at(5),
      });
      // The cancelled batch the gateway had is asked once more (what it delivered and cancelled), at once.
      expect((await store.outbox.dueForPoll(at(1000), 10)).map((r) => r.id)).toEqual([running.id]);
      expect(await store.outbox.get(running.id)).toMatchObject({
        delivery: { final: false, nextPollAt: at(5) },
      });
      expect((await store.outbox.get(pending.id))?.delivery.final).toBe(true);
      const report = { delivered: 1, undelivered: 0, count: 3, state: 'PartiallyDelivered', final: true };
      await store.outbox.recordProgress(running.id, { ...report, lastPolledAt: at(6), nextPollAt: null });
      expect(await store.outbox.dueForPoll(at(1000), 10)).toEqual([]);
    });

    it('lists sends due for a poll, soonest first, and stops after the final result', async () => {
      const ids: number[] = [];
      for (const [key, due] of [
        ['late', 30],
        ['early', 10],
        ['mid', 20],
        ['future', 99],
      ] as const) {
        const { row } = await store.outbox.createPending(intent(key));
        await store.outbox.markSubmitted(row.id, String(row.id), { at: T0, nextPollAt: at(due) });
        ids.push(row.id);
      }
      await store.outbox.createPending(intent('still-pending'));
      const due = await store.outbox.dueForPoll(at(30), 10);
      expect(due.map((r) => r.idempotencyKey)).toEqual(['early', 'mid', 'late']);
      expect(await store.outbox.dueForPoll(at(30), 2)).toHaveLength(2);

      const [early] = due;
      expect(
        await store.outbox.recordProgress(early!.id, {
          delivered: 1,
          undelivered: 0,
          count: 2,
          state: 'partly delivered',
          final: false,
          nextPollAt: at(60),
          lastPolledAt: at(30),
        }),
      ).toBe(true);
      expect((await store.outbox.get(early!.id))?.delivery).toEqual({
        delivered: 1,
        undelivered: 0,
        count: 2,
        state: 'partly delivered',
        final: false,
        lastPolledAt: at(30),
        nextPollAt: at(60),
      });
      const final = { delivered: 1, undelivered: 1, count: 2, state: 'done', final: true, nextPollAt: null };
      expect(await store.outbox.recordProgress(early!.id, { ...final, lastPolledAt: at(61) })).toBe(true);
      expect(
        await store.outbox.recordProgress(early!.id, { ...final, delivered: 0, lastPolledAt: at(62) }),
      ).toBe(false);
      expect((await store.outbox.get(early!.id))?.delivery).toMatchObject({ delivered: 1, final: true });
      expect((await store.outbox.dueForPoll(at(1000), 10)).map((r) => r.idempotencyKey)).toEqual([
        'mid',
        'late',
        'future',
      ]);
    });

    it('leases due sends so concurrent pollers never get the same one', async () => {
      for (let i = 0; i < 30; i++) {
        const { row } = await store.outbox.createPending(intent(`lease-${i}`));
        await store.outbox.markSubmitted(row.id, String(1000 + i), { nextPollAt: at(i) });
      }
      const batches = await Promise.all(
        Array.from({ length: 6 }, () => store.outbox.claimDueForPoll(at(100), 8, at(200))),
      );
      // A poller that loses rows to a rival gets a shorter batch, never a shared row; the rest come next time.
      for (;;) {
        const more = await store.outbox.claimDueForPoll(at(100), 8, at(200));
        if (more.length === 0) break;
        batches.push(more);
      }
      const ids = batches.flat().map((r) => r.id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids).toHaveLength(30);
      expect(batches.flat().every((r) => r.delivery.nextPollAt?.getTime() === at(200).getTime())).toBe(true);
      expect(await store.outbox.dueForPoll(at(199), 50)).toEqual([]);
    });

    it('remembers the delivery card and serves dashboards', async () => {
      const a = (await store.outbox.createPending(intent('a', { at: at(0) }))).row;
      const b = (await store.outbox.createPending(intent('b', { at: at(10), channel: null }))).row;
      expect(await store.outbox.setCardMessage(b.id, 'C9', '1700000000.000100')).toBe(true);
      expect(await store.outbox.get(b.id)).toMatchObject({ channel: 'C9', messageTs: '1700000000.000100' });
      expect((await store.outbox.recent(1)).map((r) => r.id)).toEqual([b.id]);
      expect((await store.outbox.recent(5)).map((r) => r.id)).toEqual([b.id, a.id]);
      expect((await store.outbox.sentSince(at(5))).map((r) => r.id)).toEqual([b.id]);
      expect((await store.outbox.sentSince(at(0))).map((r) => r.id)).toEqual([a.id, b.id]);
    });

    it('counts sends by state, telling batches still tracked from finished ones (for /metrics)', async () => {
      expect(await store.outbox.countByState()).toEqual([]);
      // The fourth stays pending.
      const [a, b, c] = await Promise.all(
        ['a', 'b', 'c', 'd'].map(async (key) => (await store.outbox.createPending(intent(key))).row),
      );
      await store.outbox.markSubmitted(a!.id, '11', { at: at(1) });
      await store.outbox.markSubmitted(b!.id, '12', { at: at(1) });
      await store.outbox.recordProgress(b!.id, {
        delivered: 2,
        undelivered: 0,
        count: 2,
        state: 'Delivered',
        final: true,
        lastPolledAt: at(2),
        nextPollAt: null,
      });
      await store.outbox.markUnknown(c!.id, 'gateway timed out', at(3));
      const counts = (await store.outbox.countByState()).sort((x, y) =>
        `${x.state}${x.final}`.localeCompare(`${y.state}${y.final}`),
      );
      expect(counts).toEqual([
        { state: 'pending', final: false, count: 1 },
        { state: 'submitted', final: false, count: 1 },
        { state: 'submitted', final: true, count: 1 },
        { state: 'unknown', final: false, count: 1 },
      ]);
    });
  });

  describe('inbound', () => {
    it('lets exactly one caller claim an Id, until it is released unposted', async () => {
      const claims = await Promise.all(
        Array.from({ length: 10 }, (_, i) => store.inbound.claim('900719925474099312', `i${i}`)),
      );
      expect(claims.filter(Boolean)).toHaveLength(1);
      expect(await store.inbound.isPosted('900719925474099312')).toBe(false);
      expect(await store.inbound.release('900719925474099312')).toBe(true);
      expect(await store.inbound.claim(900719925474099312n, 'again')).toBe(true);
      expect((await store.inbound.get('900719925474099312'))?.claimedBy).toBe('again');
    });

    it('claims a batch in one go, each Id won by exactly one of several overlapping batches', async () => {
      await store.inbound.claim('5', 'early');
      const ids = Array.from({ length: 1_200 }, (_, i) => String(i));
      const [a, b, c] = await Promise.all([
        store.inbound.claimMany(ids, 'a'),
        store.inbound.claimMany(ids.slice(600).reverse(), 'b'),
        store.inbound.claimMany([...ids.slice(0, 700), ...ids.slice(0, 10)], 'c'),
      ]);
      const all = [...a!, ...b!, ...c!];
      expect(all).toHaveLength(1_199);
      expect(new Set(all).size).toBe(1_199);
      expect(all).not.toContain('5');
      expect((await store.inbound.get('1100'))?.claimedBy).toBe(a!.has('1100') ? 'a' : 'b');
      expect(await store.inbound.claimMany([], 'a')).toEqual(new Set());
    });

    it('marks a message posted where it went, and then will not release it', async () => {
      await store.inbound.claim('42', 'a', { at: at(0) });
      expect(await store.inbound.markPosted('42', { channel: 'C1', ts: '1.2', threadTs: '1.1' }, at(1))).toBe(
        true,
      );
      expect(await store.inbound.isPosted('42')).toBe(true);
      expect(await store.inbound.release('42')).toBe(false);
      expect(await store.inbound.claim('42', 'b')).toBe(false);
      expect(await store.inbound.get('42')).toEqual({
        gatewayId: '42',
        claimedBy: 'a',
        claimedAt: at(0),
        posted: true,
        channel: 'C1',
        ts: '1.2',
        threadTs: '1.1',
        postedAt: at(1),
      });
      expect(await store.inbound.markPosted('43', { channel: 'C1', ts: '1.3' })).toBe(false);
    });

    it('takes over a stale unposted claim only after its lease', async () => {
      await store.inbound.claim('7', 'dead', { at: at(0) });
      expect(await store.inbound.claim('7', 'b', { at: at(10), leaseMs: 60_000 })).toBe(false);
      expect(await store.inbound.claim('7', 'b', { at: at(61), leaseMs: 60_000 })).toBe(true);
      expect(await store.inbound.claim('7', 'c', { at: at(62), leaseMs: 60_000 })).toBe(false);
      expect((await store.inbound.get('7'))?.claimedBy).toBe('b');
      await store.inbound.markPosted('7', { channel: 'C', ts: '1' });
      expect(await store.inbound.claim('7', 'd', { at: at(1000), leaseMs: 1 })).toBe(false);
    });

    it('keeps relay cursors and conversation threads', async () => {
      expect(await store.inbound.getCursor('relay')).toBeUndefined();
      await store.inbound.setCursor('relay', '100');
      await store.inbound.setCursor('relay', '250');
      expect(await store.inbound.getCursor('relay')).toBe('250');

      expect(await store.inbound.findThread('C1', '+491', at(0))).toBeUndefined();
      await store.inbound.saveThread('C1', '+491', '111.1', at(10));
      expect(await store.inbound.findThread('C1', '+491', at(5))).toBe('111.1');
      expect(await store.inbound.findThread('C1', '+491', at(11))).toBeUndefined();
      expect(await store.inbound.findThread('C2', '+491', at(5))).toBeUndefined();
      await store.inbound.saveThread('C1', '+491', '222.2', at(20));
      expect(await store.inbound.findThread('C1', '+491', at(15))).toBe('222.2');
    });

    it('names the numbers whose current conversation is a thread (several for a shared post)', async () => {
      await store.inbound.saveThread('C1', '+492', '300.1', at(10));
      await store.inbound.saveThread('C1', '+491', '300.1', at(10));
      await store.inbound.saveThread('C2', '+493', '300.1', at(10));
      expect(await store.inbound.numbersInThread('C1', '300.1')).toEqual(['+491', '+492']);
      expect(await store.inbound.numbersInThread('C2', '300.1')).toEqual(['+493']);
      // A newer thread takes over for a number: the old one is no longer its conversation.
      await store.inbound.saveThread('C1', '+492', '400.1', at(20));
      expect(await store.inbound.numbersInThread('C1', '300.1')).toEqual(['+491']);
      expect(await store.inbound.numbersInThread('C1', '999.9')).toEqual([]);
    });

    it('lists recent messages, newest first', async () => {
      await store.inbound.claim('1', 'a', { at: at(1) });
      await store.inbound.claim('2', 'a', { at: at(2) });
      await store.inbound.claim('3', 'a', { at: at(3) });
      expect((await store.inbound.recent(2)).map((r) => r.gatewayId)).toEqual(['3', '2']);
    });
  });

  describe('subscriptions', () => {
    it('adds each channel+kind+filter once, so start-up defaults are idempotent', async () => {
      const spec = {
        kind: 'digest',
        digest: 'balance',
        cron: '0 9 * * 1-5',
        timezone: 'Europe/Berlin',
      } as const;
      const first = await store.subscriptions.add('C1', spec, 'U1', at(0));
      const again = await store.subscriptions.add('C1', spec, 'U2', at(5));
      expect(first.created).toBe(true);
      expect(again).toEqual({ subscription: first.subscription, created: false });
      expect(first.subscription).toMatchObject({ ...spec, channel: 'C1', createdBy: 'U1', createdAt: at(0) });

      const racing = await Promise.all(
        Array.from({ length: 8 }, () =>
          store.subscriptions.add('C2', { kind: 'low_balance', threshold: 5 }, 'sys'),
        ),
      );
      expect(racing.filter((r) => r.created)).toHaveLength(1);

      const kw = await store.subscriptions.add('C1', { kind: 'inbound', keyword: 'Help' }, 'U1');
      expect(
        (await store.subscriptions.add('C1', { kind: 'inbound', keyword: ' help ' }, 'U1')).created,
      ).toBe(false);
      expect((await store.subscriptions.add('C1', { kind: 'inbound' }, 'U1')).created).toBe(true);
      expect(
        (await store.subscriptions.add('C1', { kind: 'inbound', recipient: '+4930' }, 'U1')).created,
      ).toBe(true);
      expect(kw.subscription).toMatchObject({ kind: 'inbound', keyword: 'Help', recipient: null });
    });

    it('lists by channel and kind, and removes', async () => {
      const a = await store.subscriptions.add('C1', { kind: 'inbound' }, 'U1');
      await store.subscriptions.add('C2', { kind: 'inbound', keyword: 'x' }, 'U1');
      await store.subscriptions.add('C1', { kind: 'low_balance', threshold: 10 }, 'U1');
      expect((await store.subscriptions.listByChannel('C1')).map((s) => s.kind)).toEqual([
        'inbound',
        'low_balance',
      ]);
      const inbound = await store.subscriptions.listByKind('inbound');
      expect(inbound.map((s) => s.channel)).toEqual(['C1', 'C2']);
      const low = await store.subscriptions.listByKind('low_balance');
      expect(low[0]?.threshold).toBe(10);
      expect(await store.subscriptions.remove(a.subscription.id)).toBe(true);
      expect(await store.subscriptions.remove(a.subscription.id)).toBe(false);
      expect(await store.subscriptions.get(a.subscription.id)).toBeUndefined();
      expect(await store.subscriptions.list()).toHaveLength(2);
    });

    it('moves the alert state only from the expected state, one winner', async () => {
      const { subscription } = await store.subscriptions.add(
        'C1',
        { kind: 'low_balance', threshold: 3 },
        'U1',
      );
      const wins = await Promise.all(
        Array.from({ length: 5 }, () =>
          store.subscriptions.setAlertState(subscription.id, { from: null, to: 'low', at: at(1) }),
        ),
      );
      expect(wins.filter(Boolean)).toHaveLength(1);
      expect(
        await store.subscriptions.setAlertState(subscription.id, { from: null, to: 'low', at: at(2) }),
      ).toBe(false);
      expect(
        await store.subscriptions.setAlertState(subscription.id, { from: 'low', to: 'ok', at: at(3) }),
      ).toBe(true);
      expect(await store.subscriptions.get(subscription.id)).toMatchObject({
        alertState: 'ok',
        alertedAt: at(3),
      });
      // An alert armed without a post keeps no time.
      expect(
        await store.subscriptions.setAlertState(subscription.id, { from: 'ok', to: 'armed', at: null }),
      ).toBe(true);
      expect(await store.subscriptions.get(subscription.id)).toMatchObject({
        alertState: 'armed',
        alertedAt: null,
      });
    });
  });

  describe('job runs', () => {
    it('gives each (job, slot) to exactly one claimant', async () => {
      const slot = new Date('2030-01-01T09:00:00.000Z');
      const wins = await Promise.all(
        Array.from({ length: 10 }, (_, i) => store.jobRuns.claim('digest:C1', slot, `i${i}`, at(0))),
      );
      expect(wins.filter(Boolean)).toHaveLength(1);
      expect(await store.jobRuns.claim('digest:C1', '2030-01-01T09:00:00.000Z', 'x')).toBe(false);
      expect(await store.jobRuns.claim('digest:C2', slot, 'x')).toBe(true);
      expect(await store.jobRuns.get('digest:C1', slot)).toMatchObject({ slot: '2030-01-01T09:00:00.000Z' });
    });

    it('gives numbered slots all or none, never past the limit, however many claim at once', async () => {
      const claims = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          store.jobRuns.claimNumbered('cap', 'day1', 3, 10, `run${i}`, at(0)),
        ),
      );
      // 10 slots hold three claims of 3; the rest are refused whole, and no slot past 10 exists.
      expect(claims.filter((c) => c.claimed)).toHaveLength(3);
      const slots = (await store.jobRuns.runs('cap', 100)).map((r) => r.slot).sort();
      expect(slots).toEqual(Array.from({ length: 9 }, (_, i) => `day1:${i + 1}`).sort());
      const winner = (await store.jobRuns.get('cap', 'day1:1'))!.instanceId;
      // The same owner again takes nothing more; one more slot fits, two do not.
      expect(await store.jobRuns.claimNumbered('cap', 'day1', 3, 10, winner, at(1))).toEqual({
        claimed: true,
        taken: 9,
      });
      expect(await store.jobRuns.claimNumbered('cap', 'day1', 2, 10, 'late', at(1))).toEqual({
        claimed: false,
        taken: 9,
      });
      expect(await store.jobRuns.claimNumbered('cap', 'day1', 1, 10, 'late', at(1))).toEqual({
        claimed: true,
        taken: 10,
      });
      expect((await store.jobRuns.claimNumbered('cap', 'day2', 3, 10, 'late', at(2))).claimed).toBe(true);
    });

    it('gives back the numbered slots of one owner in one series, for another to take', async () => {
      expect((await store.jobRuns.claimNumbered('cap', 'day1', 3, 4, 'refused', at(0))).claimed).toBe(true);
      expect((await store.jobRuns.claimNumbered('cap', 'day2', 1, 4, 'refused', at(0))).claimed).toBe(true);
      expect(await store.jobRuns.claimNumbered('cap', 'day1', 2, 4, 'next', at(1))).toEqual({
        claimed: false,
        taken: 3,
      });
      expect(await store.jobRuns.releaseNumbered('cap', 'day1', 'refused')).toBe(3);
      expect(await store.jobRuns.claimNumbered('cap', 'day1', 2, 4, 'next', at(1))).toEqual({
        claimed: true,
        taken: 2,
      });
      // The owner's slots of another series stay, and so do another owner's.
      expect(await store.jobRuns.get('cap', 'day2:1')).toMatchObject({ instanceId: 'refused' });
      expect(await store.jobRuns.releaseNumbered('cap', 'day1', 'refused')).toBe(0);
    });

    it('reports the last run and the history, and prunes old claims', async () => {
      expect(await store.jobRuns.lastRun('j')).toBeUndefined();
      await store.jobRuns.claim('j', 'slot-1', 'a', at(1));
      await store.jobRuns.claim('j', 'slot-2', 'b', at(2));
      await store.jobRuns.claim('other', 'slot-9', 'b', at(9));
      expect(await store.jobRuns.lastRun('j')).toEqual({
        job: 'j',
        slot: 'slot-2',
        instanceId: 'b',
        claimedAt: at(2),
      });
      expect((await store.jobRuns.runs('j', 10)).map((r) => r.slot)).toEqual(['slot-2', 'slot-1']);
      expect(await store.jobRuns.pruneBefore(at(2))).toBe(1);
      expect((await store.jobRuns.runs('j', 10)).map((r) => r.slot)).toEqual(['slot-2']);
      // Older than the cut, but each job's latest claim stays: lastRun still answers.
      await store.jobRuns.claim('j', 'slot-3', 'a', at(3));
      expect(await store.jobRuns.pruneBefore(at(20))).toBe(1);
      expect((await store.jobRuns.runs('j', 10)).map((r) => r.slot)).toEqual(['slot-3']);
      expect((await store.jobRuns.runs('other', 10)).map((r) => r.slot)).toEqual(['slot-9']);
      expect(await store.jobRuns.lastRun('j')).toMatchObject({ slot: 'slot-3', claimedAt: at(3) });
    });
  });

  describe('permissions', () => {
    it('grants, replaces, lists and revokes roles', async () => {
      expect(await store.permissions.getRole('U1')).toBeUndefined();
      expect(await store.permissions.grant('U1', 'sender', 'UADMIN', at(1))).toEqual({
        slackUser: 'U1',
        role: 'sender',
        grantedBy: 'UADMIN',
        grantedAt: at(1),
      });
      await store.permissions.grant('U1', 'admin', 'UROOT', at(2));
      await store.permissions.grant('U0', 'viewer', 'UROOT', at(2));
      expect(await store.permissions.getRole('U1')).toBe('admin');
      expect(await store.permissions.get('U1')).toMatchObject({ grantedBy: 'UROOT', grantedAt: at(2) });
      expect((await store.permissions.list()).map((p) => [p.slackUser, p.role])).toEqual([
        ['U0', 'viewer'],
        ['U1', 'admin'],
      ]);
      expect(await store.permissions.revoke('U1')).toBe(true);
      expect(await store.permissions.revoke('U1')).toBe(false);
      expect(await store.permissions.getRole('U1')).toBeUndefined();
    });
  });

  describe('audit log', () => {
    it('appends entries with JSON details and reads them newest first', async () => {
      const first = await store.audit.append({
        actor: 'U1',
        action: 'send',
        target: '12',
        details: { to: 3 },
        at: at(1),
      });
      await store.audit.append({
        actor: 'U2',
        action: 'grant',
        target: 'U3',
        details: { role: 'admin' },
        at: at(2),
      });
      await store.audit.append({ actor: 'system', action: 'opt-out' });
      expect(first).toMatchObject({
        actor: 'U1',
        action: 'send',
        target: '12',
        details: { to: 3 },
        at: at(1),
      });
      const recent = await store.audit.recent(2);
      expect(recent.map((e) => e.action)).toEqual(['opt-out', 'grant']);
      expect(recent[0]).toMatchObject({ target: null, details: null });
    });

    it('offers no way to change or remove an entry', () => {
      expect(Object.keys(store.audit).sort()).toEqual(['append', 'recent']);
    });
  });

  describe('opt-outs', () => {
    it('adds once, checks, lists and removes', async () => {
      expect(await store.optOuts.add('+491', { source: 'stop_word', at: at(1) })).toBe(true);
      expect(await store.optOuts.add('+491', { source: 'manual', by: 'U1', at: at(2) })).toBe(false);
      await store.optOuts.add('+492', { source: 'manual', by: 'U1', at: at(3) });
      expect(await store.optOuts.has('+491')).toBe(true);
      expect(await store.optOuts.has('+493')).toBe(false);
      expect(await store.optOuts.list()).toEqual([
        { msisdn: '+492', since: at(3), source: 'manual', by: 'U1' },
        { msisdn: '+491', since: at(1), source: 'stop_word', by: null },
      ]);
      expect(await store.optOuts.remove('+491')).toBe(true);
      expect(await store.optOuts.remove('+491')).toBe(false);
      expect(await store.optOuts.has('+491')).toBe(false);
    });

    it('checks 10,000 numbers at once, quickly', async () => {
      const numbers = Array.from({ length: 10_000 }, (_, i) => `+4917${String(i).padStart(8, '0')}`);
      for (const n of numbers.filter((_, i) => i % 7 === 0)) await store.optOuts.add(n, { source: 'manual' });
      const started = performance.now();
      const found = await store.optOuts.hasMany(numbers);
      const elapsed = performance.now() - started;
      expect(found.size).toBe(Math.ceil(10_000 / 7));
      expect(found.has(numbers[7]!)).toBe(true);
      expect(found.has(numbers[8]!)).toBe(false);
      expect(elapsed).toBeLessThan(2_000);
      expect(await store.optOuts.hasMany([])).toEqual(new Set());
    });

    it('finds the opted-out among a long send and a short one alike, whichever of the two is the longer', async () => {
      const listed = Array.from({ length: 3_000 }, (_, i) => `90532${String(i * 3).padStart(7, '0')}`);
      for (const n of listed) await store.optOuts.add(n, { source: 'manual' });
      const expected = (asked: readonly string[]) => new Set(asked.filter((n) => listed.includes(n)));
      // More numbers than the list holds (the list is read), repeats and all; then fewer (the numbers are asked for).
      const long = Array.from({ length: 5_000 }, (_, i) => `90532${String(i % 4_500).padStart(7, '0')}`);
      expect(await store.optOuts.hasMany(long)).toEqual(expected(long));
      const short = long.slice(0, 2_500);
      expect(await store.optOuts.hasMany(new Set(short))).toEqual(expected(short));
      const few = ['905320000003', '905320000004', '905329999999'];
      expect(await store.optOuts.hasMany(few)).toEqual(new Set(['905320000003']));
    });

    it("finds the opted-out among a file's numbers kept packed, as among the same numbers listed", async () => {
      const asked = Array.from({ length: 5_000 }, (_, i) => `90532${String(i).padStart(7, '0')}`);
      const packed = PackedNumbers.of(asked);
      expect(await store.optOuts.hasManyPacked(packed)).toEqual(new Set());
      // Fewer opt-outs than numbers (the list is read and the packed numbers scanned), then more (asked for).
      for (const n of [asked[0]!, asked[2_501]!, asked.at(-1)!, '905339999999']) {
        await store.optOuts.add(n, { source: 'manual' });
      }
      expect(await store.optOuts.hasManyPacked(packed)).toEqual(await store.optOuts.hasMany(asked));
      expect(await store.optOuts.hasManyPacked(packed)).toEqual(
        new Set([asked[0], asked[2_501], asked.at(-1)]),
      );
      const few = PackedNumbers.of([asked[2_501]!, '905320000002']);
      expect(await store.optOuts.hasManyPacked(few)).toEqual(new Set([asked[2_501]]));
    });
  });

  describe('drafts', () => {
    it('keeps a draft until it expires, replaces it, and hands it out once', async () => {
      await store.drafts.put('draft:V1', 'U1', { text: 'hi', to: ['+491'] }, at(60));
      expect(await store.drafts.get('draft:V1', at(59))).toMatchObject({
        owner: 'U1',
        payload: { text: 'hi', to: ['+491'] },
        expiresAt: at(60),
      });
      expect(await store.drafts.get('draft:V1', at(60))).toBeUndefined();
      // A long list of numbers kept beside the payload, and gone with the draft that replaces it.
      await store.drafts.put('draft:V1', 'U1', { text: 'file' }, at(120), '905321234567,905331234567');
      expect((await store.drafts.get('draft:V1', at(100)))?.numbers).toBe('905321234567,905331234567');
      await store.drafts.put('draft:V1', 'U1', { text: 'edited' }, at(120));
      expect((await store.drafts.get('draft:V1', at(100)))?.numbers).toBeUndefined();
      const taken = await Promise.all([
        store.drafts.take('draft:V1', at(100)),
        store.drafts.take('draft:V1', at(100)),
      ]);
      expect(taken.filter(Boolean).map((d) => d?.payload)).toEqual([{ text: 'edited' }]);
      expect(await store.drafts.get('draft:V1', at(100))).toBeUndefined();
    });

    it('deletes and prunes expired drafts', async () => {
      await store.drafts.put('a', 'U1', 1, at(10));
      await store.drafts.put('b', 'U1', 2, at(20));
      await store.drafts.put('c', 'U1', 3, at(30));
      expect(await store.drafts.delete('c')).toBe(true);
      expect(await store.drafts.delete('c')).toBe(false);
      expect(await store.drafts.take('a', at(10))).toBeUndefined();
      expect(await store.drafts.pruneExpired(at(15))).toBe(1);
      expect((await store.drafts.get('b', at(15)))?.payload).toBe(2);
    });
  });

  describe('digest memory', () => {
    it('keeps one memory per subscription, replaced by the next digest, apart from relay cursors', async () => {
      expect(await store.digestMemory.get(7)).toBeUndefined();
      await store.digestMemory.put(7, '{"slot":"a"}', at(0));
      await store.digestMemory.put(8, '{"slot":"other"}', at(0));
      await store.digestMemory.put(7, '{"slot":"b"}', at(60));
      expect(await store.digestMemory.get(7)).toBe('{"slot":"b"}');
      expect(await store.digestMemory.get(8)).toBe('{"slot":"other"}');
      expect(await store.inbound.getCursor('digest:7')).toBeUndefined();
      await store.inbound.setCursor('digest:9', '{"slot":"cursor"}');
      expect(await store.digestMemory.get(9)).toBeUndefined();
    });
  });

  describe('app settings', () => {
    it('keeps one value per setting with who set it and when, replaced by the next change', async () => {
      expect(await store.appSettings.get('workflows')).toBeUndefined();
      await store.appSettings.set('workflows', 'on', 'U1', at(1));
      expect(await store.appSettings.get('workflows')).toEqual({
        value: 'on',
        updatedBy: 'U1',
        updatedAt: at(1),
      });
      await store.appSettings.set('workflows', 'off', 'U2', at(2));
      expect(await store.appSettings.get('workflows')).toEqual({
        value: 'off',
        updatedBy: 'U2',
        updatedAt: at(2),
      });
      expect(await store.appSettings.get('other')).toBeUndefined();
    });
  });

  describe('recipient lists and templates', () => {
    it('creates lists under unique names, updates, lists and deletes them', async () => {
      const made = await store.recipientLists.create({
        name: 'team',
        owner: 'U1',
        members: ['+491', '+492'],
        at: at(1),
      });
      expect(made.created).toBe(true);
      expect(made.row).toMatchObject({
        name: 'team',
        owner: 'U1',
        members: ['+491', '+492'],
        createdAt: at(1),
      });
      const taken = await store.recipientLists.create({ name: 'team', owner: 'U2', members: [] });
      expect(taken).toEqual({ row: made.row, created: false });
      expect(await store.recipientLists.update('team', { members: ['+493'] }, at(2))).toBe(true);
      expect(await store.recipientLists.get('team')).toMatchObject({ members: ['+493'], updatedAt: at(2) });
      await store.recipientLists.create({ name: 'alpha', owner: 'U1', members: [] });
      expect((await store.recipientLists.list()).map((l) => l.name)).toEqual(['alpha', 'team']);
      expect(await store.recipientLists.delete('team')).toBe(true);
      expect(await store.recipientLists.delete('team')).toBe(false);
      expect(await store.recipientLists.get('team')).toBeUndefined();
    });

    it('creates templates under unique names, updates, lists and deletes them', async () => {
      const made = await store.templates.create({ name: 'hi', owner: 'U1', content: 'Hello {name}' });
      expect(made.created).toBe(true);
      expect((await store.templates.create({ name: 'hi', owner: 'U2', content: 'x' })).created).toBe(false);
      expect(await store.templates.update('hi', { content: 'Hi {name}' })).toBe(true);
      expect(await store.templates.update('nope', { content: 'x' })).toBe(false);
      expect((await store.templates.get('hi'))?.content).toBe('Hi {name}');
      expect(await store.templates.list()).toHaveLength(1);
      expect(await store.templates.delete('hi')).toBe(true);
      expect(await store.templates.list()).toEqual([]);
    });
  });

  describe('personal data: retention and forgetting a number', () => {
    const DAY = 86_400;
    const A = '905321234567';
    const B = '905331234567';
    const C = '905341234567';

    it('purges texts, recipients and envelopes of old finished sends, keeping counts, ids and figures', async () => {
      const old = { at: T0 };
      const delivered = (
        await store.outbox.createPending(intent('delivered', { ...old, recipients: [A, B] }))
      ).row;
      await store.outbox.markSubmitted(delivered.id, '9007199254740993', { at: at(1) });
      await store.outbox.recordProgress(delivered.id, {
        delivered: 1,
        undelivered: 1,
        count: 2,
        state: 'Delivered',
        final: true,
        nextPollAt: null,
        lastPolledAt: at(60),
      });
      const personalised = (
        await store.outbox.createPending(
          intent('personalised', {
            ...old,
            recipients: [A, C],
            payload: {
              mode: 'personalised',
              validityMinutes: 1440,
              envelopes: [
                { to: A, message: 'Hi Ayşe' },
                { to: C, message: 'Hi Cem' },
              ],
            },
          }),
        )
      ).row;
      await store.outbox.markFailed(personalised.id, 'gateway said no', at(2));
      const unknown = (await store.outbox.createPending(intent('unknown', old))).row;
      await store.outbox.markUnknown(unknown.id, 'timeout', at(2));
      // Still in flight, however old: a pending send and one submitted whose delivery is not final.
      const pending = (await store.outbox.createPending(intent('pending', old))).row;
      const running = (await store.outbox.createPending(intent('running', old))).row;
      await store.outbox.markSubmitted(running.id, '11', { at: at(1) });
      const recent = (await store.outbox.createPending(intent('recent', { at: at(200 * DAY) }))).row;
      await store.outbox.markFailed(recent.id, 'x', at(200 * DAY));

      const purgedAt = at(300 * DAY);
      expect(await store.outbox.purgeContentBefore(at(100 * DAY), purgedAt)).toBe(3);
      const d = await store.outbox.get(delivered.id);
      expect(d).toMatchObject({
        text: '',
        recipients: [],
        recipientCount: 2,
        segments: 1,
        estimatedCost: 0.075,
        state: 'submitted',
        messageId: '9007199254740993',
        redactedAt: purgedAt,
        delivery: { delivered: 1, undelivered: 1, count: 2, state: 'Delivered', final: true },
      });
      const p = await store.outbox.get(personalised.id);
      expect(p).toMatchObject({ text: '', recipients: [], recipientCount: 2, reason: 'gateway said no' });
      expect(p?.payload).toEqual({ mode: 'personalised', validityMinutes: 1440 });
      expect(await store.outbox.get(unknown.id)).toMatchObject({ text: '', recipients: [] });
      for (const kept of [pending, running, recent]) {
        expect(await store.outbox.get(kept.id)).toMatchObject({
          text: 'Hello ✓',
          recipients: ['+4915112345678', '+4915187654321'],
          redactedAt: null,
        });
      }
      // Once purged, nothing is left to purge; a MessageId still finds its send.
      expect(await store.outbox.purgeContentBefore(at(100 * DAY), purgedAt)).toBe(0);
      expect((await store.outbox.getByMessageId('9007199254740993'))?.id).toBe(delivered.id);
      expect((await store.outbox.sentSince(T0)).map((r) => r.recipientCount)).toEqual([2, 2, 2, 2, 2, 2]);
    });

    it('purges in rounds when there are many old sends', async () => {
      for (let i = 0; i < 210; i++) {
        const { row } = await store.outbox.createPending(intent(`bulk${i}`, { at: T0 }));
        await store.outbox.markFailed(row.id, 'x', at(1));
      }
      expect(await store.outbox.purgeContentBefore(at(DAY))).toBe(210);
      expect((await store.outbox.recent(500)).every((r) => r.text === '' && r.recipientCount === 2)).toBe(
        true,
      );
    });

    it('forgets one number in every send: recipients, envelopes, and the text of a send to it alone', async () => {
      const many = (await store.outbox.createPending(intent('many', { recipients: [A, B] }))).row;
      const alone = (await store.outbox.createPending(intent('alone', { recipients: [A] }))).row;
      const personalised = (
        await store.outbox.createPending(
          intent('personalised', {
            recipients: [B, A],
            text: 'Hi {{name}}',
            payload: {
              mode: 'personalised',
              envelopes: [
                { to: B, message: 'Hi Bora' },
                { to: A, message: 'Hi Ayşe' },
              ],
            },
          }),
        )
      ).row;
      const other = (await store.outbox.createPending(intent('other', { recipients: [C] }))).row;

      expect(await store.outbox.forgetNumber(A, at(5))).toEqual({ sends: 3, texts: 1 });
      expect(await store.outbox.get(many.id)).toMatchObject({
        recipients: [B],
        recipientCount: 2,
        text: 'Hello ✓',
        redactedAt: at(5),
      });
      expect(await store.outbox.get(alone.id)).toMatchObject({ recipients: [], recipientCount: 1, text: '' });
      const p = await store.outbox.get(personalised.id);
      expect(p).toMatchObject({ recipients: [B], text: 'Hi {{name}}' });
      expect(p?.payload).toEqual({ mode: 'personalised', envelopes: [{ to: B, message: 'Hi Bora' }] });
      expect(await store.outbox.get(other.id)).toMatchObject({ recipients: [C], redactedAt: null });
      // Nothing of it is left: again changes nothing.
      expect(await store.outbox.forgetNumber(A)).toEqual({ sends: 0, texts: 0 });
      await expect(store.outbox.forgetNumber("1' or '1'='1")).rejects.toThrow(RangeError);
    });

    it('forgets conversation threads by age and by number', async () => {
      await store.inbound.saveThread('C1', A, '1.1', at(10));
      await store.inbound.saveThread('C2', A, '2.2', at(10 * DAY));
      await store.inbound.saveThread('C1', B, '3.3', at(1));
      expect(await store.inbound.purgeThreadsBefore(at(DAY))).toBe(2);
      expect(await store.inbound.findThread('C1', A, T0)).toBeUndefined();
      expect(await store.inbound.findThread('C2', A, T0)).toBe('2.2');
      await store.inbound.saveThread('C3', A, '4.4', at(10 * DAY));
      expect(await store.inbound.forgetNumber(A)).toBe(2);
      expect(await store.inbound.findThread('C2', A, T0)).toBeUndefined();
      expect(await store.inbound.forgetNumber(A)).toBe(0);
    });

    it('forgets drafts by age and the drafts that hold a number', async () => {
      const future = new Date(Date.now() + 3_600_000);
      await store.drafts.put('d1', 'U1', { draft: { recipients: [A, B], text: 'x' } }, future);
      await store.drafts.put('d2', 'U1', { draft: { recipients: [B], text: A } }, future);
      await store.drafts.put('d3', 'U1', { draft: { recipients: [`${A}9`] } }, future);
      // A file's numbers beside the payload, commas between: found whole, not inside a longer number.
      await store.drafts.put('d4', 'U1', { draft: { text: 'x' } }, future, `${B},${A},${B}1`);
      await store.drafts.put('d5', 'U1', { draft: { text: 'x' } }, future, `${A}9,${B}`);
      // A personalised draft's message values, packed into one text: a value that is the number, not one inside
      // a longer value nor two values that make it end to end.
      const values = (items: string[]) => PackedStrings.of(items) as unknown as JsonValue;
      await store.drafts.put(
        'd6',
        'U1',
        { draft: { recipients: [B] }, compact: { values: values(['Ali', A]) } },
        future,
      );
      await store.drafts.put(
        'd7',
        'U1',
        { draft: { recipients: [B] }, compact: { values: values([`${A}9`, 'Ali']) } },
        future,
      );
      await store.drafts.put(
        'd8',
        'U1',
        { draft: { recipients: [B] }, compact: { values: values([A.slice(0, 5), A.slice(5)]) } },
        future,
      );
      expect(await store.drafts.forgetNumber(A)).toBe(4);
      expect(await store.drafts.get('d6', new Date())).toBeUndefined();
      expect(await store.drafts.get('d7', new Date())).toBeDefined();
      expect(await store.drafts.get('d8', new Date())).toBeDefined();
      await store.drafts.delete('d7');
      await store.drafts.delete('d8');
      await expect(store.drafts.forgetNumber("1' or '1'='1")).rejects.toThrow(RangeError);
      await expect(store.drafts.forgetNumber('90532%')).rejects.toThrow(RangeError);
      expect(await store.drafts.get('d4', new Date())).toBeUndefined();
      expect((await store.drafts.get('d5', new Date()))?.numbers).toBe(`${A}9,${B}`);
      await store.drafts.delete('d5');
      expect(await store.drafts.get('d1', new Date())).toBeUndefined();
      expect(await store.drafts.get('d3', new Date())).toBeDefined();
      expect(await store.drafts.purgeCreatedBefore(new Date(Date.now() - 3_600_000))).toBe(0);
      expect(await store.drafts.purgeCreatedBefore(new Date(Date.now() + 1_000))).toBe(1);
      expect(await store.drafts.get('d3', new Date())).toBeUndefined();
    });

    it('takes a number out of every saved list, leaving the other members', async () => {
      await store.recipientLists.create({ name: 'team', owner: 'U1', members: [A, B] });
      await store.recipientLists.create({ name: 'solo', owner: 'U1', members: [A] });
      await store.recipientLists.create({ name: 'others', owner: 'U1', members: [B, `${A}9`] });
      expect(await store.recipientLists.removeMember(A, at(9))).toEqual(['solo', 'team']);
      expect(await store.recipientLists.get('team')).toMatchObject({ members: [B], updatedAt: at(9) });
      expect((await store.recipientLists.get('solo'))?.members).toEqual([]);
      expect((await store.recipientLists.get('others'))?.members).toEqual([B, `${A}9`]);
      expect(await store.recipientLists.removeMember(A)).toEqual([]);
    });
  });
}
