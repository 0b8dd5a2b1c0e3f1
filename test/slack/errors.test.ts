import { describe, expect, it } from 'vitest';
import { GatewayUnavailable } from '../../src/gateway/index.js';
import { userMessageFor } from '../../src/slack/errors.js';

describe('what a user reads when the gateway call failed', () => {
  it('a call abandoned by a stopping bot says so, not that the gateway answered something unreadable', () => {
    const text = userMessageFor(
      new GatewayUnavailable('GetBalance', 'aborted', 'abandoned: smsops is shutting down', true),
    );
    expect(text).toContain('smsops is restarting');
    expect(text).not.toContain('unreadable');
  });

  it('a gateway that answered late still reads as late', () => {
    const text = userMessageFor(
      new GatewayUnavailable('GetBalance', 'timeout', 'no reply within 15000 ms', true),
    );
    expect(text).toContain('did not answer in time');
  });
});
