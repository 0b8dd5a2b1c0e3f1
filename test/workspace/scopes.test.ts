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
