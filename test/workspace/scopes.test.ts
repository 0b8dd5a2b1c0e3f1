import { describe, expect, it } from 'vitest';
import { SEEDED } from '../../workspace/index.js';
import { manifestBotScopes, parseBotScopes } from '../../workspace/web-api/scopes.js';
import { clientFor, fakeSlack, WebClient } from './helpers.js';

const { channels } = SEEDED;

/** Slack's whole refusal body, `needed` and `provided` included. */
async function refusal(call: Promise<unknown>): Promise<Record<string, unknown>> {
  try {
    await call;
  } catch (error) {
    const data = (error as { data?: Record<string, unknown> }).data;
    if (data) return data;
    throw error;
  }
  throw new Error('expected the call to fail');
}

describe('scopes: every Web API call is checked against what the token was granted', () => {
  it('refuses a call whose scope is missing with missing_scope, needed and provided, as Slack does', async () => {
    const fake = await fakeSlack({ scopes: ['commands', 'channels:read'] });
    const body = await refusal(clientFor(fake).chat.postMessage({ channel: channels.general, text: 'hi' }));
    expect(body).toMatchObject({
      ok: false,
      error: 'missing_scope',
      needed: 'chat:write',
      provided: 'commands,channels:read',
    });
    expect(fake.state.messages.history(channels.general)).toEqual([]);
  });

  it('asks for the scope of the conversation type: groups:read for a private channel, not channels:read', async () => {
    const fake = await fakeSlack({ scopes: ['chat:write', 'channels:read'] });
    fake.state.directory.join(channels.finance, fake.identity.botUserId);
    const client = clientFor(fake);
    await expect(client.conversations.info({ channel: channels.general })).resolves.toMatchObject({
      ok: true,
    });
    expect(await refusal(client.conversations.info({ channel: channels.finance }))).toMatchObject({
      error: 'missing_scope',
      needed: 'groups:read',
    });
    expect(await refusal(client.conversations.info({ channel: SEEDED.ims.admin }))).toMatchObject({
      error: 'missing_scope',
      needed: 'im:read',
    });
  });

  it('opens the bot DM with a person only with im:write, and refuses as Slack does otherwise', async () => {
    const without = await fakeSlack({ scopes: ['chat:write'] });
    expect(await refusal(clientFor(without).conversations.open({ users: SEEDED.users.alice }))).toMatchObject(
      {
        error: 'missing_scope',
        needed: 'im:write',
      },
    );
    const fake = await fakeSlack({ scopes: ['chat:write', 'im:write'] });
    const client = clientFor(fake);
    // The seeded DM is resumed; its id is all that comes back without return_im.
    expect(await client.conversations.open({ users: SEEDED.users.alice })).toMatchObject({
      ok: true,
      channel: { id: SEEDED.ims.alice },
    });
    expect(await client.conversations.open({ channel: SEEDED.ims.alice })).toMatchObject({
      channel: { id: SEEDED.ims.alice },
    });
    // Someone the bot never wrote to: their DM begins now, with the bot in it.
    fake.state.directory.addUser({
      id: 'U0CAROL',
      name: 'carol',
      realName: 'Carol',
      isAdmin: false,
      isBot: false,
      tz: 'Europe/Istanbul',
    });
    const opened = await client.conversations.open({ users: 'U0CAROL' });
    expect(opened.channel?.id).toMatch(/^D/);
    expect(fake.state.directory.channel(opened.channel!.id!)).toMatchObject({
      kind: 'im',
      imUser: 'U0CAROL',
    });
    await expect(
      client.chat.postMessage({ channel: opened.channel!.id!, text: 'hi' }),
    ).resolves.toMatchObject({
      ok: true,
    });
    expect(await refusal(client.conversations.open({ users: 'U0NOBODY' }))).toMatchObject({
      error: 'user_not_found',
    });
    expect(await refusal(client.apiCall('conversations.open', {}))).toMatchObject({
      error: 'users_list_not_supplied',
    });
    expect(await refusal(client.conversations.open({ channel: channels.general }))).toMatchObject({
      error: 'method_not_supported_for_channel_type',
    });
  });

  it('needs no scope for views and auth.test, and reports the granted scopes in x-oauth-scopes', async () => {
    const fake = await fakeSlack({ scopes: ['commands'] });
    const result = await clientFor(fake).auth.test();
    expect(result.response_metadata?.scopes).toEqual(['commands']);
  });

  it('grants by default exactly the scopes manifest.yml requests', async () => {
    const fake = await fakeSlack();
    const result = await new WebClient(fake.botToken, { slackApiUrl: fake.apiUrl }).auth.test();
    expect(result.response_metadata?.scopes?.sort()).toEqual([...manifestBotScopes()].sort());
  });

  it('reads the bot scopes of a manifest, comments and all', () => {
    const manifest = [
      'oauth_config:',
      '  scopes:',
      '    bot:',
      '      # what the code calls',
      '      - commands',
      '      - chat:write',
      'settings:',
      '  org_deploy_enabled: false',
    ].join('\n');
    expect(parseBotScopes(manifest)).toEqual(['commands', 'chat:write']);
  });
});
