import { describe, expect, it } from 'vitest';
import { SEEDED } from '../../workspace/index.js';
import { clientFor, fakeSlack, quietLogger, slackError, WebClient } from './helpers.js';

const { channels, users } = SEEDED;

const fileIdOf = (result: unknown) => String((result as { file_id?: string }).file_id);
const section = (text: string) => ({ type: 'section', text: { type: 'mrkdwn', text } });
const button = (text: string, action_id: string) => ({
  type: 'button',
  text: { type: 'plain_text', text },
  action_id,
});

/** Block sets Slack refuses, each with the json-pointer its explanation must name. */
const INVALID_BLOCKS: { name: string; blocks: unknown[]; pointer: string }[] = [
  {
    name: 'more than 50 blocks',
    blocks: Array.from({ length: 51 }, () => ({ type: 'divider' })),
    pointer: '/blocks',
  },
  { name: 'section text over 3000', blocks: [section('x'.repeat(3001))], pointer: '/blocks/0/text/text' },
  {
    name: 'header text over 150',
    blocks: [{ type: 'header', text: { type: 'plain_text', text: 'h'.repeat(151) } }],
    pointer: '/blocks/0/text/text',
  },
  { name: 'unknown block type', blocks: [{ type: 'carousel_of_doom' }], pointer: '/blocks/0/type' },
  {
    name: 'actions with 26 elements',
    blocks: [{ type: 'actions', elements: Array.from({ length: 26 }, (_, i) => button('b', `a${i}`)) }],
    pointer: '/blocks/0/elements',
  },
  {
    name: 'button text over 75',
    blocks: [{ type: 'actions', elements: [button('b'.repeat(76), 'a')] }],
    pointer: '/blocks/0/elements/0/text/text',
  },
  {
    name: 'duplicate block_id',
    blocks: [
      { ...section('one'), block_id: 'same' },
      { ...section('two'), block_id: 'same' },
    ],
    pointer: '/blocks/1/block_id',
  },
  {
    name: 'duplicate action_id in a block',
    blocks: [{ type: 'actions', elements: [button('a', 'dup'), button('b', 'dup')] }],
    pointer: '/blocks/0/elements/1/action_id',
  },
  {
    name: 'mrkdwn where only plain_text is allowed',
    blocks: [{ type: 'header', text: { type: 'mrkdwn', text: 'hi' } }],
    pointer: '/blocks/0/text/type',
  },
  {
    name: 'text object without a type',
    blocks: [{ type: 'section', text: { text: 'hi' } }],
    pointer: '/blocks/0/text/type',
  },
  {
    name: 'empty text',
    blocks: [{ type: 'section', text: { type: 'plain_text', text: '' } }],
    pointer: '/blocks/0/text/text',
  },
];

