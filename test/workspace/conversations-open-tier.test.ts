import { describe, expect, it } from 'vitest';
import { SEEDED } from '../../workspace/index.js';
import { clientFor, ErrorCode, fakeSlack, manualClock } from './helpers.js';

/** docs.slack.dev/reference/methods/conversations.open: Tier 3, fifty a minute, as the workspace allows each tier. */
describe('conversations.open within its rate tier', () => {
  it('answers the 51st call of a minute with 429 and Retry-After, and again once the minute has refilled', async () => {
    const clock = manualClock();
    const fake = await fakeSlack({ clock: clock.now, rateLimits: true, scopes: ['chat:write', 'im:write'] });
    const client = clientFor(fake, { rejectRateLimitedCalls: true });
    for (let i = 0; i < 50; i++) await client.conversations.open({ users: SEEDED.users.alice });
    await expect(client.conversations.open({ users: SEEDED.users.bob })).rejects.toMatchObject({
      code: ErrorCode.RateLimitedError,
      retryAfter: 2,
    });
    expect(fake.state.calls('conversations.open').at(-1)).toMatchObject({
      status: 429,
      result: { ok: false, error: 'ratelimited' },
    });
    clock.advance(2_000);
    await expect(client.conversations.open({ users: SEEDED.users.bob })).resolves.toMatchObject({ ok: true });
  });
});
