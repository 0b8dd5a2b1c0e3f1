import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_DIGEST_CREATOR, ensureDefaultDigests } from '../../src/digests/defaults.js';
import { readMemory } from '../../src/digests/memory.js';
import type { BalanceDigest, SurveysDigest } from '../../src/digests/types.js';
import { DigestScheduler, digestJob } from '../../src/jobs/digest-scheduler.js';
import { silentLogger } from '../../src/log.js';
import type { DigestKind, Store } from '../../src/store/index.js';
import { captureLogger } from '../support/logs.js';
import { FakeGateway, RecordingPoster, tempStore, twelveMonths } from './digest-fakes.js';

const HOUR = 3_600_000;
const T0 = new Date('2026-11-20T06:00:00Z'); // 09:00 in Istanbul, a Friday

let store: Store;
let close: () => Promise<void>;
let gateway: FakeGateway;
let poster: RecordingPoster;

beforeEach(async () => {
  ({ store, close } = await tempStore());
  gateway = new FakeGateway();
  gateway.stats = twelveMonths(2026, 11);
  poster = new RecordingPoster();
});
afterEach(() => close());

function scheduler(instanceId = 'a', extra: { catchUpMinutes?: number } = {}) {
  return new DigestScheduler({
    gateway,
    store,
    poster,
    logger: silentLogger,
    settings: { reportTimeZone: 'Europe/Istanbul', simulated: true, instanceId, ...extra },
  });
}

async function subscribe(
  digest: DigestKind,
  cron = '0 9 * * *',
  createdAt = new Date(T0.getTime() - 48 * HOUR),
) {
  const { subscription } = await store.subscriptions.add(
    'C0DIGEST',
    { kind: 'digest', digest, cron, timezone: 'Europe/Istanbul' },
    'U0ADMIN',
    createdAt,
  );
  return subscription;
}

