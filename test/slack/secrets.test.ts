import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/log.js';
import { createSlackApp } from '../../src/slack/app.js';
import { inboundWebClient } from '../../src/slack/slack-inbound-poster.js';
import { type FakeSlack, SEEDED, startFakeSlack } from '../../workspace/index.js';
import { startTestBot, type TestBot } from '../support/bot.js';

/** The Slack clients hold the bot token, the signing secret or the app token: printing them shows none. */
const BOT_TOKEN = 'xoxb-conceal-9c8b7a6f';
const SIGNING_SECRET = 'c0ffee0123456789abcdef0123456789';
const APP_TOKEN = 'xapp-conceal-5e4d3c2b';

let fake: FakeSlack;
let testBot: TestBot;

beforeAll(async () => {
  fake = await startFakeSlack({ botToken: BOT_TOKEN });
  testBot = await startTestBot({
    SLACK_BOT_TOKEN: BOT_TOKEN,
    SLACK_SIGNING_SECRET: SIGNING_SECRET,
    SLACK_API_URL: fake.apiUrl,
    ADMIN_USER_IDS: SEEDED.users.admin,
  });
});
afterAll(async () => {
  await testBot?.close();
  await fake.close();
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
    const { slack } = testBot.bot;
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
    const slack = await createSlackApp(testBot.bot.deps, {
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
