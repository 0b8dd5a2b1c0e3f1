import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openStore } from '../../src/store/index.js';
import { dropSchema, pgSkipNote, pgUrl, scratchSchema } from '../store/helpers.js';
import { startTestBot, type TestBot } from '../support/bot.js';
import { channels, type Harness, SIGNING_SECRET, startHarness, users } from '../support/slack-harness.js';

/**
 * Two bots on one PostgreSQL database, one workspace and one gateway, each with its scheduled-sends job:
 * every due send goes out exactly once, whichever instance finds it first.
 */
const START = Date.parse('2026-11-24T06:00:00.000Z');
let clock = START;
const now = () => new Date(clock);

describe.skipIf(!pgUrl)(`two instances on PostgreSQL${pgSkipNote}`, () => {
  const schema = scratchSchema();
  let h: Harness;
  let second: TestBot;

  beforeAll(async () => {
    const storeA = await openStore(pgUrl!, { schema });
    const storeB = await openStore(pgUrl!, { schema });
    h = await startHarness({ now, store: storeA });
    second = await startTestBot(
      {
        SLACK_BOT_TOKEN: h.fake.botToken,
        SLACK_SIGNING_SECRET: SIGNING_SECRET,
        SLACK_API_URL: h.fake.apiUrl,
        ADMIN_USER_IDS: users.admin,
        SMS_GATEWAY_URL: h.bot.simulatorUrl!,
        SMS_GATEWAY_USERNAME: 'demo',
        SMS_GATEWAY_PASSWORD: 'demo',
      },
      { store: storeB, now, instanceId: 'second-instance' },
    );
  });
  afterAll(async () => {
    await second?.close();
    await h?.close();
    await dropSchema(schema);
  });

  it('claim each due send exactly once', async () => {
    const texts = Array.from({ length: 6 }, (_, i) => `Instance race ${i}`);
    for (const [i, text] of texts.entries()) {
      const view = await h.openCompose('send');
      const at = String(Math.floor((clock + (10 + i) * 60_000) / 1000));
      await h.submitCompose(view, {
        recipients: `0532 300 00 0${i}`,
        text,
        when: 'schedule',
        schedule_at: at,
      });
    }
    await vi.waitFor(async () => {
      const waiting = await h.store.outbox.waitingScheduled(20);
      expect(waiting.filter((r) => r.messageTs !== null)).toHaveLength(texts.length);
    });

    clock += 20 * 60_000;
    const passes = await Promise.all([
      h.bot.scheduled.tick(),
      second.bot.scheduled.tick(),
      h.bot.scheduled.tick(),
      second.bot.scheduled.tick(),
    ]);
    expect(await h.control.callCount('Submit')).toBe(texts.length);
    expect(passes.reduce((n, p) => n + p.fired, 0)).toBe(texts.length);
    const rows = (await second.bot.store.outbox.recent(20)).filter((r) => texts.includes(r.text));
    expect(rows.map((r) => r.state)).toEqual(texts.map(() => 'submitted'));
    expect(new Set(rows.map((r) => r.messageId)).size).toBe(texts.length);
    // Each card became its delivery card, in #sms-ops, where it was scheduled.
    for (const text of texts) {
      await h.fake.state.waitForMessage(
        (m) =>
          m.channel === channels.smsOps &&
          JSON.stringify(m.blocks).includes(text) &&
          /SMS batch \d+/.test(m.text ?? ''),
      );
    }
  });
});