describe('DigestScheduler', () => {
  it('posts each slot once however often it ticks, and the next slot again', async () => {
    const sub = await subscribe('balance');
    const s = scheduler();
    expect((await s.tick(new Date(T0.getTime() + 1_000))).map((o) => o.outcome)).toEqual(['posted']);
    for (const offset of [5_000, 60_000, 30 * 60_000]) {
      expect(await s.tick(new Date(T0.getTime() + offset))).toEqual([]);
    }
    expect(poster.posts).toHaveLength(1);
    expect(poster.posts[0]!.channel).toBe('C0DIGEST');
    expect(poster.posts[0]!.framing).toMatchObject({
      schedule: 'daily at 09:00',
      timeZone: 'Europe/Istanbul',
    });
    expect(poster.posts[0]!.framing.nextRun?.toISOString()).toBe('2026-11-21T06:00:00.000Z');
    await s.tick(new Date(T0.getTime() + 24 * HOUR + 500));
    expect(poster.posts).toHaveLength(2);
    expect((await store.jobRuns.runs(digestJob(sub.id), 5)).map((r) => r.slot).sort()).toEqual([
      '2026-11-20T06:00:00.000Z',
      '2026-11-21T06:00:00.000Z',
    ]);
  });

  it('two schedulers on one store post a slot once between them', async () => {
    await subscribe('balance');
    await subscribe('stats');
    const a = scheduler('a');
    const b = scheduler('b');
    const at = new Date(T0.getTime() + 2_000);
    const [ra, rb] = await Promise.all([a.tick(at), b.tick(at)]);
    expect([...ra, ...rb].filter((o) => o.outcome === 'posted')).toHaveLength(2);
    expect(poster.posts.map((p) => p.report?.kind).sort()).toEqual(['balance', 'stats']);
  });

  it('posts a slot missed while down if it is at most an hour old, once; an older one is skipped', async () => {
    await subscribe('balance');
    // Down from 08:00 to 09:40 local: the 09:00 slot is 40 minutes old at start.
    await scheduler('restarted').tick(new Date(T0.getTime() + 40 * 60_000));
    expect(poster.posts).toHaveLength(1);
    await scheduler('another').tick(new Date(T0.getTime() + 41 * 60_000));
    expect(poster.posts).toHaveLength(1);

    const late = await subscribe('stats', '0 9 * * *');
    await scheduler('late').tick(new Date(T0.getTime() + 24 * HOUR + 61 * 60_000));
    expect(poster.posts.filter((p) => p.report?.kind === 'stats')).toHaveLength(0);
    expect(await store.jobRuns.lastRun(digestJob(late.id))).toBeUndefined();
  });

  it('never fires a slot from before the subscription existed', async () => {
    await subscribe('balance', '0 9 * * *', new Date(T0.getTime() + 60_000));
    expect(await scheduler().tick(new Date(T0.getTime() + 2 * 60_000))).toEqual([]);
    expect(poster.posts).toHaveLength(0);
  });

  it('retries a post that failed, from the instance that claimed the slot only', async () => {
    await subscribe('balance');
    const a = scheduler('a');
    const b = scheduler('b');
    poster.failNext = 2;
    expect((await a.tick(new Date(T0.getTime() + 1_000)))[0]!.outcome).toBe('failed');
    expect(await b.tick(new Date(T0.getTime() + 2_000))).toEqual([]);
    expect((await a.tick(new Date(T0.getTime() + 31_000)))[0]!.outcome).toBe('failed');
    expect((await a.tick(new Date(T0.getTime() + 61_000)))[0]!.outcome).toBe('posted');
    expect(await a.tick(new Date(T0.getTime() + 91_000))).toEqual([]);
    expect(poster.posts).toHaveLength(1);
  });

  it('a gateway that fails is retried the same way, and the digest then posts once', async () => {
    await subscribe('stats');
    gateway.failing.add('queryStats');
    const a = scheduler('a');
    expect((await a.tick(new Date(T0.getTime() + 1_000)))[0]!.outcome).toBe('failed');
    gateway.failing.clear();
    expect((await a.tick(new Date(T0.getTime() + 31_000)))[0]!.outcome).toBe('posted');
    expect(poster.posts).toHaveLength(1);
  });

  it('reads each gateway figure once per tick, however many channels want it', async () => {
    for (const channel of ['C1', 'C2', 'C3']) {
      await store.subscriptions.add(
        channel,
        { kind: 'digest', digest: 'balance', cron: '0 9 * * *', timezone: 'Europe/Istanbul' },
        'U0ADMIN',
        new Date(T0.getTime() - HOUR),
      );
    }
    await scheduler().tick(new Date(T0.getTime() + 1_000));
    expect(poster.posts).toHaveLength(3);
    expect(gateway.calls.filter((c) => c === 'getBalance')).toHaveLength(1);
    expect(gateway.calls.filter((c) => c === 'getBalanceLog')).toHaveLength(1);
  });

  it('remembers the balance, so the next digest says what changed since the previous one', async () => {
    const sub = await subscribe('balance');
    gateway.setUsable(900, 100);
    await scheduler().tick(new Date(T0.getTime() + 1_000));
    const first = poster.posts[0]!.report as BalanceDigest;
    expect(first.change?.basis).toBe('balance-log');
    expect(await readMemory(store, sub.id)).toMatchObject({ slot: T0.toISOString(), usable: 1000 });
    gateway.setUsable(850, 100);
    await scheduler().tick(new Date(T0.getTime() + 24 * HOUR + 1_000));
    const second = poster.posts[1]!.report as BalanceDigest;
    expect(second.change).toMatchObject({ amount: -50, basis: 'previous-digest' });
    expect(second.period).toEqual({ from: T0, to: new Date(T0.getTime() + 24 * HOUR) });
  });

  it('shows every survey first, then only surveys answered since the previous digest', async () => {
    await subscribe('surveys');
    const survey = (id: number, answered: number) => ({
      id,
      name: `Survey ${id}`,
      totalQuestions: 1,
      subscribers: 100,
      delivered: 90,
      answered,
      messageId: id,
    });
    gateway.surveys = [survey(301, 10), survey(302, 4)];
    gateway.answers.set(301, [{ surveyId: 301, questionNo: 1, answer: 'EVET', count: 10 }]);
    await scheduler().tick(new Date(T0.getTime() + 1_000));
    const first = poster.posts[0]!.report as SurveysDigest;
    expect(first.since).toBeUndefined();
    expect(first.entries.map((e) => e.survey.id)).toEqual([302, 301]);

    gateway.surveys = [survey(301, 13), survey(302, 4)];
    await scheduler().tick(new Date(T0.getTime() + 24 * HOUR + 1_000));
    const second = poster.posts[1]!.report as SurveysDigest;
    expect(second.since?.toISOString()).toBe(new Date(T0.getTime() + 1_000).toISOString());
    expect(second.entries.map((e) => [e.survey.id, e.newAnswers])).toEqual([[301, 3]]);
    expect(second.unchanged).toBe(1);
  });

  it('stops posting for a subscription once it is removed', async () => {
    const sub = await subscribe('balance');
    await store.subscriptions.remove(sub.id);
    expect(await scheduler().tick(new Date(T0.getTime() + 1_000))).toEqual([]);
  });
});

