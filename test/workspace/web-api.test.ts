import { describe, expect, it } from 'vitest';
import { compareTs, SEEDED } from '../../workspace/index.js';
import { clientFor, fakeSlack, slackError } from './helpers.js';

const { channels, users } = SEEDED;

describe('fake Slack Web API through a real WebClient', () => {
  it('answers auth.test with the bot identity, as Bolt expects at startup', async () => {
    const fake = await fakeSlack();
    const result = await clientFor(fake).auth.test();
    expect(result).toMatchObject({ ok: true, user_id: 'U0SMSBOT', bot_id: 'B0SMSOPS', team_id: 'T0LOCAL' });
    expect(fake.apiUrl).toBe(`${fake.baseUrl}/api/`);
  });

  it('posts messages with strictly increasing ts and keeps threads', async () => {
    const fake = await fakeSlack();
    const client = clientFor(fake);
    const parent = await client.chat.postMessage({ channel: channels.smsOps, text: 'parent' });
    const second = await client.chat.postMessage({ channel: channels.smsOps, text: 'second' });
    const reply = await client.chat.postMessage({
      channel: channels.smsOps,
      text: 'reply',
      thread_ts: parent.ts!,
    });
    expect(parent.ts).toMatch(/^\d{10}\.\d{6}$/);
    expect(compareTs(second.ts!, parent.ts!)).toBeGreaterThan(0);
    expect(compareTs(reply.ts!, second.ts!)).toBeGreaterThan(0);
    expect(fake.state.messages.history(channels.smsOps).map((m) => m.text)).toEqual(['parent', 'second']);
    expect(fake.state.messages.thread(channels.smsOps, parent.ts!).map((m) => m.text)).toEqual([
      'parent',
      'reply',
    ]);
    expect(fake.state.messages.find(channels.smsOps, parent.ts!)).toMatchObject({ reply_count: 1 });
  });

  it('accepts a channel name or a user id (meaning the IM) as channel', async () => {
    const fake = await fakeSlack();
    const client = clientFor(fake);
    expect((await client.chat.postMessage({ channel: '#alerts', text: 'a' })).channel).toBe(channels.alerts);
    expect((await client.chat.postMessage({ channel: users.bob, text: 'b' })).channel).toBe(SEEDED.ims.bob);
  });

  it('gives blocks without ids a block_id and keeps Slack-shaped messages', async () => {
    const fake = await fakeSlack();
    const { ts } = await clientFor(fake).chat.postMessage({
      channel: channels.general,
      text: 'fallback',
      blocks: [{ type: 'actions', elements: [{ type: 'button', text: { type: 'plain_text', text: 'Go' } }] }],
    });
    const stored = fake.state.messages.find(channels.general, ts!)!;
    expect(stored).toMatchObject({ type: 'message', user: 'U0SMSBOT', bot_id: 'B0SMSOPS', text: 'fallback' });
    const block = stored.blocks![0] as { block_id: string; elements: { action_id: string }[] };
    expect(block.block_id).toEqual(expect.any(String));
    expect(block.elements[0]!.action_id).toEqual(expect.any(String));
  });

  it('keeps ephemerals per channel and recipient, out of the channel history', async () => {
    const fake = await fakeSlack();
    const { message_ts } = await clientFor(fake).chat.postEphemeral({
      channel: channels.smsOps,
      user: users.alice,
      text: 'only you',
    });
    expect(fake.state.messages.ephemerals({ channel: channels.smsOps, recipient: users.alice })).toEqual([
      expect.objectContaining({ ts: message_ts, text: 'only you', is_ephemeral: true }),
    ]);
    expect(fake.state.messages.ephemerals({ recipient: users.bob })).toEqual([]);
    expect(fake.state.messages.history(channels.smsOps)).toEqual([]);
  });

  it('updates, links and deletes the bot’s own messages', async () => {
    const fake = await fakeSlack();
    const client = clientFor(fake);
    const { ts } = await client.chat.postMessage({ channel: channels.smsOps, text: 'v1' });
    const updated = await client.chat.update({ channel: channels.smsOps, ts: ts!, text: 'v2' });
    expect(updated).toMatchObject({ ok: true, ts, text: 'v2' });
    const { permalink } = await client.chat.getPermalink({ channel: channels.smsOps, message_ts: ts! });
    expect(permalink).toBe(`${fake.baseUrl}/archives/${channels.smsOps}/p${ts!.replace('.', '')}`);
    await client.chat.delete({ channel: channels.smsOps, ts: ts! });
    expect(fake.state.messages.find(channels.smsOps, ts!)).toBeUndefined();
    const actions = fake.state.journal.values('message').map((e) => `${e.action}:${e.message.text}`);
    expect(actions).toEqual(['posted:v1', 'updated:v2', 'deleted:v2']);
  });

  it('lists and describes conversations from the bot’s point of view', async () => {
    const fake = await fakeSlack();
    const client = clientFor(fake);
    const info = await client.conversations.info({ channel: channels.random });
    expect(info.channel).toMatchObject({
      id: channels.random,
      name: 'random',
      is_member: false,
      is_private: false,
    });
    const publicOnly = await client.conversations.list();
    expect(publicOnly.channels!.map((c) => c.id)).toEqual([
      channels.general,
      channels.smsOps,
      channels.alerts,
      channels.random,
    ]);
    const withIms = await client.conversations.list({ types: 'private_channel,im' });
    expect(withIms.channels!.map((c) => c.id)).toEqual(Object.values(SEEDED.ims));
  });

  it('joins public channels, then posting there works', async () => {
    const fake = await fakeSlack();
    const client = clientFor(fake);
    expect((await slackError(client.chat.postMessage({ channel: channels.random, text: 'hi' }))).error).toBe(
      'not_in_channel',
    );
    await client.conversations.join({ channel: channels.random });
    await expect(client.chat.postMessage({ channel: channels.random, text: 'hi' })).resolves.toMatchObject({
      ok: true,
    });
    const again = await client.conversations.join({ channel: channels.random });
    expect(again.warning).toBe('already_in_channel');
  });

  it('describes users to a token with users:read', async () => {
    // manifest.yml does not ask for users:read (the bot never calls users.info), so this token is given it.
    const fake = await fakeSlack({ scopes: ['users:read'] });
    const client = clientFor(fake);
    const { user } = await client.users.info({ user: users.alice });
    expect(user).toMatchObject({
      id: users.alice,
      name: 'alice',
      real_name: 'Alice Archer',
      is_admin: false,
    });
    expect((await slackError(client.users.info({ user: 'U0NOBODY' }))).error).toBe('user_not_found');
  });

  it('takes a file through getUploadURLExternal, the upload URL and completeUploadExternal', async () => {
    const fake = await fakeSlack();
    const client = clientFor(fake);
    const csv = 'to,status\n+447700900123,delivered\n';
    await client.filesUploadV2({
      channel_id: channels.smsOps,
      content: csv,
      filename: 'report.csv',
      title: 'Daily report',
      initial_comment: 'Here is the report',
    });
    const [file] = fake.state.files.all();
    expect(file).toMatchObject({
      name: 'report.csv',
      title: 'Daily report',
      mimetype: 'text/csv',
      size: csv.length,
    });
    expect(file!.bytes.toString()).toBe(csv);
    const [message] = fake.state.messages.history(channels.smsOps);
    expect(message).toMatchObject({
      text: 'Here is the report',
      files: [expect.objectContaining({ id: file!.id })],
    });
    // url_private needs the bot token, as in Slack.
    const download = await fetch(`${fake.baseUrl}/files/${file!.id}/report.csv`, {
      headers: { authorization: `Bearer ${fake.botToken}` },
    });
    expect(await download.text()).toBe(csv);
  });

  it('refuses to complete an upload whose bytes never arrived', async () => {
    const fake = await fakeSlack();
    const client = clientFor(fake);
    const { file_id } = await client.files.getUploadURLExternal({ filename: 'x.txt', length: 3 });
    const refusal = await slackError(
      client.files.completeUploadExternal({ files: [{ id: file_id! }], channel_id: channels.smsOps }),
    );
    expect(refusal.error).toBe('file_not_found');
  });

  it('accepts JSON bodies and a token field, not only form bodies with a Bearer header', async () => {
    const fake = await fakeSlack();
    const json = await fetch(`${fake.apiUrl}chat.postMessage`, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8', authorization: 'Bearer xoxb-local' },
      body: JSON.stringify({ channel: channels.general, blocks: [{ type: 'divider' }], text: 'json' }),
    });
    expect(await json.json()).toMatchObject({ ok: true, channel: channels.general });
    const form = await fetch(`${fake.apiUrl}auth.test`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'token=xoxb-local',
    });
    expect(await form.json()).toMatchObject({ ok: true, user_id: 'U0SMSBOT' });
  });

  it('logs every call with its arguments (token left out) and result', async () => {
    const fake = await fakeSlack();
    await clientFor(fake).chat.postMessage({
      channel: channels.alerts,
      text: 'logged',
      blocks: [{ type: 'divider' }],
    });
    const [call] = fake.state.calls('chat.postMessage');
    expect(call).toMatchObject({
      method: 'chat.postMessage',
      status: 200,
      injected: false,
      args: { channel: channels.alerts, text: 'logged', blocks: [{ type: 'divider' }] },
      result: { ok: true, channel: channels.alerts },
    });
    expect(call!.args).not.toHaveProperty('token');
  });
});
