import { describe, expect, it } from 'vitest';
import { GatewayUnavailable } from '../../src/gateway/index.js';
import { userMessageFor } from '../../src/slack/errors.js';

describe('what a user reads when the gateway call failed', () => {
  it('a read abandoned by a stopping bot says so, not that the gateway answered something unreadable', () => {
    const text = userMessageFor(new GatewayUnavailable('GetBalance', 'closing', 'abandoned', true));
    expect(text).toContain('smsops is stopping');
    expect(text).not.toContain('unreadable');
  });

  it('a Cancel cut off by a stopping bot may have been done, and says so', () => {
    const text = userMessageFor(new GatewayUnavailable('Cancel', 'closing', 'abandoned', true));
    expect(text).toContain('may have been done');
  });

  it('a call a stopping bot refused before sending says nothing was sent', () => {
    const text = userMessageFor(new GatewayUnavailable('Cancel', 'closing', 'not sent', false));
    expect(text).toContain('nothing was sent');
  });

  it('a gateway that answered late still reads as late', () => {
    const text = userMessageFor(
      new GatewayUnavailable('GetBalance', 'timeout', 'no reply within 15000 ms', true),
    );
    expect(text).toContain('did not answer in time');
  });
});