describe('a schedule stored faster than DIGEST_MIN_INTERVAL_SECONDS (by an older version)', () => {
  it('is reported at start and runs at most every 15 minutes, on the scheduler clock', async () => {
    // What an older version accepted from `/sms subscribe digest stats cron "* * * * * *"`, stored as it did.
    const sub = await subscribe('stats', '* * * * * *', new Date(T0.getTime() - HOUR));
    const { logger, lines } = captureLogger();
    let now = new Date(T0.getTime() + 1_000);
    const s = new DigestScheduler({
      gateway,
      store,
      poster,
      logger,
      now: () => now,
      settings: {
        reportTimeZone: 'Europe/Istanbul',
        simulated: true,
        instanceId: 'a',
        minIntervalSeconds: 900,
      },
    });
    // A tick every minute for 45 minutes: the stored schedule alone would have posted at each one.
    for (let t = T0.getTime() + 1_000; t <= T0.getTime() + 45 * 60_000 + 1_000; t += 60_000) {
      now = new Date(t);
      await s.tick(now);
    }
    expect(poster.posts.map((p) => p.framing.nextRun?.toISOString())).toEqual([
      '2026-11-20T06:15:00.000Z',
      '2026-11-20T06:30:00.000Z',
      '2026-11-20T06:45:00.000Z',
      '2026-11-20T07:00:00.000Z',
    ]);
    const slots = (await store.jobRuns.runs(digestJob(sub.id), 100)).map((r) => r.slot).sort();
    expect(slots).toEqual([
      '2026-11-20T06:00:00.000Z',
      '2026-11-20T06:15:00.000Z',
      '2026-11-20T06:30:00.000Z',
      '2026-11-20T06:45:00.000Z',
    ]);
    expect(poster.posts[0]!.framing.schedule).toBe('cron "* * * * * *", slowed to at most every 15 minutes');
    const reports = lines.filter((l) => l.level === 'warn');
    expect(reports).toHaveLength(1);
    expect(reports[0]).toMatchObject({ subscriptionId: sub.id, channel: 'C0DIGEST', cron: '* * * * * *' });
    expect(reports[0]!.msg).toBe(
      'digest schedule cron "* * * * * *" would run 1 second apart, faster than DIGEST_MIN_INTERVAL_SECONDS allows: it runs at most every 15 minutes (unsubscribe and subscribe again with a slower schedule to change it)',
    );
  });

  it('twice a minute apart (0,1 9 * * *): the second run moves to the end of its 15 minutes', async () => {
    await subscribe('balance', '0,1 9 * * *');
    const s = new DigestScheduler({
      gateway,
      store,
      poster,
      logger: silentLogger,
      settings: { reportTimeZone: 'Europe/Istanbul', simulated: true, instanceId: 'a' },
    });
    for (let t = T0.getTime(); t <= T0.getTime() + 30 * 60_000; t += 30_000) await s.tick(new Date(t));
    // 09:00 and 09:15 Istanbul time: never closer than the 900-second default.
    expect(poster.posts.map((p) => p.report?.at.toISOString())).toEqual([
      '2026-11-20T06:00:00.000Z',
      '2026-11-20T06:15:00.000Z',
    ]);
  });

  it('a schedule at the minimum runs as written', async () => {
    await subscribe('balance', '*/15 * * * *');
    const s = scheduler();
    for (let t = T0.getTime(); t <= T0.getTime() + 30 * 60_000; t += 60_000) await s.tick(new Date(t));
    expect(poster.posts).toHaveLength(3);
    expect(poster.posts[0]!.framing.schedule).toBe('cron "*/15 * * * *"');
  });
});

describe('ensureDefaultDigests (DIGEST_CHANNEL, DIGEST_CRON)', () => {
  it('creates balance, stats and surveys once, however often it runs', async () => {
    const wanted = { channel: 'C0DEFAULT', cron: '0 9 * * *', timeZone: 'Europe/Istanbul' };
    expect(await ensureDefaultDigests(store, wanted)).toEqual({ created: 3, removed: 0 });
    expect(await ensureDefaultDigests(store, wanted)).toEqual({ created: 0, removed: 0 });
    const subs = await store.subscriptions.listByChannel('C0DEFAULT');
    expect(subs.map((s) => (s.kind === 'digest' ? s.digest : s.kind)).sort()).toEqual([
      'balance',
      'stats',
      'surveys',
    ]);
    expect(subs.every((s) => s.createdBy === DEFAULT_DIGEST_CREATOR)).toBe(true);
  });

  it('replaces the defaults when the setting changes and removes them when it is unset, leaving others alone', async () => {
    await subscribe('balance');
    await ensureDefaultDigests(store, { channel: 'C0DEFAULT', cron: '0 9 * * *', timeZone: 'UTC' });
    expect(
      await ensureDefaultDigests(store, { channel: 'C0DEFAULT', cron: '30  8 * * 1-5', timeZone: 'UTC' }),
    ).toEqual({
      created: 3,
      removed: 3,
    });
    const crons = (await store.subscriptions.listByChannel('C0DEFAULT')).map((s) =>
      s.kind === 'digest' ? s.cron : '',
    );
    expect(new Set(crons)).toEqual(new Set(['30 8 * * 1-5']));
    expect(await ensureDefaultDigests(store, undefined)).toEqual({ created: 0, removed: 3 });
    expect(await store.subscriptions.listByChannel('C0DIGEST')).toHaveLength(1);
  });

  it('refuses a DIGEST_CRON it could never run', async () => {
    await expect(
      ensureDefaultDigests(store, { channel: 'C0X', cron: '0 25 * * *', timeZone: 'UTC' }),
    ).rejects.toThrow(/hour/);
  });
});
