import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openStore } from '../../src/store/index.js';
import type { ViewOutput } from '../../workspace/index.js';
import { dropSchema, pgSkipNote, pgUrl, scratchSchema } from '../store/helpers.js';
import { startTestBot, type TestBot } from '../support/bot.js';
import { channels, type Harness, SIGNING_SECRET, startHarness, users } from '../support/slack-harness.js';

/**
 * Two bots on one PostgreSQL database, one workspace and one gateway, each with its scheduled-sends job and its
 * campaign runner: a scheduled send larger than SUBMIT_CHUNK_SIZE (3) becomes one campaign, whichever instance
 * finds it, and each number gets its SMS once.
 */
const START = Date.parse('2026-11-24T06:00:00.000Z');
let clock = START;
const now = () => new Date(clock);
const CHUNKS = { SUBMIT_CHUNK_SIZE: '3', SUBMIT_CHUNK_INTERVAL_MS: '0' };
const NUMBERS = Array.from({ length: 8 }, (_, i) => `90532${2_000_000 + i}`);

describe.skipIf(!pgUrl)(`a scheduled campaign with two instances on PostgreSQL${pgSkipNote}`, () => {
  const schema = scratchSchema();
  let h: Harness;
  let second: TestBot;

  beforeAll(async () => {
    const storeA = await openStore(pgUrl!, { schema });
    const storeB = await openStore(pgUrl!, { schema });
    h = await startHarness({
      now,
      store: storeA,
      sending: { submitChunkSize: 3, confirmRecipients: 100 },
      env: CHUNKS,
    });
    second = await startTestBot(
      {
        SLACK_BOT_TOKEN: h.fake.botToken,
        SLACK_SIGNING_SECRET: SIGNING_SECRET,
        SLACK_API_URL: h.fake.apiUrl,
        ADMIN_USER_IDS: users.admin,
        SMS_GATEWAY_URL: h.bot.simulatorUrl!,
        SMS_GATEWAY_USERNAME: 'demo',
        SMS_GATEWAY_PASSWORD: 'demo',
        ...CHUNKS,
      },
      { store: storeB, now, instanceId: 'second-instance' },
    );
  });
  afterAll(async () => {
    await second?.close();
    await h?.close();
    await dropSchema(schema);
  });

  it('starts one campaign and sends each number once', async () => {
    const view = await h.openCompose('send');
    const result = await h.submitCompose(view, {
      recipients: NUMBERS.join('\n'),
      text: 'Two instances, one campaign',
      when: 'schedule',
      schedule_at: String(Math.floor((clock + 10 * 60_000) / 1000)),
    });
    expect(result.outcome.kind, JSON.stringify((result.outcome as { view?: ViewOutput }).view)).toBe(
      'updated',
    );
    await vi.waitFor(async () => {
      const waiting = await h.store.outbox.waitingScheduled(20);
      expect(waiting.filter((r) => r.messageTs !== null)).toHaveLength(1);
    });
    const posts = h.fake.state.calls('chat.postMessage').length;

    clock += 10 * 60_000;
    const passes = await Promise.all([
      h.bot.scheduled.tick(),
      second.bot.scheduled.tick(),
      h.bot.scheduled.tick(),
      second.bot.scheduled.tick(),
    ]);
    expect(passes.reduce((n, p) => n + p.fired, 0)).toBe(1);
    expect(await h.control.callCount('Submit')).toBe(0);
    const moved = await Promise.all([h.bot.campaigns.tick(), second.bot.campaigns.tick()]);
    await h.bot.campaigns.tick();
    await second.bot.campaigns.tick();
    expect(moved[0] + moved[1]).toBeGreaterThan(0);
    expect(await h.control.callCount('Submit')).toBe(3);
    const counts = new Map<string, number>();
    for (const batch of (await h.control.state()).batches) {
      for (const r of batch.recipients) counts.set(r.to, (counts.get(r.to) ?? 0) + 1);
    }
    expect([...counts.keys()].sort()).toEqual(NUMBERS);
    expect([...counts.values()].every((c) => c === 1)).toBe(true);
    await h.fake.state.waitForMessage(
      (m) => m.channel === channels.smsOps && /^SMS campaign C-\d+: 8 of 8 sent/.test(m.text ?? ''),
      // Card updates are paced within chat.update's tier; under load the last one may take a while.
      { timeoutMs: 15_000 },
    );
    const campaignCards = h.fake.state
      .calls('chat.postMessage')
      .slice(posts)
      .filter((c) => /^SMS campaign C-/.test(String(c.args.text ?? '')));
    expect(campaignCards).toHaveLength(1);
  });
});
