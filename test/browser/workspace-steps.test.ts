import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEEDED } from '../../workspace/index.js';
import { type LocalBot, startLocalBot } from './support.js';

const { users, channels } = SEEDED;

/** Local mode: the page's own endpoints run a workflow step and deliver mentions, as the page's panel and composer do. */
describe('local workspace: workflow step panel and mentions', () => {
  let bot: LocalBot;
  let base: string;
  beforeAll(async () => {
    bot = await startLocalBot();
    base = bot.url.replace(/\/$/, '');
  });
  afterAll(() => bot?.close());

  async function post(name: string, body: unknown): Promise<Record<string, unknown>> {
    const res = await fetch(`${base}/_ws/${name}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return (await res.json()) as Record<string, unknown>;
  }

  it('offers the manifest’s steps and shows how the app ended one: error while off, outputs once on', async () => {
    const boot = (await (await fetch(`${base}/_ws/bootstrap?user=${users.admin}`)).json()) as {
      functions: { callbackId: string; inputs: { name: string }[] }[];
    };
    expect(boot.functions.map((f) => f.callbackId)).toEqual(['send_sms', 'get_sms_balance']);

    const off = await post('step', { user: users.admin, callbackId: 'get_sms_balance', inputs: {} });
    expect(off).toMatchObject({ ok: false, state: 'failed' });
    expect(String(off.error)).toContain('/sms workflows on');

    await post('command', { user: users.admin, channel: channels.smsOps, text: '/sms workflows on' });
    await bot.workspace.state.waitFor('ephemeral', (e) =>
      JSON.stringify(e.message).includes('steps are *on*'),
    );
    const balance = await post('step', { user: users.admin, callbackId: 'get_sms_balance', inputs: {} });
    expect(balance).toMatchObject({ ok: true, state: 'completed' });
    expect(balance.outputs).toEqual({
      usable: expect.any(Number),
      main: expect.any(Number),
      limit: expect.any(Number),
    });

    const sent = await post('step', {
      user: users.admin,
      callbackId: 'send_sms',
      inputs: { recipients: '0532 123 45 67', message: 'From a workflow', user: users.admin, sender: '' },
    });
    expect(sent).toMatchObject({ ok: true, state: 'completed', outputs: { recipients: 1 } });
    const missing = await fetch(`${base}/_ws/step`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user: users.admin, callbackId: 'send_sms', inputs: { message: 'x' } }),
    });
    expect(missing.status).toBe(400);
  });

  it('delivers “@smsops …” typed in the composer as an app_mention; outside a conversation thread it is explained', async () => {
    const after = bot.workspace.state.journal.seq;
    const typed = await post('message', {
      user: users.admin,
      channel: channels.general,
      text: '@smsops hello',
    });
    expect(typed).toMatchObject({ ok: true });
    const told = await bot.workspace.state.waitFor(
      'ephemeral',
      (e) =>
        e.message.recipient === users.admin && JSON.stringify(e.message).includes('only inside the thread'),
      { after },
    );
    expect(told.message.channel).toBe(channels.general);
  });
});
