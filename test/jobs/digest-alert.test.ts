import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ALERT_STATE, LowBalanceChecker, nextAlertState } from '../../src/jobs/alert-balance.js';
import { silentLogger } from '../../src/log.js';
import type { Store } from '../../src/store/index.js';
import { FakeGateway, RecordingPoster, tempStore } from './digest-fakes.js';

let store: Store;
let close: () => Promise<void>;
let gateway: FakeGateway;
let poster: RecordingPoster;

beforeEach(async () => {
  ({ store, close } = await tempStore());
  gateway = new FakeGateway();
  poster = new RecordingPoster();
});
afterEach(() => close());

const MINUTE = 60_000;
const T0 = new Date('2026-11-20T06:00:00Z');

function checker(minIntervalSeconds?: number) {
  return new LowBalanceChecker({
    gateway,
    store,
    poster,
    logger: silentLogger,
    settings: { reportTimeZone: 'UTC', simulated: false, minIntervalSeconds },
  });
}

describe('nextAlertState', () => {
  it.each([
    [null, 50, { to: 'below', post: 'below' }],
    [null, 150, { to: 'ok' }],
    [null, 100, undefined],
    ['ok', 99.99, { to: 'below', post: 'below' }],
    ['below', 10, undefined],
    ['below', 100, undefined],
    ['below', 100.01, { to: 'ok', post: 'recovered' }],
    ['ok', 500, undefined],
  ] as const)('state %s at usable %d (threshold 100) → %j', (state, usable, expected) => {
    expect(nextAlertState(state, usable, 100)).toEqual(expected);
  });
});

describe('LowBalanceChecker: hysteresis', () => {
  it('alerts once on crossing below, stays quiet on every later check, and again only after recovering above', async () => {
    const { subscription } = await store.subscriptions.add(
      'C0ALERTS',
      { kind: 'low_balance', threshold: 100 },
      'U0ADMIN',
    );
    const c = checker();
    const sequence: Array<[number, string | undefined]> = [
      [500, undefined], // armed
      [120, undefined],
      [90, 'below'],
      [80, undefined],
      [95, undefined],
      [100, undefined], // at the threshold is not "recovered above"
      [90, undefined],
      [130, 'recovered'],
      [140, undefined],
      [99, 'below'],
      [99, undefined],
    ];
    const seen: Array<string | undefined> = [];
    // Checks 15 minutes apart: never closer than the minimum interval between two posts.
    for (const [i, [usable]] of sequence.entries()) {
      gateway.setUsable(usable);
      const posted = await c.check(new Date(T0.getTime() + i * 15 * MINUTE));
      seen.push(posted[0]?.change);
    }
    expect(seen).toEqual(sequence.map(([, change]) => change));
    expect(poster.posts.map((p) => p.alert?.change)).toEqual(['below', 'recovered', 'below']);
    expect((await store.subscriptions.get(subscription.id))?.alertState).toBe(ALERT_STATE.below);
    expect(poster.posts[0]).toMatchObject({
      channel: 'C0ALERTS',
      alert: { threshold: 100, balance: { usable: 90 } },
    });
  });

  it('a balance crossing its threshold back and forth posts at most once every DIGEST_MIN_INTERVAL_SECONDS', async () => {
    await store.subscriptions.add('C0ALERTS', { kind: 'low_balance', threshold: 100 }, 'U0ADMIN');
    const c = checker(900);
    const posted: Array<[number, string]> = [];
    // Every minute for 40 minutes the credit flips from below to above the threshold and back.
    for (let minute = 0; minute <= 40; minute++) {
      gateway.setUsable(minute % 2 === 0 ? 50 : 150);
      for (const p of await c.check(new Date(T0.getTime() + minute * MINUTE)))
        posted.push([minute, p.change]);
    }
    // The first post at once; each later one waits until 15 minutes have passed since the one before,
    // and then says what is true at that check.
    expect(posted).toEqual([
      [0, 'below'],
      [15, 'recovered'],
      [30, 'below'],
    ]);
    expect(poster.posts).toHaveLength(3);
  });

  it('a lower DIGEST_MIN_INTERVAL_SECONDS lets alerts come closer together', async () => {
    await store.subscriptions.add('C0ALERTS', { kind: 'low_balance', threshold: 100 }, 'U0ADMIN');
    const c = checker(60);
    for (let minute = 0; minute <= 3; minute++) {
      gateway.setUsable(minute % 2 === 0 ? 50 : 150);
      await c.check(new Date(T0.getTime() + minute * MINUTE));
    }
    expect(poster.posts.map((p) => p.alert?.change)).toEqual(['below', 'recovered', 'below', 'recovered']);
  });

  it('an alert set while credit is already low is posted at the first check', async () => {
    await store.subscriptions.add('C0ALERTS', { kind: 'low_balance', threshold: 2000 }, 'U0ADMIN');
    gateway.setUsable(1250);
    expect(await checker().check()).toEqual([expect.objectContaining({ change: 'below' })]);
  });

  it('with two instances checking at once, one alert is posted', async () => {
    await store.subscriptions.add('C0ALERTS', { kind: 'low_balance', threshold: 100 }, 'U0ADMIN');
    gateway.setUsable(50);
    const results = await Promise.all([checker().check(), checker().check(), checker().check()]);
    expect(results.flat()).toHaveLength(1);
    expect(poster.posts).toHaveLength(1);
  });

  it('a post that fails is tried again at the next check, and then not again', async () => {
    await store.subscriptions.add('C0ALERTS', { kind: 'low_balance', threshold: 100 }, 'U0ADMIN');
    gateway.setUsable(50);
    poster.failNext = 1;
    const c = checker();
    expect(await c.check()).toEqual([]);
    expect(await c.check()).toHaveLength(1);
    expect(await c.check()).toEqual([]);
    expect(poster.posts).toHaveLength(1);
  });

  it('reads the balance once per check for every channel, and the 7-day log only when it alerts', async () => {
    for (const channel of ['C1', 'C2', 'C3']) {
      await store.subscriptions.add(channel, { kind: 'low_balance', threshold: 100 }, 'U0ADMIN');
    }
    gateway.setUsable(500);
    await checker().check();
    expect(gateway.calls).toEqual(['getBalance']);
    gateway.setUsable(50);
    gateway.log = [
      {
        id: 1,
        timestamp: new Date(Date.now() - 86_400_000),
        type: 'Debit',
        amount: 70,
        balanceAfter: 50,
        explanation: 'x',
      },
    ];
    gateway.calls = [];
    await checker().check();
    expect(gateway.calls).toEqual(['getBalance', 'getBalanceLog']);
    expect(poster.posts).toHaveLength(3);
    expect(poster.posts[0]!.alert?.runway).toEqual({ perDay: 10, days: 5 });
  });

  it('does nothing, not even a gateway call, when no channel has an alert', async () => {
    expect(await checker().check()).toEqual([]);
    expect(gateway.calls).toEqual([]);
  });
});
