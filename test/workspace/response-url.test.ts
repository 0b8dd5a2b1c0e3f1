import { describe, expect, it } from 'vitest';
import { SEEDED } from '../../workspace/index.js';
import { clientFor, fakeSlack } from './helpers.js';

const { channels, users } = SEEDED;

function postJson(url: string, body: unknown) {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

describe('response_url on the fake', () => {
  it('posts ephemerals by default and in_channel messages when asked', async () => {
    const fake = await fakeSlack();
    const url = fake.issueResponseUrl({ channelId: channels.smsOps, userId: users.alice });
    expect((await postJson(url, { text: 'just you' })).status).toBe(200);
    expect((await postJson(url, { text: 'everyone', response_type: 'in_channel' })).status).toBe(200);
    expect(fake.state.messages.ephemerals({ recipient: users.alice }).map((m) => m.text)).toEqual([
      'just you',
    ]);
    expect(fake.state.messages.history(channels.smsOps).map((m) => m.text)).toEqual(['everyone']);
  });

  it('replaces and deletes the original message, ephemeral or not', async () => {
    const fake = await fakeSlack();
    const { ts } = await clientFor(fake).chat.postMessage({ channel: channels.smsOps, text: 'original' });
    const onMessage = fake.issueResponseUrl({
      channelId: channels.smsOps,
      userId: users.bob,
      messageTs: ts!,
    });
    await postJson(onMessage, { replace_original: true, text: 'replaced' });
    expect(fake.state.messages.find(channels.smsOps, ts!)?.text).toBe('replaced');
    await postJson(onMessage, { delete_original: true });
    expect(fake.state.messages.find(channels.smsOps, ts!)).toBeUndefined();

    const ephemeral = fake.state.messages.postEphemeral({
      channel: channels.smsOps,
      recipient: users.bob,
      team: 'T0LOCAL',
      text: 'eph',
    });
    const onEphemeral = fake.issueResponseUrl({
      channelId: channels.smsOps,
      userId: users.bob,
      messageTs: ephemeral.ts,
      ephemeral: true,
    });
    await postJson(onEphemeral, { replace_original: 'true', text: 'eph v2' });
    expect(fake.state.messages.findEphemeral(channels.smsOps, ephemeral.ts)?.text).toBe('eph v2');
  });

  it('works five times, then answers 404 used_url', async () => {
    const fake = await fakeSlack();
    const url = fake.issueResponseUrl({ channelId: channels.general, userId: users.admin });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1) statuses.push((await postJson(url, { text: `n${i}` })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 404]);
    const last = fake.state.journal.values('response').at(-1);
    expect(last).toMatchObject({ status: 404, error: 'used_url' });
  });

  it('refuses a message Slack would refuse', async () => {
    const fake = await fakeSlack();
    const url = fake.issueResponseUrl({ channelId: channels.general, userId: users.admin });
    const response = await postJson(url, { blocks: [{ type: 'nonsense' }], text: 'x' });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ ok: false, error: 'invalid_blocks' });
  });
});