describe('Slack-like validation', () => {
  it.each(INVALID_BLOCKS)('refuses $name with invalid_blocks', async ({ blocks, pointer }) => {
    const fake = await fakeSlack();
    const refusal = await slackError(
      clientFor(fake).chat.postMessage({ channel: channels.smsOps, text: 'x', blocks: blocks as never }),
    );
    expect(refusal.error).toBe('invalid_blocks');
    expect(refusal.messages.join('\n')).toContain(`[json-pointer:${pointer}]`);
    expect(fake.state.messages.all()).toEqual([]);
  });

  it('accepts exactly 50 blocks and the same action_id in different blocks', async () => {
    const fake = await fakeSlack();
    const client = clientFor(fake);
    const fifty = Array.from({ length: 50 }, () => ({ type: 'divider' as const }));
    await expect(
      client.chat.postMessage({ channel: channels.smsOps, text: 'x', blocks: fifty }),
    ).resolves.toBeTruthy();
    const twoBlocks = [
      { type: 'actions', elements: [button('a', 'same')] },
      { type: 'actions', elements: [button('b', 'same')] },
    ];
    await expect(
      client.chat.postMessage({ channel: channels.smsOps, text: 'x', blocks: twoBlocks as never }),
    ).resolves.toBeTruthy();
  });

  it('refuses an empty message with no_text and a long one with msg_too_long', async () => {
    const client = clientFor(await fakeSlack());
    expect((await slackError(client.chat.postMessage({ channel: channels.smsOps, text: '' }))).error).toBe(
      'no_text',
    );
    expect((await slackError(client.chat.postMessage({ channel: channels.smsOps, blocks: [] }))).error).toBe(
      'no_text',
    );
    const long = 'x'.repeat(40_001);
    expect((await slackError(client.chat.postMessage({ channel: channels.smsOps, text: long }))).error).toBe(
      'msg_too_long',
    );
  });

  it('refuses blocks too long in total with msg_blocks_too_long, button values counted, each block valid', async () => {
    const fake = await fakeSlack();
    const client = clientFor(fake);
    const withButton = (text: string, value: string) => ({
      ...section(text),
      accessory: { ...button('Reply', 'reply'), value },
    });
    // Five sections of 2,200 characters: each within its 3,000, 11,000 in all, and fine.
    const fine = Array.from({ length: 5 }, () => section('x'.repeat(2200)));
    const posted = await client.chat.postMessage({ channel: channels.smsOps, text: 'ok', blocks: fine });
    // The same text with a 300-character button value on each: 12,500 characters, refused.
    const tooLong = Array.from({ length: 5 }, () => withButton('x'.repeat(2200), 'v'.repeat(300)));
    for (const call of [
      client.chat.postMessage({ channel: channels.smsOps, text: 'x', blocks: tooLong }),
      client.chat.update({ channel: channels.smsOps, ts: posted.ts!, text: 'x', blocks: tooLong }),
    ]) {
      expect((await slackError(call)).error).toBe('msg_blocks_too_long');
    }
  });

  it('takes the argument names Slack documents: alt_txt for a file, a channel id for chat.update', async () => {
    const fake = await fakeSlack();
    const client = clientFor(fake);
    const named = await client.apiCall('files.getUploadURLExternal', {
      filename: 'a.png',
      length: 3,
      alt_txt: 'A bar chart',
    });
    expect(fake.state.files.get(fileIdOf(named))?.altText).toBe('A bar chart');
    // alt_text is not Slack's name for it: like any unknown argument, it changes nothing.
    const misnamed = await client.apiCall('files.getUploadURLExternal', {
      filename: 'b.png',
      length: 3,
      alt_text: 'A bar chart',
    });
    expect(fake.state.files.get(fileIdOf(misnamed))?.altText).toBeUndefined();
    const tooLong = client.apiCall('files.getUploadURLExternal', {
      filename: 'c.png',
      length: 3,
      alt_txt: 'x'.repeat(1001),
    });
    expect((await slackError(tooLong)).error).toBe('alt_txt_too_large');

    // chat.postMessage takes a user id for the DM; chat.update needs the conversation's id it answered with.
    const posted = await client.chat.postMessage({ channel: users.alice, text: 'hello' });
    expect(posted.channel).toBe(SEEDED.ims.alice);
    const byUser = client.chat.update({ channel: users.alice, ts: posted.ts!, text: 'edited' });
    expect((await slackError(byUser)).error).toBe('channel_not_found');
    await expect(
      client.chat.update({ channel: posted.channel!, ts: posted.ts!, text: 'edited' }),
    ).resolves.toBeTruthy();
  });

  it('refuses blocks that are not JSON with invalid_blocks_format', async () => {
    const client = clientFor(await fakeSlack());
    const refusal = await slackError(
      client.apiCall('chat.postMessage', { channel: channels.smsOps, blocks: '[{' }),
    );
    expect(refusal.error).toBe('invalid_blocks_format');
  });

  it('hides private channels the bot is not in (channel_not_found), as Slack does', async () => {
    const client = clientFor(await fakeSlack());
    for (const channel of [channels.finance, 'C0NOWHERE']) {
      expect((await slackError(client.chat.postMessage({ channel, text: 'x' }))).error).toBe(
        'channel_not_found',
      );
    }
    expect((await slackError(client.conversations.info({ channel: channels.finance }))).error).toBe(
      'channel_not_found',
    );
    expect((await slackError(client.conversations.join({ channel: channels.finance }))).error).toBe(
      'channel_not_found',
    );
  });

  it('posts to a private channel once the bot is invited', async () => {
    const fake = await fakeSlack();
    fake.state.directory.join(channels.finance, fake.identity.botUserId);
    await expect(
      clientFor(fake).chat.postMessage({ channel: channels.finance, text: 'x' }),
    ).resolves.toBeTruthy();
  });

  it('refuses ephemerals to users outside the channel', async () => {
    const fake = await fakeSlack();
    fake.state.directory.addChannel({
      id: 'C0ADMINS',
      name: 'admins',
      kind: 'public',
      members: [users.admin, fake.identity.botUserId],
      createdSec: 0,
    });
    const client = clientFor(fake);
    const refusal = await slackError(
      client.chat.postEphemeral({ channel: 'C0ADMINS', user: users.alice, text: 'x' }),
    );
    expect(refusal.error).toBe('user_not_in_channel');
  });

  it('answers update and delete of unknown messages with message_not_found', async () => {
    const client = clientFor(await fakeSlack());
    const ts = '1732270000.000100';
    expect((await slackError(client.chat.update({ channel: channels.smsOps, ts, text: 'x' }))).error).toBe(
      'message_not_found',
    );
    expect((await slackError(client.chat.delete({ channel: channels.smsOps, ts }))).error).toBe(
      'message_not_found',
    );
    expect(
      (await slackError(client.chat.getPermalink({ channel: channels.smsOps, message_ts: ts }))).error,
    ).toBe('message_not_found');
  });

  it('will not let the bot edit a human’s message', async () => {
    const fake = await fakeSlack();
    const human = fake.state.messages.post({
      channel: channels.general,
      user: users.bob,
      team: 'T0LOCAL',
      text: 'hi',
    });
    const refusal = await slackError(
      clientFor(fake).chat.update({ channel: channels.general, ts: human.ts, text: 'edited' }),
    );
    expect(refusal.error).toBe('cant_update_message');
  });

  it('refuses a wrong token with invalid_auth and a missing one with not_authed', async () => {
    const fake = await fakeSlack();
    const wrong = new WebClient('xoxb-wrong', {
      slackApiUrl: fake.apiUrl,
      retryConfig: { retries: 0 },
      logger: quietLogger,
    });
    expect((await slackError(wrong.auth.test())).error).toBe('invalid_auth');
    const none = new WebClient(undefined, {
      slackApiUrl: fake.apiUrl,
      retryConfig: { retries: 0 },
      logger: quietLogger,
    });
    expect((await slackError(none.auth.test())).error).toBe('not_authed');
  });

  it('answers an unknown method with unknown_method', async () => {
    const client = clientFor(await fakeSlack());
    expect((await slackError(client.apiCall('chat.teleport', {}))).error).toBe('unknown_method');
  });
});
