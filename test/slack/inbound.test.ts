import type { RespondArguments } from '@slack/bolt';
import { webApi } from '@slack/bolt';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CommandContext } from '../../src/slack/commands/context.js';
import { subscribeInbound, unsubscribeInbound } from '../../src/slack/commands/inbound.js';
import { UserInputError } from '../../src/slack/errors.js';
import type { Role } from '../../src/store/index.js';
import type { SlackMessage } from '../../workspace/index.js';
import { channels, type Harness, startHarness, users } from '../support/slack-harness.js';

describe('/sms subscribe inbound and /sms unsubscribe inbound', () => {
  let h: Harness;
  let replies: RespondArguments[];
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());
  beforeEach(() => {
    replies = [];
  });

  /** The subcommand as the router calls it, after its ack and role check. */
  function run(
    handler: (ctx: CommandContext) => Promise<void>,
    text: string,
    options: { channelId?: string; role?: Role; userId?: string } = {},
  ) {
    const args = text.split(/\s+/).filter(Boolean);
    return handler({
      deps: h.deps,
      client: new webApi.WebClient(h.fake.botToken, { slackApiUrl: h.fake.apiUrl }),
      userId: options.userId ?? users.admin,
      channelId: options.channelId ?? channels.alerts,
      triggerId: '',
      role: options.role ?? 'admin',
      args,
      rest: args.slice(1).join(' '),
      respond: async (message) => {
        replies.push(message);
      },
    });
  }
  const inbound = async (channel: string) =>
    (await h.store.subscriptions.listByChannel(channel))
      .filter((s) => s.kind === 'inbound')
      .map((s) => [s.keyword ?? null, s.recipient ?? null]);

  it('subscribes the channel, with an optional keyword and recipient, once', async () => {
    await run(subscribeInbound, 'inbound keyword ANKET to 4440123');
    expect(await inbound(channels.alerts)).toEqual([['ANKET', '4440123']]);
    expect(replies[0]).toMatchObject({ response_type: 'in_channel' });
    expect(replies[0]!.text).toContain('inbound SMS with keyword *ANKET* sent to *4440123*');
    await run(subscribeInbound, 'inbound to 4440123 keyword anket');
    expect(await inbound(channels.alerts)).toEqual([['ANKET', '4440123']]);
    expect(replies[1]).toMatchObject({ response_type: 'ephemeral' });
    expect(replies[1]!.text).toContain('already gets');
    await run(subscribeInbound, 'inbound');
    expect(await inbound(channels.alerts)).toEqual([
      ['ANKET', '4440123'],
      [null, null],
    ]);
    expect(replies[2]!.text).toContain('subscribed this channel to every inbound SMS');
    const audit = await h.store.audit.recent(5);
    expect(
      audit.filter((a) => a.action === 'subscribe_inbound' && a.target === channels.alerts),
    ).toHaveLength(2);
  });

  it('unsubscribes one filter, or everything, and says what is left', async () => {
    await run(unsubscribeInbound, 'inbound keyword ANKET to 4440123');
    expect(await inbound(channels.alerts)).toEqual([[null, null]]);
    expect(replies[0]!.text).toMatch(
      /unsubscribed this channel from inbound SMS with keyword \*ANKET\*.*still gets every inbound SMS/,
    );
    await run(unsubscribeInbound, 'inbound');
    expect(await inbound(channels.alerts)).toEqual([]);
    await run(unsubscribeInbound, 'inbound');
    expect(replies[2]).toMatchObject({
      response_type: 'ephemeral',
      text: expect.stringContaining('has no inbound SMS subscription'),
    });
  });

  it('refuses what it does not understand, changing nothing', async () => {
    await expect(run(subscribeInbound, 'inbound keyword')).rejects.toThrow(UserInputError);
    await expect(run(subscribeInbound, 'inbound colour red')).rejects.toThrow(/did not understand “colour”/);
    await expect(run(subscribeInbound, 'inbound keyword two words')).rejects.toThrow(UserInputError);
    await expect(run(subscribeInbound, 'inbound to <@U0ALICE>')).rejects.toThrow(/recipient/);
    expect(await inbound(channels.alerts)).toEqual([]);
  });

  it('is for admins only', async () => {
    await run(subscribeInbound, 'inbound', { role: 'sender', userId: users.alice });
    expect(replies[0]!.text).toMatch(/You need the \*admin\* role/);
    expect(await inbound(channels.alerts)).toEqual([]);
  });

  it('joins a public channel it is not in; a private one must invite it first', async () => {
    await run(subscribeInbound, 'inbound', { channelId: channels.random });
    expect(h.fake.state.directory.isMember(channels.random, h.fake.identity.botUserId)).toBe(true);
    expect(await inbound(channels.random)).toEqual([[null, null]]);
    await expect(run(subscribeInbound, 'inbound', { channelId: channels.finance })).rejects.toThrow(
      /invite @smsops/,
    );
    expect(await inbound(channels.finance)).toEqual([]);
  });

  it('works end to end through /sms', async () => {
    const after = h.fake.state.journal.seq;
    await h.sms('subscribe inbound keyword KATIL', users.admin, channels.general);
    // The subscription is written after the ack; the channel is told once it is stored.
    await h.fake.state.waitForMessage(
      (m) => m.channel === channels.general && JSON.stringify(m).includes('KATIL'),
      { after },
    );
    expect(await inbound(channels.general)).toEqual([['KATIL', null]]);
  });

  it('subscribes a private channel the bot was invited to, with the scopes manifest.yml grants', async () => {
    h.fake.state.directory.join(channels.finance, h.fake.identity.botUserId);
    const after = h.fake.state.journal.seq;
    await h.sms('subscribe inbound', users.admin, channels.finance);
    const told = await h.fake.state.waitFor(
      'response',
      (r) => JSON.stringify(r.body).includes('subscribed') || JSON.stringify(r.body).includes('wrong'),
      { after },
    );
    expect(JSON.stringify(told.body)).not.toMatch(/Something went wrong/);
    expect(h.fake.state.calls('conversations.info').at(-1)?.result).toMatchObject({ ok: true });
    expect(await inbound(channels.finance)).toEqual([[null, null]]);
  });
});

