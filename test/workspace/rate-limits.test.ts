import { describe, expect, it } from 'vitest';
import { SEEDED } from '../../workspace/index.js';
import { clientFor, ErrorCode, fakeSlack, manualClock, WebClientEvent } from './helpers.js';

const channel = SEEDED.channels.smsOps;

describe('rate limits and injected faults', () => {
  it('lets a burst through, then answers 429 with Retry-After until the channel’s window refills', async () => {
    const clock = manualClock();
    const fake = await fakeSlack({ clock: clock.now, rateLimits: { postsPerSecondPerChannel: 1, burst: 3 } });
    const client = clientFor(fake, { rejectRateLimitedCalls: true });
    for (const n of [1, 2, 3]) await client.chat.postMessage({ channel, text: `burst ${n}` });
    await expect(client.chat.postMessage({ channel, text: 'too fast' })).rejects.toMatchObject({
      code: ErrorCode.RateLimitedError,
      retryAfter: 1,
    });
    await expect(
      client.chat.postMessage({ channel: SEEDED.channels.alerts, text: 'other channel' }),
    ).resolves.toBeTruthy();
    clock.advance(1000);
    await expect(client.chat.postMessage({ channel, text: 'after a second' })).resolves.toBeTruthy();
    expect(fake.state.ratelimitedCount).toBe(1);
    const limited = fake.state.calls('chat.postMessage').find((c) => c.status === 429);
    expect(limited?.result).toEqual({ ok: false, error: 'ratelimited' });
  });

  it('limits every other method by its tier, per method: chat.update (Tier 3) and views.update (Tier 4)', async () => {
    const clock = manualClock();
    const fake = await fakeSlack({ clock: clock.now, rateLimits: true });
    const client = clientFor(fake, { rejectRateLimitedCalls: true });
    const { ts } = await client.chat.postMessage({ channel, text: 'card' });
    for (let i = 0; i < 50; i++) await client.chat.update({ channel, ts: ts!, text: `update ${i}` });
    await expect(client.chat.update({ channel, ts: ts!, text: 'one too many' })).rejects.toMatchObject({
      code: ErrorCode.RateLimitedError,
      retryAfter: 2,
    });
    // Another method has its own allowance: Tier 4's hundred a minute.
    const { view } = await client.views.open({
      trigger_id: fake.issueTriggerId(SEEDED.users.admin),
      view: { type: 'modal', title: { type: 'plain_text', text: 'T' }, blocks: [] },
    });
    let hash = view!.hash!;
    for (let i = 0; i < 100; i++) {
      const next = {
        type: 'modal' as const,
        title: { type: 'plain_text' as const, text: `T${i}` },
        blocks: [],
      };
      hash = (await client.views.update({ view_id: view!.id!, hash, view: next })).view!.hash!;
    }
    await expect(
      client.views.update({
        view_id: view!.id!,
        hash,
        view: { type: 'modal', title: { type: 'plain_text', text: 'x' }, blocks: [] },
      }),
    ).rejects.toMatchObject({ code: ErrorCode.RateLimitedError });
    clock.advance(2000);
    await expect(client.chat.update({ channel, ts: ts!, text: 'later' })).resolves.toBeTruthy();
    expect(fake.state.calls('chat.update').find((c) => c.status === 429)?.result).toEqual({
      ok: false,
      error: 'ratelimited',
    });
  });

  it('is honoured by WebClient: it waits Retry-After seconds and retries on its own', async () => {
    const fake = await fakeSlack({ rateLimits: { postsPerSecondPerChannel: 1, burst: 1 } });
    // minTimeout 0: web-api already slept Retry-After; p-retry's own backoff would only add to it.
    const client = clientFor(fake, { retryConfig: { retries: 2, minTimeout: 0, maxTimeout: 0 } });
    const rateLimited: number[] = [];
    client.on(WebClientEvent.RATE_LIMITED, (retryAfter: number) => rateLimited.push(retryAfter));
    await client.chat.postMessage({ channel, text: 'first' });
    const started = performance.now();
    await client.chat.postMessage({ channel, text: 'second' });
    expect(performance.now() - started).toBeGreaterThanOrEqual(950);
    expect(rateLimited).toEqual([1]);
    expect(fake.state.calls('chat.postMessage').map((c) => c.status)).toEqual([200, 429, 200]);
    expect(fake.state.messages.history(channel).map((m) => m.text)).toEqual(['first', 'second']);
  });

  it('injects 5xx faults that WebClient retries past', async () => {
    const fake = await fakeSlack();
    fake.injectFault({ method: 'chat.postMessage', status: 503, times: 2 });
    const client = clientFor(fake, { retryConfig: { retries: 3, minTimeout: 0, maxTimeout: 0 } });
    await client.chat.postMessage({ channel, text: 'eventually' });
    const calls = fake.state.calls('chat.postMessage').map((c) => [c.status, c.injected]);
    expect(calls).toEqual([
      [503, true],
      [503, true],
      [200, false],
    ]);
  });

  it('surfaces an injected 500 as an HTTP error when the client does not retry', async () => {
    const fake = await fakeSlack();
    fake.injectFault({ status: 500 });
    await expect(clientFor(fake).auth.test()).rejects.toMatchObject({
      code: ErrorCode.HTTPError,
      statusCode: 500,
    });
    await expect(clientFor(fake).auth.test()).resolves.toMatchObject({ ok: true });
  });

  it('injects 429s with a chosen Retry-After, counted like real ones', async () => {
    const fake = await fakeSlack();
    fake.injectFault({ method: 'views.publish', status: 429, retryAfter: 7 });
    const client = clientFor(fake, { rejectRateLimitedCalls: true });
    await expect(client.auth.test()).resolves.toBeTruthy();
    await expect(
      client.views.publish({ user_id: SEEDED.users.bob, view: { type: 'home', blocks: [] } }),
    ).rejects.toMatchObject({ code: ErrorCode.RateLimitedError, retryAfter: 7 });
    expect(fake.state.ratelimitedCount).toBe(1);
  });
});
