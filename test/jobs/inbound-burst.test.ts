import { afterEach, describe, expect, it } from 'vitest';
import { PostFailed } from '../../src/jobs/inbound-poster.js';
import { openStore } from '../../src/store/index.js';
import { blocksCharacters, MAX_BLOCKS_CHARACTERS } from '../../workspace/block-kit/message-limits.js';
import { channels, type InboundRig, number, postCounts, startInboundRig } from './inbound-support.js';

let rig: InboundRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

/** Slack's pace: about one post per second per channel, as the relay paces itself in production. */
const SLACK_PACE = { postIntervalMs: 1000 };

/** Resolves once the fake has answered n chat.postMessage calls. */
async function waitForPostCalls(r: InboundRig, n: number): Promise<void> {
  let after = 0;
  for (let i = 0; i < n; i++) {
    after = (await r.fake.state.waitForCall('chat.postMessage', () => true, { after, timeoutMs: 10_000 }))
      .seq;
  }
}

function expectEachOnce(counts: Record<number, number> | undefined, ids: readonly number[]): void {
  expect(
    Object.keys(counts ?? {})
      .map(Number)
      .sort(),
  ).toEqual([...ids].sort());
  expect(Object.values(counts ?? {}).every((n) => n === 1)).toBe(true);
}

describe('inbound relay: bursts against Slack’s rate limit', () => {
  it('groups a burst into few posts, each within Slack’s limits, with no 429', async () => {
    rig = await startInboundRig({ fakeSlack: { rateLimits: true } });
    const ids = await rig.inject(
      Array.from({ length: 300 }, (_, i) => ({ MSISDN: number(i), Text: `reply ${i}` })),
    );
    const result = await rig.relay({ settings: SLACK_PACE }).pollOnce();
    expect(result).toMatchObject({ ok: true, posted: 300, pending: 0, rateLimited: 0 });
    // 300 numbers without threads, 48 to a post: 7 posts rather than 300.
    expect(result.posts).toBe(7);
    expect(rig.fake.state.ratelimitedCount).toBe(0);
    expectEachOnce(postCounts(rig)[channels.smsOps], ids);
    // Every number's thread is the post it arrived in.
    const [first] = await rig.inject([{ MSISDN: number(3), Text: 'follow-up' }]);
    await rig.relay({ settings: SLACK_PACE }).pollOnce();
    const posted = rig.posted();
    const followUp = posted.find((p) => p.id === first)!;
    expect(followUp.threadTs).toBe(posted.find((p) => p.id === ids[3])!.ts);
  });

  it('sizes each burst post under Slack’s total for blocks, button values included', async () => {
    rig = await startInboundRig();
    // Long texts from many numbers: posts are filled by size, not by the 48-block count.
    const text = 'Bu mesaj uzun bir yanittir ve siparisimin durumunu ogrenmek istiyorum. '.repeat(4);
    const ids = await rig.inject(Array.from({ length: 120 }, (_, i) => ({ MSISDN: number(i), Text: text })));
    const result = await rig.relay({ settings: SLACK_PACE }).pollOnce();
    expect(result).toMatchObject({ ok: true, posted: 120, pending: 0 });
    const calls = rig.fake.state.calls('chat.postMessage');
    expect(calls.filter((c) => c.result.ok !== true).map((c) => c.result.error)).toEqual([]);
    for (const call of calls)
      expect(blocksCharacters(call.args.blocks)).toBeLessThanOrEqual(MAX_BLOCKS_CHARACTERS);
    expectEachOnce(postCounts(rig)[channels.smsOps], ids);
  });

  it('honours Retry-After: that channel waits, nothing is lost or posted twice', async () => {
    rig = await startInboundRig();
    const ids = await rig.inject([
      { MSISDN: number(1), Text: 'a' },
      { MSISDN: number(2), Text: 'b' },
    ]);
    rig.fake.injectFault({ method: 'chat.postMessage', status: 429, retryAfter: 2 });
    const result = await rig.relay({ settings: { postIntervalMs: 10 } }).pollOnce();
    expect(result).toMatchObject({ ok: true, posted: 2, rateLimited: 1 });
    const calls = rig.fake.state.calls('chat.postMessage');
    expect(calls.map((c) => c.status)).toEqual([429, 200, 200]);
    expect(calls[1]!.at - calls[0]!.at).toBeGreaterThanOrEqual(1_950);
    expectEachOnce(postCounts(rig)[channels.smsOps], ids);
  });
});