describe('Reply button on an inbound SMS', () => {
  let h: Harness;
  let post: SlackMessage;
  let gatewayId: number;
  beforeAll(async () => {
    h = await startHarness();
    await h.store.permissions.grant(users.alice, 'sender', users.admin);
    [gatewayId] = (
      await h.control.inbound([{ MSISDN: '905321234567', Text: 'Is my order ready?', Recipient: 'ACME' }])
    ).ids as [number];
    await h.store.subscriptions.add(channels.smsOps, { kind: 'inbound' }, users.admin);
    const { relay } = h.bot;
    await relay.pollOnce();
    post = await h.fake.state.waitForMessage((m) =>
      JSON.stringify(m.blocks ?? []).includes(`inbound_${gatewayId}`),
    );
  });
  afterAll(() => h.close());

  /** Reply on the relayed SMS, as userId. */
  const clickReply = (userId: string) =>
    h.driver.blockAction({
      userId,
      message: post,
      actionId: 'inbound_reply',
      blockId: `inbound_${gatewayId}`,
    });

  it('opens the composer prefilled with the number and our sender, and the card goes into the thread', async () => {
    const after = h.fake.state.journal.seq;
    await clickReply(users.alice);
    const call = await h.fake.state.waitForCall(
      'views.update',
      (c) => (c.args.view as { callback_id?: string }).callback_id === 'compose',
      { after },
    );
    const view = h.fake.state.views.get(String(call.args.view_id))!;
    const blocks = JSON.stringify(view.blocks);
    expect(blocks).toContain('"initial_value":"+90 532 123 45 67"');
    expect(blocks).toMatch(/"initial_option":\{"text":\{"type":"plain_text","text":"ACME"/);
    const textBlock = (view.blocks as { block_id?: string }[]).find((b) => b.block_id?.startsWith('text'))!
      .block_id!;
    await h.driver.viewSubmission({
      userId: users.alice,
      view,
      values: { [textBlock]: { text: 'Yes, it is!' } },
    });
    const card = await h.fake.state.waitForMessage((m) => m.text.startsWith('SMS batch '), { after });
    expect(card.channel).toBe(channels.smsOps);
    expect(card.thread_ts).toBe(post.ts);
    const row = (await h.store.outbox.recent(1))[0]!;
    expect(row).toMatchObject({ recipients: ['905321234567'], sender: 'ACME', text: 'Yes, it is!' });
  });

  it('tells someone without the sender role why nothing opens', async () => {
    const after = h.fake.state.journal.seq;
    await clickReply(users.bob);
    const denial = await h.fake.state.waitFor(
      'response',
      (r) => JSON.stringify(r.body).includes('You need the *sender* role'),
      { after },
    );
    expect(denial).toBeDefined();
    expect(h.fake.state.calls('views.open').filter((c) => c.seq > after)).toEqual([]);
  });
});
