import { describe, expect, it } from 'vitest';
import { ReplayGuard } from '../../src/slack/replay-guard.js';

describe('ReplayGuard', () => {
  it('knows a (timestamp, signature) again only while the timestamp is accepted', () => {
    let now = 1_000_000_000;
    const guard = new ReplayGuard({ windowSeconds: 300, capacity: 100, now: () => now });
    const ts = now / 1000;
    expect(guard.firstDelivery(ts, 'v0=a')).toBe(true);
    expect(guard.firstDelivery(ts, 'v0=a')).toBe(false);
    // Same body signed at another second (what Slack's retries are): a different delivery.
    expect(guard.firstDelivery(ts + 1, 'v0=b')).toBe(true);
    now += 300_000;
    expect(guard.firstDelivery(ts, 'v0=a')).toBe(false);
    // Past the window the gate refuses the timestamp anyway, so the guard forgets it.
    now += 1_001;
    guard.firstDelivery(ts + 600, 'v0=c');
    expect(guard.size).toBe(1);
  });

  it('holds at most `capacity` requests, forgetting the oldest first', () => {
    const now = 1_000_000_000;
    const guard = new ReplayGuard({ windowSeconds: 300, capacity: 3, now: () => now });
    for (const sig of ['1', '2', '3', '4']) expect(guard.firstDelivery(now / 1000, sig)).toBe(true);
    expect(guard.size).toBe(3);
    expect(guard.firstDelivery(now / 1000, '4')).toBe(false);
    expect(guard.firstDelivery(now / 1000, '1')).toBe(true);
  });
});
