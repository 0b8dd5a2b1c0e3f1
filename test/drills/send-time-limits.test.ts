import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/index.js';
import type { ViewOutput } from '../../workspace/index.js';
import { textBlockOf } from '../support/slack-harness.js';
import {
  type BotProcess,
  channels,
  type DrillWorld,
  startBot,
  startDrillWorld,
  users,
} from './bot-process.js';

/**
 * Drill: a send is composed and waits for its confirm; meanwhile the operator lowers MAX_RECIPIENTS and
 * MAX_SEGMENTS and restarts the bot. The confirm, served by the new process from the stored draft, is
 * checked against the limits in force when the gateway would be called, not those of the compose.
 */

let fake: DrillWorld['fake'];
let sim: DrillWorld['sim'];
let control: DrillWorld['control'];
let world: DrillWorld;
let databaseUrl: string;
let bot: BotProcess | undefined;

beforeAll(async () => {
  world = await startDrillWorld('limits');
  ({ fake, sim, control, databaseUrl } = world);
});
afterAll(async () => {
  await bot?.stop();
  await world.close();
});

/** `/sms send`, the modal filled in and submitted: returns the confirmation view (CONFIRM_COST=0 asks for every send). */
async function composeAwaitingConfirm(
  b: BotProcess,
  user: string,
  recipients: string,
  text: string,
): Promise<ViewOutput> {
  const after = fake.state.journal.seq;
  await b.driver.slashCommand({ command: '/sms', text: 'send', userId: user, channelId: channels.smsOps });
  const call = await fake.state.waitForCall(
    'views.update',
    (c) => (c.args.view as { callback_id?: string }).callback_id === 'compose',
    { after, timeoutMs: 10_000 },
  );
  const view = fake.state.views.get(String(call.args.view_id))!;
  const result = await b.driver.viewSubmission({
    userId: user,
    view,
    values: { recipients: { recipients }, [textBlockOf(view)]: { text } },
  });
  expect(result.outcome.kind).toBe('pushed');
  return (result.outcome as { view: ViewOutput }).view;
}

/** Presses the confirm button and returns what the modal shows once the send path has answered. */
async function confirm(b: BotProcess, user: string, view: ViewOutput): Promise<string> {
  const after = fake.state.journal.seq;
  const acked = await b.driver.viewSubmission({ userId: user, view });
  // The confirmation closes; the compose view below it shows the outcome.
  expect(acked.outcome.kind).toBe('closed');
  const shown = await fake.state.waitFor(
    'view',
    (e) =>
      e.action === 'updated' &&
      e.view.id === (view.root_view_id ?? view.id) &&
      !JSON.stringify(e.view.blocks).includes('Sending to'),
    { after, timeoutMs: 10_000 },
  );
  return JSON.stringify(shown.view.blocks);
}

describe('limits lowered between compose and confirm', () => {
  it('a restart with a lower MAX_RECIPIENTS or MAX_SEGMENTS refuses the waiting confirms; the gateway is never called', async () => {
    const env = { CONFIRM_COST: '0' };
    const before = await startBot({ fake, gatewayUrl: sim.url, databaseUrl, env });
    bot = before;
    // Two people each have a confirm waiting (a person has one modal open at a time).
    await before.sms('grant <@U0ALICE|alice> sender');
    await fake.state.waitFor('ephemeral', (e) => e.message.recipient === users.admin);
    const wide = await composeAwaitingConfirm(
      before,
      users.admin,
      '0532 123 45 67, 0533 123 45 67, 0534 123 45 67',
      'Three recipients',
    );
    // 400 GSM-7 characters: three segments of 153.
    const long = await composeAwaitingConfirm(
      before,
      users.alice,
      '0532 123 45 67',
      `Long ${'x'.repeat(395)}`,
    );
    expect(JSON.stringify(long.blocks)).toContain('up to 3 per message');
    await before.stop();

    bot = await startBot({
      fake,
      gatewayUrl: sim.url,
      databaseUrl,
      port: before.port,
      env: { ...env, MAX_RECIPIENTS: '2', MAX_SEGMENTS: '2' },
    });
    expect(await confirm(bot, users.admin, wide)).toContain(
      'Nothing was sent or charged. This send has 3 recipients and the limit is now 2 per send.',
    );
    expect(await confirm(bot, users.alice, long)).toContain(
      'Nothing was sent or charged. Each message needs 3 segments and the limit is now 2.',
    );
    expect(await control.callCount('Submit')).toBe(0);
    await bot.stop();
    bot = undefined;

    // Read with the bot stopped: the refused sends are on record, with why.
    const store = await openStore(databaseUrl);
    try {
      const rows = await store.outbox.recent(10);
      expect(rows.map((r) => [r.state, r.reason]).sort()).toEqual([
        ['failed', 'refused at sending: 3 recipients, more than MAX_RECIPIENTS (2)'],
        ['failed', 'refused at sending: 3 segments per message, more than MAX_SEGMENTS (2)'],
      ]);
    } finally {
      await store.close();
    }
  }, 90_000);
});
