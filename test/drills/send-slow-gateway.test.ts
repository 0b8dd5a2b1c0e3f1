import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/index.js';
import {
  type BotProcess,
  channels,
  type DrillWorld,
  sendThroughModal,
  startBot,
  startDrillWorld,
  users,
} from './bot-process.js';

/**
 * Drill: the gateway's Submit reply trickles in for 40 s, a byte every half second, so no single read
 * times out. With a 3 s gateway timeout a send used to count as cut off after 16 s: the tracker marked
 * the live send unknown and, when MessageId 100001 arrived, it was refused. Now the sending bot renews
 * its claim on the send while it waits, and neither its own tracker nor a second bot process on the
 * same database takes the send for abandoned: no "State unknown" card, and the MessageId lands.
 */

let fake: DrillWorld['fake'];
let sim: DrillWorld['sim'];
let control: DrillWorld['control'];
let world: DrillWorld;
let databaseUrl: string;
const bots: BotProcess[] = [];

beforeAll(async () => {
  world = await startDrillWorld('slow');
  ({ fake, sim, control, databaseUrl } = world);
});
afterAll(async () => {
  for (const bot of bots) await bot.crash();
  await world.close();
});

const start = async () => {
  const bot = await startBot({
    fake,
    gatewayUrl: sim.url,
    databaseUrl,
    env: { SMS_GATEWAY_TIMEOUT_MS: '3000' },
  });
  bots.push(bot);
  return bot;
};

const blocksOf = (m: { blocks?: unknown[] }) => JSON.stringify(m.blocks ?? []);

describe('a Submit reply that trickles in for 40 s', () => {
  it('is never declared lost: no unknown card, and MessageId 100001 lands on the send, in the audit and on the card', async () => {
    const sender = await start();
    await control.fault({ operation: 'Submit', kind: 'trickle', delayMs: 40_000 });
    const seq = fake.state.journal.seq;
    await sendThroughModal(sender, fake, 'slow but steady');
    // Another instance on the same database, its tracker running from the start, follows the same rule.
    const other = await start();

    const modal = await fake.state
      .waitFor('view', (e) => blocksOf(e.view).includes('Sent. Batch *100001*'), {
        after: seq,
        timeoutMs: 90_000,
      })
      .catch((error: Error) => {
        throw new Error(
          `${error.message}\n--- sending bot:\n${sender.output()}\n--- other bot:\n${other.output()}`,
        );
      });
    expect(blocksOf(modal.view)).not.toContain('state unknown');
    const card = await fake.state.waitForMessage(
      (m) => m.channel === channels.smsOps && m.text.startsWith('SMS batch 100001:'),
      { after: seq, timeoutMs: 10_000 },
    );
    expect(blocksOf(card)).toContain('slow but steady');
    const everyCard = fake.state.journal
      .values('message')
      .filter((e) => blocksOf(e.message).includes('slow but steady'));
    expect(everyCard.filter((e) => blocksOf(e.message).includes('State unknown'))).toEqual([]);
    expect(new Set(everyCard.map((e) => e.message.ts)).size).toBe(1);

    // /sms status tells the same story.
    const before = fake.state.journal.seq;
    await other.sms('status 100001');
    const status = await fake.state.waitFor(
      'ephemeral',
      (e) => e.message.recipient === users.admin && e.message.text.startsWith('SMS batch 100001:'),
      { after: before, timeoutMs: 10_000 },
    );
    expect(blocksOf(status.message)).not.toContain('State unknown');

    // The MessageId was logged in one line before the store recorded it.
    const log = sender.output();
    expect(log.indexOf('gateway accepted the SMS batch')).toBeGreaterThan(-1);
    expect(log.indexOf('gateway accepted the SMS batch')).toBeLessThan(log.indexOf('SMS batch submitted'));
    expect(`${log}${other.output()}`).not.toContain('interrupted send marked unknown');

    for (const bot of bots.splice(0)) await bot.stop();
    const store = await openStore(databaseUrl);
    try {
      const [row] = await store.outbox.recent(1);
      expect(row).toMatchObject({
        text: 'slow but steady',
        state: 'submitted',
        messageId: '100001',
        reason: null,
      });
      const audit = await store.audit.recent(10);
      const sends = audit.filter((a) => a.action === 'send' && a.target === '100001');
      expect(sends).toHaveLength(1);
      expect(JSON.stringify(sends[0]!.details)).not.toContain('resolved');
    } finally {
      await store.close();
    }
    expect(await control.callCount('Submit')).toBe(1);
  }, 150_000);
});
