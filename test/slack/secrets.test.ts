import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatewayClient } from '../../src/gateway/index.js';
import { silentLogger } from '../../src/log.js';
import { createSlackApp } from '../../src/slack/app.js';
import type { SlackDeps } from '../../src/slack/deps.js';
import { inboundWebClient } from '../../src/slack/inbound-poster.js';
import { openStore, type Store } from '../../src/store/index.js';
import { type FakeSlack, SEEDED, startFakeSlack } from '../../src/workspace/index.js';
import { testSettings } from '../support/settings.js';

/** The Slack clients hold the bot token, the signing secret or the app token: printing them shows none. */
const BOT_TOKEN = 'xoxb-conceal-9c8b7a6f';
const SIGNING_SECRET = 'c0ffee0123456789abcdef0123456789';
const APP_TOKEN = 'xapp-conceal-5e4d3c2b';

let dir: string;
let store: Store;
let fake: FakeSlack;
let gateway: GatewayClient;
let deps: SlackDeps;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'smsops-conceal-'));
  store = await openStore(`sqlite:${join(dir, 'smsops.db')}`);
  fake = await startFakeSlack({ botToken: BOT_TOKEN });
  gateway = new GatewayClient({ baseUrl: 'http://127.0.0.1:9', username: 'demo', password: 'demo' });
  deps = {
    gateway,
    store,
    logger: silentLogger,
    settings: testSettings([SEEDED.users.admin]),
    now: () => new Date(),
    nudgeTracker: () => undefined,
  };
});
afterAll(async () => {
  await gateway.close();
  await fake.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Everything a careless log line or print of the object could show. */
function printed(value: unknown): string[] {
  const texts = [inspect(value, { depth: 12 }), inspect({ wrapped: [value] }, { depth: 12 })];
  for (const candidate of [value, { wrapped: [value] }]) {
    try {
      texts.push(JSON.stringify(candidate));
    } catch (error) {
      // A circular structure cannot be serialised at all: then nothing is shown either.
      expect(String(error)).toMatch(/circular/i);
    }
  }
  return texts;
}

describe('util.inspect and JSON of the Slack clients', () => {
  it('HTTP mode: the app, its client and its receiver show neither the bot token nor the signing secret', async () => {
    const slack = await createSlackApp(deps, {
      mode: 'http',
      botToken: BOT_TOKEN,
      signingSecret: SIGNING_SECRET,
      apiUrl: fake.apiUrl,
      logger: silentLogger,
    });
    for (const part of [slack, slack.app, slack.app.client]) {
      for (const text of printed(part)) {
        expect(text).not.toContain(BOT_TOKEN);
        expect(text).not.toContain(SIGNING_SECRET);
      }
    }
    expect(inspect(slack.app.client)).toContain(fake.apiUrl);
    // Concealed, not broken: the client still calls Slack with its token.
    expect(await slack.app.client.auth.test()).toMatchObject({ ok: true });
  });

  it('Socket Mode: the app token does not show either', async () => {
    const slack = await createSlackApp(deps, {
      mode: 'socket',
      botToken: BOT_TOKEN,
      appToken: APP_TOKEN,
      apiUrl: fake.apiUrl,
      logger: silentLogger,
    });
    for (const text of printed(slack)) {
      expect(text).not.toContain(APP_TOKEN);
      expect(text).not.toContain(BOT_TOKEN);
    }
  });

  it('the inbound relay’s own client shows no token', async () => {
    const client = inboundWebClient(BOT_TOKEN, { apiUrl: fake.apiUrl });
    for (const text of printed(client)) expect(text).not.toContain(BOT_TOKEN);
    expect(await client.auth.test()).toMatchObject({ ok: true });
  });
});
