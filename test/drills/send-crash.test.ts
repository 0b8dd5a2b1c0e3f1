import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/index.js';
import {
  type BotProcess,
  channels,
  type DrillWorld,
  sendThroughModal,
  startBot,
  startDrillWorld,
  until,
  users,
} from './bot-process.js';

/**
 * Drill: the bot is SIGKILLed while a send is in flight. The outbox row was written before the gateway
 * was called, so after a restart the send must never be made again automatically, whatever state the
 * row was left in.
 */

let fake: DrillWorld['fake'];
let sim: DrillWorld['sim'];
let control: DrillWorld['control'];
let world: DrillWorld;
let databaseUrl: string;
let bot: BotProcess | undefined;

beforeAll(async () => {
  world = await startDrillWorld('send');
  ({ fake, sim, control, databaseUrl } = world);
});
afterAll(async () => {
  await bot?.crash();
  await world.close();
});

// A 3 s gateway timeout: a send still pending 16 s (twice that plus 10 s) after it was written was cut off.
const start = async () => {
  bot = await startBot({ fake, gatewayUrl: sim.url, databaseUrl, env: { SMS_GATEWAY_TIMEOUT_MS: '3000' } });
  return bot;
};

async function rows() {
  // Read with the bot stopped: SQLite is a file, and the drill must not race the bot's writer.
  const store = await openStore(databaseUrl);
  try {
    return await store.outbox.recent(20);
  } finally {
    await store.close();
  }
}

/** What the restarted bot must do for a while: be healthy, poll, and not call Submit again. */
async function restartAndWatch(submitsBefore: number): Promise<BotProcess> {
  const b = await start();
  await until('healthz ok', async () => (await b.health()).body.ok === true);
  // The tracker and relay run at start and then every poll interval: two inbound polls and a tracker
  // round later, nothing may have resent.
  const polls = await control.callCount('Receive');
  await until('two more Receive polls', async () => (await control.callCount('Receive')) >= polls + 2);
  expect(await control.callCount('Submit')).toBe(submitsBefore);
  return b;
}

describe('kill -9 during a send', () => {
  it('while the gateway holds the Submit reply: never resent; after the restart it is shown as state unknown', async () => {
    const b = await start();
    await control.fault({ operation: 'Submit', kind: 'timeout', delayMs: 5_000, times: 1 });
    await sendThroughModal(b, fake, 'held reply drill');
    await until('the gateway received Submit', async () => (await control.callCount('Submit')) === 1);
    await b.crash();
    bot = undefined;

    const [row] = await rows();
    expect(row).toMatchObject({ state: 'pending', messageId: null, recipients: ['905321234567'] });
    expect(row!.text).toBe('held reply drill');

    const again = await restartAndWatch(1);
    // The restarted bot marks the interrupted send unknown and posts its card, so the channel shows it.
    const card = await fake.state.waitForMessage(
      (m) => m.channel === channels.smsOps && JSON.stringify(m.blocks).includes('State unknown'),
      { timeoutMs: 40_000 },
    );
    expect(JSON.stringify(card.blocks)).toContain('held reply drill');
    expect(await control.callCount('Submit')).toBe(1);
    await again.stop();
    bot = undefined;
    const [after] = await rows();
    expect(after!.state).toBe('unknown');
  }, 90_000);

  it('just after Submit returned: the row is submitted with its MessageId, never submitted again', async () => {
    await control.reset();
    const b = await start();
    // A short hold, so the kill lands right after the reply, around recording it and posting the card.
    await control.fault({ operation: 'Submit', kind: 'timeout', delayMs: 300, times: 1 });
    await sendThroughModal(b, fake, 'after reply drill');
    await until('the bot logged the submit', () => /SMS batch submitted/.test(b.output()), 10_000, 5);
    await b.crash();
    bot = undefined;
    const submits = await control.callCount('Submit');
    expect(submits).toBe(1);

    const [row] = await rows();
    expect(row!.text).toBe('after reply drill');
    expect(row!.state).toBe('submitted');
    expect(row!.messageId).toMatch(/^\d+$/);

    const again = await restartAndWatch(1);
    // Whatever the card did, `/sms status <MessageId>` answers from the gateway.
    const seq = fake.state.journal.seq;
    await again.sms(`status ${row!.messageId}`);
    const status = await fake.state.waitFor(
      'ephemeral',
      (e) => e.message.recipient === users.admin && JSON.stringify(e.message).includes(row!.messageId!),
      { after: seq, timeoutMs: 10_000 },
    );
    expect(status).toBeDefined();
    await again.stop();
    bot = undefined;
    expect(await control.callCount('Submit')).toBe(1);
  }, 60_000);
});
