import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EphemeralMessage, SlackMessage } from '../../workspace/index.js';
import { channels, type Harness, startHarness, users } from '../support/slack-harness.js';

const BOT = '<@U0SMSBOT>';
const NUMBER = '905321234567';

/**
 * Answer in the thread: `@smsops <text>` typed in the thread of an inbound SMS, through the real interface (the
 * workspace posts the message and delivers Slack's signed app_mention event to the Bolt app; the SMS goes to the
 * simulator).
 */
describe('@smsops in the thread of an inbound SMS', () => {
  let h: Harness;
  let post: SlackMessage;

  beforeAll(async () => {
    h = await startHarness();
    await h.store.permissions.grant(users.alice, 'sender', users.admin);
    await h.store.permissions.grant(users.bob, 'viewer', users.admin);
    const [gatewayId] = (
      await h.control.inbound([{ MSISDN: NUMBER, Text: 'Is my order ready?', Recipient: 'ACME' }])
    ).ids as [number];
    await h.store.subscriptions.add(channels.smsOps, { kind: 'inbound' }, users.admin);
    await h.bot.relay.pollOnce();
    post = await h.fake.state.waitForMessage((m) =>
      JSON.stringify(m.blocks ?? []).includes(`inbound_${gatewayId}`),
    );
  });
  afterAll(() => h.close());

  const submits = async () => (await h.control.state()).callCounts.Submit ?? 0;

  /** A user types in the thread (or the channel) and presses Enter. */
  async function say(text: string, options: { userId?: string; threadTs?: string | null } = {}) {
    const after = h.fake.state.journal.seq;
    const threadTs = options.threadTs === null ? undefined : (options.threadTs ?? post.ts);
    const sent = await h.driver.userMessage({
      userId: options.userId ?? users.alice,
      channelId: channels.smsOps,
      text,
      ...(threadTs ? { threadTs } : {}),
    });
    return { ...sent, after };
  }

  async function ephemeralAfter(after: number, userId: string, match: RegExp): Promise<EphemeralMessage> {
    const event = await h.fake.state.waitFor(
      'ephemeral',
      (e) => e.action === 'posted' && e.message.recipient === userId && match.test(JSON.stringify(e.message)),
      { after },
    );
    return event.message;
  }

  it('shows its author privately the SMS, its segments and cost; Send sends one SMS and puts the card in the thread', async () => {
    const before = await submits();
    const { mention, after } = await say(`${BOT} Yes, it ships today &amp; arrives tomorrow`);
    expect(mention?.status).toBe(200);
    expect(mention?.late).toBe(false);
    const preview = await ephemeralAfter(after, users.alice, /Send this SMS to/);
    expect(preview.thread_ts).toBe(post.ts);
    const shown = JSON.stringify(preview.blocks);
    expect(shown).toContain('+90 532 123 45 67');
    expect(shown).toContain('Yes, it ships today &amp; arrives tomorrow');
    expect(shown).toMatch(/From \*ACME\* · GSM-7 · 1 segment · est\. cost/);
    expect(await submits()).toBe(before);

    await h.driver.blockAction({ userId: users.alice, message: preview, actionId: 'thread_answer_send' });
    const card = await h.fake.state.waitForMessage((m) => m.text.startsWith('SMS batch '), { after });
    expect(card.channel).toBe(channels.smsOps);
    expect(card.thread_ts).toBe(post.ts);
    expect(await submits()).toBe(before + 1);
    const row = (await h.store.outbox.recent(1))[0]!;
    expect(row).toMatchObject({
      recipients: [NUMBER],
      sender: 'ACME',
      text: 'Yes, it ships today & arrives tomorrow',
      slackUser: users.alice,
      state: 'submitted',
    });
    await h.fake.state.waitFor(
      'response',
      (r) => JSON.stringify(r.body).includes(`Sent. Batch *${row.messageId}*`),
      { after },
    );

    // A second click on the same preview sends nothing more.
    await h.driver.blockAction({ userId: users.alice, message: preview, actionId: 'thread_answer_send' });
    await h.fake.state.waitFor(
      'response',
      (r) => JSON.stringify(r.body).includes('already sent, cancelled'),
      {
        after,
      },
    );
    expect(await submits()).toBe(before + 1);
  });

  it('Cancel sends nothing, and the preview says so', async () => {
    const before = await submits();
    const { after } = await say(`${BOT} Never mind`);
    const preview = await ephemeralAfter(after, users.alice, /Send this SMS to/);
    await h.driver.blockAction({ userId: users.alice, message: preview, actionId: 'thread_answer_cancel' });
    await h.fake.state.waitFor(
      'response',
      (r) => JSON.stringify(r.body).includes('Cancelled: nothing was sent'),
      {
        after,
      },
    );
    await h.driver.blockAction({ userId: users.alice, message: preview, actionId: 'thread_answer_send' });
    await h.fake.state.waitFor(
      'response',
      (r) => JSON.stringify(r.body).includes('already sent, cancelled'),
      {
        after,
      },
    );
    expect(await submits()).toBe(before);
  });

  it('plain chat in the thread sends nothing and shows nothing', async () => {
    const before = await submits();
    const { mention, event, after } = await say('Yes, it ships today');
    // Slack does not even send it: the manifest subscribes to no message.* event, only to app_mention.
    expect(event).toBeUndefined();
    expect(mention).toBeUndefined();
    // Something that does answer, afterwards: had the chat been taken for an answer, its ephemeral came first.
    await say(BOT);
    const next = await ephemeralAfter(after, users.alice, /./);
    expect(JSON.stringify(next)).toContain('no text after');
    expect(await submits()).toBe(before);
  });

  it('explains privately a mention outside a conversation thread, without the sender role, or without text', async () => {
    const before = await submits();
    const outside = await say(`${BOT} hello`, { threadTs: null });
    const o = await ephemeralAfter(outside.after, users.alice, /./);
    expect(JSON.stringify(o)).toContain('only inside the thread of an inbound SMS');
    expect(o.thread_ts).toBeUndefined();

    const own = await say('Some discussion', { threadTs: null });
    const unrelated = await say(`${BOT} hello`, { threadTs: own.message.ts });
    const u = await ephemeralAfter(unrelated.after, users.alice, /./);
    expect(JSON.stringify(u)).toContain('not a current inbound SMS conversation');

    const viewer = await say(`${BOT} hello`, { userId: users.bob });
    const v = await ephemeralAfter(viewer.after, users.bob, /./);
    expect(JSON.stringify(v)).toContain('You need the *sender* role');
    expect(v.thread_ts).toBe(post.ts);

    const empty = await say(`${BOT}   `);
    const e = await ephemeralAfter(empty.after, users.alice, /./);
    expect(JSON.stringify(e)).toContain('no text after');
    expect(await submits()).toBe(before);
  });

  it('a mention Slack delivers again (X-Slack-Retry-Num) is answered once and sends once', async () => {
    const before = await submits();
    const { mention, after } = await say(`${BOT} Your parcel left the depot`);
    const preview = await ephemeralAfter(after, users.alice, /Send this SMS to/);
    const retried = await h.driver.redeliver(mention!, 1, 'http_timeout');
    expect(retried.status).toBe(200);
    await h.driver.blockAction({ userId: users.alice, message: preview, actionId: 'thread_answer_send' });
    await h.fake.state.waitForMessage((m) => m.text.startsWith('SMS batch '), { after });
    const again = await h.driver.redeliver(mention!, 2, 'http_timeout');
    expect(again.status).toBe(200);
    // The mention's own later echo: a new mention whose ephemeral comes after any the retries could have made.
    const marker = await say(BOT);
    await ephemeralAfter(marker.after, users.alice, /no text after/);
    const previews = h.fake.state.journal
      .values('ephemeral')
      .filter(
        (e) => e.action === 'posted' && JSON.stringify(e.message).includes('Your parcel left the depot'),
      );
    expect(previews).toHaveLength(1);
    expect(await submits()).toBe(before + 1);
  });
});
