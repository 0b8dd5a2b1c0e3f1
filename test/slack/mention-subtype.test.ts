import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { SlackMessage } from '../../workspace/index.js';
import { captureLogger } from '../support/logs.js';
import { channels, type Harness, startHarness, users } from '../support/slack-harness.js';

const NUMBER = '905321234567';

/**
 * An app_mention with a subtype is not somebody typing `@smsops <text>` in the thread of an inbound SMS: a mention
 * of the app inside a canvas comes as `document_mention`, and must never become an SMS answer to that number.
 */
describe('app_mention with a subtype', () => {
  let h: Harness;
  let post: SlackMessage;
  const captured = captureLogger();

  beforeAll(async () => {
    h = await startHarness({ logger: captured.logger });
    await h.store.permissions.grant(users.alice, 'sender', users.admin);
    const [gatewayId] = (await h.control.inbound([{ MSISDN: NUMBER, Text: 'Is my order ready?' }])).ids as [
      number,
    ];
    await h.store.subscriptions.add(channels.smsOps, { kind: 'inbound' }, users.admin);
    await h.bot.relay.pollOnce();
    post = await h.fake.state.waitForMessage((m) =>
      JSON.stringify(m.blocks ?? []).includes(`inbound_${gatewayId}`),
    );
  });
  afterAll(() => h.close());

  it('is not taken as an answer in the thread: no preview, nothing drafted', async () => {
    const ts = '1800000000.000100';
    const after = h.fake.state.journal.seq;
    const delivered = await h.driver.event({
      type: 'app_mention',
      subtype: 'document_mention',
      user: users.alice,
      text: `<@${h.fake.identity.botUserId}> Yes, it ships today`,
      ts,
      thread_ts: post.ts,
      channel: channels.smsOps,
      event_ts: ts,
    });
    expect(delivered.status).toBe(200);
    await vi.waitFor(
      () =>
        expect(captured.lines.map((l) => l.msg)).toContain(
          'mention with a subtype: not an answer in a thread',
        ),
      { timeout: 5_000, interval: 20 },
    );
    expect(h.fake.state.journal.entries('ephemeral').filter((e) => e.seq > after)).toEqual([]);
    expect(await h.store.jobRuns.get('app_mention', `${channels.smsOps}:${ts}`)).toBeUndefined();
  });
});
