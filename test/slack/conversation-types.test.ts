import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEEDED } from '../../workspace/index.js';
import { type Harness, startHarness, textBlockOf, users } from '../support/slack-harness.js';

/**
 * Slack's kinds of conversation, as the bot meets them: private channels with C… ids (Slack gives new private
 * channels C… ids too), group DMs with and without the bot, a DM between two people, and the bot's own DM.
 */
const PRIVATE_WITH_BOT = 'C0PRIVBOT';
const PRIVATE_WITHOUT_BOT = 'C0PRIVNOBOT';
const GROUP_DM_WITH_BOT = 'C0MPIMBOT';
const GROUP_DM_WITHOUT_BOT = 'G0MPIMNOBOT';
const PEOPLE_DM = 'D0ADAALICE';
const ARCHIVED = 'C0ARCHIVED';

describe('subscriptions in every kind of conversation', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
    const { directory, identity } = h.fake.state;
    const people = [users.admin, users.alice];
    const add = (id: string, kind: 'public' | 'private' | 'mpim' | 'im', withBot: boolean) =>
      directory.addChannel({
        id,
        name: id.toLowerCase(),
        kind,
        members: withBot ? [...people, identity.botUserId] : people,
        createdSec: 0,
      });
    add(PRIVATE_WITH_BOT, 'private', true);
    add(PRIVATE_WITHOUT_BOT, 'private', false);
    add(GROUP_DM_WITH_BOT, 'mpim', true);
    add(GROUP_DM_WITHOUT_BOT, 'mpim', false);
    add(PEOPLE_DM, 'im', false);
    add(ARCHIVED, 'public', true).isArchived = true;
  });
  afterAll(() => h.close());

  const subscriptions = async (channel: string) =>
    (await h.store.subscriptions.listByChannel(channel)).map((s) => s.kind);

  /** What the person is told after running `/sms <text>` in a channel. */
  async function answer(text: string, channel: string): Promise<Record<string, unknown>> {
    const after = h.fake.state.journal.seq;
    await h.sms(text, users.admin, channel);
    return (await h.fake.state.waitFor('response', () => true, { after })).body;
  }

  it.each([
    ['a private channel with a C… id the bot is in', PRIVATE_WITH_BOT],
    ['a group DM the bot is in', GROUP_DM_WITH_BOT],
    ["the bot's own DM", SEEDED.ims.admin],
  ])('accepts an inbound subscription in %s', async (_name, channel) => {
    expect(JSON.stringify(await answer('subscribe inbound', channel))).toContain('subscribed this channel');
    expect(await subscriptions(channel)).toEqual(['inbound']);
  });

  it.each([
    ['a private channel with a C… id the bot is not in', PRIVATE_WITHOUT_BOT, /invite @smsops/],
    ['a group DM without the bot', GROUP_DM_WITHOUT_BOT, /cannot post in this conversation/],
    ['a DM between two people', PEOPLE_DM, /cannot post in this conversation/],
    ['an archived channel', ARCHIVED, /archived/],
  ])(
    'refuses at once, privately and with the reason, an inbound or digest subscription in %s',
    async (_name, channel, reason) => {
      for (const command of ['subscribe inbound', 'subscribe digest balance daily 09:00']) {
        const told = await answer(command, channel);
        expect(told).toMatchObject({ response_type: 'ephemeral' });
        expect(JSON.stringify(told)).toMatch(reason);
      }
      expect(await subscriptions(channel)).toEqual([]);
    },
  );

  it('tells the sender privately what to do when a send comes from a conversation closed to the bot', async () => {
    const after = h.fake.state.journal.seq;
    await h.driver.slashCommand({ command: '/sms', text: 'send', userId: users.admin, channelId: PEOPLE_DM });
    const opened = await h.fake.state.waitForCall(
      'views.update',
      (c) => (c.args.view as { callback_id?: string }).callback_id === 'compose',
      { after },
    );
    const view = h.fake.state.views.get(String(opened.args.view_id))!;
    const textBlock = textBlockOf(view);
    await h.driver.viewSubmission({
      userId: users.admin,
      view,
      values: { recipients: { recipients: '0532 123 45 67' }, [textBlock]: { text: 'From a DM' } },
    });
    const dm = SEEDED.ims.admin;
    const note = await h.fake.state.waitForMessage(
      (m) => m.channel === dm && /cannot post in the conversation/.test(m.text),
      {
        after,
      },
    );
    expect(note.text).toContain('/invite @smsops');
    await h.fake.state.waitForMessage((m) => m.channel === dm && m.text.startsWith('SMS batch'), { after });
  });

  it('accepts a digest in a private channel the bot is in', async () => {
    expect(JSON.stringify(await answer('subscribe digest balance daily 09:00', PRIVATE_WITH_BOT))).toContain(
      'subscribed',
    );
    expect(await subscriptions(PRIVATE_WITH_BOT)).toContain('digest');
  });
});
