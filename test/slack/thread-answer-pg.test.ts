import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/index.js';
import type { SlackMessage } from '../../workspace/index.js';
import { dropSchema, pgSkipNote, pgUrl, scratchSchema } from '../store/helpers.js';
import { channels, type Harness, startHarness, users } from '../support/slack-harness.js';

/**
 * Two instances on one PostgreSQL database behind one Slack workspace: Slack's redelivery of a mention may reach
 * the other instance. It is answered once, and sent once.
 */
describe.skipIf(!pgUrl)(`answer in the thread with two instances on PostgreSQL${pgSkipNote}`, () => {
  const schema = scratchSchema();
  let one: Harness;
  let two: Harness;
  let post: SlackMessage;

  beforeAll(async () => {
    one = await startHarness({ store: await openStore(pgUrl!, { schema }) });
    // The second instance: its own process and store connection, the same database and the same workspace.
    two = await startHarness({
      store: await openStore(pgUrl!, { schema }),
      fakeSlack: { state: one.fake.state, botToken: one.fake.botToken },
    });
    await one.store.permissions.grant(users.alice, 'sender', users.admin);
    const [gatewayId] = (
      await one.control.inbound([{ MSISDN: '905321234567', Text: 'Where is my parcel?', Recipient: 'ACME' }])
    ).ids as [number];
    await one.store.subscriptions.add(channels.smsOps, { kind: 'inbound' }, users.admin);
    await one.bot.relay.pollOnce();
    post = await one.fake.state.waitForMessage((m) =>
      JSON.stringify(m.blocks ?? []).includes(`inbound_${gatewayId}`),
    );
  });
  afterAll(async () => {
    await two?.close();
    await one?.close();
    await dropSchema(schema);
  });

  it('shows one preview and sends one SMS when the retry reaches the other instance', async () => {
    const state = one.fake.state;
    const after = state.journal.seq;
    const typed = await one.driver.userMessage({
      userId: users.alice,
      channelId: channels.smsOps,
      text: '<@U0SMSBOT> It is on its way',
      threadTs: post.ts,
    });
    expect(typed.mention?.status).toBe(200);
    const preview = (
      await state.waitFor(
        'ephemeral',
        (e) => e.action === 'posted' && JSON.stringify(e.message).includes('It is on its way'),
        { after },
      )
    ).message;
    // Slack thought the ack lost and redelivers the same event; a load balancer sends it to instance two.
    const retried = await two.driver.event(
      {
        type: 'app_mention',
        user: users.alice,
        text: typed.message.text,
        ts: typed.message.ts,
        thread_ts: post.ts,
        team: 'T0LOCAL',
        channel: channels.smsOps,
        event_ts: typed.message.ts,
      },
      { retryNum: 1, retryReason: 'http_timeout' },
    );
    expect(retried.status).toBe(200);
    // Send is clicked; instance two gets the click.
    await two.driver.blockAction({ userId: users.alice, message: preview, actionId: 'thread_answer_send' });
    const card = await state.waitForMessage((m) => m.text.startsWith('SMS batch '), { after });
    expect(card.thread_ts).toBe(post.ts);
    // A mention after the retry: had the retry shown a preview, it would have come before this one's answer.
    const markerAfter = state.journal.seq;
    await one.driver.userMessage({
      userId: users.alice,
      channelId: channels.smsOps,
      text: '<@U0SMSBOT>',
      threadTs: post.ts,
    });
    await state.waitFor('ephemeral', (e) => JSON.stringify(e.message).includes('no text after'), {
      after: markerAfter,
    });
    const previews = state.journal
      .values('ephemeral')
      .filter((e) => e.action === 'posted' && JSON.stringify(e.message).includes('It is on its way'));
    expect(previews).toHaveLength(1);
    const submits =
      ((await one.control.state()).callCounts.Submit ?? 0) +
      ((await two.control.state()).callCounts.Submit ?? 0);
    expect(submits).toBe(1);
    const rows = (await one.store.outbox.recent(10)).filter((r) => r.text === 'It is on its way');
    expect(rows).toHaveLength(1);
  });
});
