import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { executeSend, type SendOutcome } from '../../src/sending/send.js';
import { SendsInFlight } from '../../src/sends-in-flight.js';
import { sendPolicyOf } from '../../src/slack/permissions.js';
import { openStore } from '../../src/store/index.js';
import { startTestBot } from '../support/bot.js';
import { SimulatorControl } from '../support/simulator.js';

const ADMIN = 'U0ADMIN01';

/** One SMS to one number through the bot's own send path, as the admin. */
function oneSms(
  bot: Awaited<ReturnType<typeof startTestBot>>['bot'],
  send: { idempotencyKey: string; checkBalance: boolean; text: string },
): Promise<SendOutcome> {
  return executeSend(
    { ...bot.deps, policy: sendPolicyOf(bot.deps) },
    {
      idempotencyKey: send.idempotencyKey,
      slackUser: ADMIN,
      channel: 'C0SMSOPS',
      checkBalance: send.checkBalance,
      plan: {
        sender: 'SMSOPS',
        recipients: ['905321234567'],
        text: send.text,
        encoding: 'GSM-7',
        dataCoding: 'Default',
        validityMinutes: 1440,
        totalSegments: 1,
        estimatedCost: 0.05,
      },
    },
  );
}

describe('sends in flight', () => {
  it('settle when every send has ended, or say they have not within the time given', async () => {
    const inFlight = new SendsInFlight();
    let finish!: () => void;
    const slow = inFlight.track(new Promise<void>((resolve) => (finish = resolve)));
    const failed = inFlight.track(Promise.reject(new Error('refused')));
    await expect(failed).rejects.toThrow('refused');
    expect(inFlight.count).toBe(1);
    expect(await inFlight.settled(20)).toBe(false);
    finish();
    await slow;
    expect(inFlight.count).toBe(0);
    expect(await inFlight.settled(20)).toBe(true);
  });
});

describe('a bot stopped while a send waits on the gateway', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  /** Local mode (its own workspace and simulated gateway, as a person at a terminal runs it), its store kept. */
  async function localBot(env: Record<string, string> = {}) {
    const dir = mkdtempSync(join(tmpdir(), 'smsops-in-flight-'));
    dirs.push(dir);
    const databaseUrl = `sqlite:${join(dir, 'smsops.db')}`;
    const { bot, close } = await startTestBot({ DATABASE_URL: databaseUrl, ADMIN_USER_IDS: ADMIN, ...env });
    return { bot, close, databaseUrl, control: new SimulatorControl({ url: bot.simulatorUrl! }) };
  }

  it('lets the send finish, gateway call and MessageId included, before it closes the gateway and the store', async () => {
    const { bot, close, control, databaseUrl } = await localBot();
    // A send that first asks the balance (as a scheduled one does), which the gateway answers a second late: the
    // stop comes while the send has not yet reached its Submit.
    await control.fault({ operation: 'GetBalance', kind: 'timeout', delayMs: 1_000, times: 1 });
    const sending: Promise<SendOutcome> = oneSms(bot, {
      idempotencyKey: 'stopped-mid-send',
      checkBalance: true,
      text: 'Sent while the bot stops',
    });
    while ((await control.callCount('GetBalance')) === 0) await new Promise((r) => setImmediate(r));
    await close();
    const outcome = await sending;
    expect(outcome.kind).toBe('submitted');
    const store = await openStore(databaseUrl);
    try {
      const [row] = await store.outbox.recent(1);
      expect(row).toMatchObject({ state: 'submitted', messageId: expect.stringMatching(/^\d+$/) });
      // And the audit entry written after it: the send ran to its end before the store closed.
      const audit = await store.audit.recent(10);
      expect(audit.filter((e) => e.action === 'send').map((e) => e.target)).toEqual([row!.messageId]);
    } finally {
      await store.close();
    }
  }, 20_000);

  it('abandons the delivery poll the gateway holds, without trying it again, when the tracker stops', async () => {
    const { bot, close, control } = await localBot();
    try {
      const sent = await oneSms(bot, {
        idempotencyKey: 'polled-at-stop',
        checkBalance: false,
        text: 'Polled',
      });
      expect(sent.kind).toBe('submitted');
      await control.fault({ operation: 'QueryMulti', kind: 'timeout', delayMs: 60_000, times: 5 });
      const before = await control.callCount('QueryMulti');
      const polled = bot.tracker.pollNow(sent.row.id);
      while ((await control.callCount('QueryMulti')) === before) await new Promise((r) => setImmediate(r));

      await bot.tracker.stop();

      // The test bot's gateway gives up after 2 s and tries a read again: a poll still waiting would have.
      expect((await polled)?.delivery.final).toBe(false);
      expect(await control.callCount('QueryMulti')).toBe(before + 1);
    } finally {
      await close();
    }
  });

  it('gives a Submit the gateway never answers one budget of 5 s, then records its fate unknown and closes', async () => {
    const { bot, close, control, databaseUrl } = await localBot({ SMS_GATEWAY_TIMEOUT_MS: '120000' });
    await control.fault({ operation: 'Submit', kind: 'timeout', delayMs: 60_000, times: 1 });
    const sending: Promise<SendOutcome> = oneSms(bot, {
      idempotencyKey: 'stopped-during-submit',
      checkBalance: false,
      text: 'Its Submit never answered',
    });
    while ((await control.callCount('Submit')) === 0) await new Promise((r) => setImmediate(r));
    const stopping = Date.now();
    await close();
    // The drain and the gateway's close share SENDS_DRAIN_MS; each waiting its own 5 s, a stop took 10 s and
    // main.ts' 9 s deadline ended the process first, the store still open and the send's fate unrecorded.
    expect(Date.now() - stopping).toBeLessThan(8_000);
    expect((await sending).kind).toBe('unknown');
    const store = await openStore(databaseUrl);
    try {
      const [row] = await store.outbox.recent(1);
      expect(row).toMatchObject({ state: 'unknown' });
    } finally {
      await store.close();
    }
  }, 20_000);
});