describe('inbound relay: restarts and several instances', () => {
  it('a restart in the middle of a burst loses nothing and posts nothing twice', async () => {
    rig = await startInboundRig({ fakeSlack: { rateLimits: true } });
    const ids = await rig.inject(
      Array.from({ length: 240 }, (_, i) => ({ MSISDN: number(i), Text: `r${i}` })),
    );
    const first = rig.relay({ instanceId: 'a', settings: SLACK_PACE });
    const polling = first.pollOnce();
    // Stop once two of the five posts are out: the one in flight finishes, the rest are given back.
    await waitForPostCalls(rig, 2);
    await first.stop();
    const stopped = await polling;
    expect(stopped.posted).toBeGreaterThan(0);
    expect(stopped.pending).toBeGreaterThan(0);
    expect(stopped.posted + stopped.pending).toBe(240);

    const second = rig.relay({ instanceId: 'b', settings: SLACK_PACE });
    const resumed = await second.pollOnce();
    expect(resumed).toMatchObject({ ok: true, posted: stopped.pending, pending: 0 });
    expectEachOnce(postCounts(rig)[channels.smsOps], ids);
    expect(await second.pollOnce()).toMatchObject({ posted: 0, pending: 0 });
    expect(rig.fake.state.ratelimitedCount).toBe(0);
  });

  it('two instances on one store post every message exactly once', async () => {
    rig = await startInboundRig();
    // A second connection to the same database file, as a second process would have.
    const otherStore = await openStore(`sqlite:${rig.dbPath}`);
    try {
      const ids = await rig.inject(
        Array.from({ length: 150 }, (_, i) => ({ MSISDN: number(i % 40), Text: `m${i}` })),
      );
      const a = rig.relay({ instanceId: 'a' });
      const b = rig.relay({ instanceId: 'b', store: otherStore });
      const [ra, rb] = await Promise.all([a.pollOnce(), b.pollOnce()]);
      expect(ra.ok && rb.ok).toBe(true);
      expect(ra.posted + rb.posted).toBe(150);
      // Whoever lost a claim leaves it to the winner, then finds it posted.
      const [again1, again2] = await Promise.all([a.pollOnce(), b.pollOnce()]);
      expect(again1.posted + again2.posted).toBe(0);
      expect(again1.pending + again2.pending).toBe(0);
      expectEachOnce(postCounts(rig)[channels.smsOps], ids);
    } finally {
      await otherStore.close();
    }
  });

  it('takes over the claim of an instance that died before posting, but not a live one', async () => {
    rig = await startInboundRig();
    const [dead, live] = await rig.inject([
      { MSISDN: number(1), Text: 'claimed by a crashed instance' },
      { MSISDN: number(2), Text: 'claimed by a live instance' },
    ]);
    const tenMinutesAgo = new Date(Date.now() - 10 * 60_000);
    await rig.store.inbound.claim(`${dead}@${channels.smsOps}`, 'crashed', { at: tenMinutesAgo });
    await rig.store.inbound.claim(`${live}@${channels.smsOps}`, 'alive');
    const relay = rig.relay({ settings: { claimLeaseMs: 5 * 60_000 } });
    expect(await relay.pollOnce()).toMatchObject({ ok: true, posted: 1, pending: 1 });
    expect(postCounts(rig)).toEqual({ [channels.smsOps]: { [dead!]: 1 } });
    // The cursor waits for the live instance's message.
    expect(await rig.store.inbound.getCursor('inbound')).toBeDefined();
    const cursor = Date.parse((await rig.store.inbound.getCursor('inbound'))!);
    await rig.store.inbound.markPosted(`${live}@${channels.smsOps}`, {
      channel: channels.smsOps,
      ts: '1.000001',
    });
    expect(await relay.pollOnce()).toMatchObject({ posted: 0, pending: 0 });
    expect(Date.parse((await rig.store.inbound.getCursor('inbound'))!)).toBeGreaterThanOrEqual(cursor);
  });

  it('a crash between the Slack post and its record repeats that one post once (the documented caveat)', async () => {
    rig = await startInboundRig();
    const [id] = await rig.inject([{ MSISDN: number(1), Text: 'posted, then the reply was lost' }]);
    const real = rig.poster();
    let lose = true;
    const lossy = {
      capacity: real.capacity,
      size: real.size,
      async post(...args: Parameters<typeof real.post>) {
        const posted = await real.post(...args);
        if (lose) {
          lose = false;
          throw new PostFailed('reply lost');
        }
        return posted;
      },
    };
    const relay = rig.relay({ poster: lossy });
    expect(await relay.pollOnce()).toMatchObject({ posted: 0, pending: 1 });
    expect(await relay.pollOnce()).toMatchObject({ posted: 1, pending: 0 });
    expect(await relay.pollOnce()).toMatchObject({ posted: 0, pending: 0 });
    expect(postCounts(rig)).toEqual({ [channels.smsOps]: { [id!]: 2 } });
  });
});
