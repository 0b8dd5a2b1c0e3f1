import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SlackMessage, ViewOutput } from '../../workspace/index.js';
import { channels, editScheduled, type Harness, startHarness, users } from '../support/slack-harness.js';

/**
 * Scheduled sends through the real interface: signed requests, the workspace's Web API (users.info gives
 * each person's zone: Ada is in Europe/London, Alice in Europe/Paris), the simulator as the gateway, and
 * the bot's clock moved by the test instead of sleeping.
 */

const START = Date.parse('2026-11-24T06:00:00.000Z'); // Tuesday
let clock = START;
const now = () => new Date(clock);
const minutes = (n: number) => n * 60_000;
/** The datetimepicker's value: UNIX seconds. */
const pick = (ms: number) => String(Math.floor(ms / 1000));

let h: Harness;

beforeAll(async () => {
  h = await startHarness({ now });
});
afterAll(() => h.close());
beforeEach(async () => {
  clock = START;
  await h.control.reset();
  // Each test starts with nothing waiting: what an earlier one left is cancelled.
  for (const row of await h.store.outbox.waitingScheduled(100)) {
    await h.store.outbox.cancelScheduled(row.id, 'test', now());
  }
});

const blocksOf = (x: { blocks?: unknown[] }) => JSON.stringify(x.blocks ?? []);

/** Opens the composer as `user` and submits it with Schedule at `atMs`. */
async function schedule(
  text: string,
  atMs: number,
  user: string = users.admin,
  recipients = '0532 100 00 01',
) {
  const view = await h.openCompose('send', user);
  return h.submitCompose(view, { recipients, text, when: 'schedule', schedule_at: pick(atMs) }, user);
}

/** The card of the scheduled send with this text, once it shows `shape`. */
function cardOf(text: string, shape: RegExp = /Scheduled/): Promise<SlackMessage> {
  return h.fake.state.waitForMessage(
    (m) => m.channel === channels.smsOps && blocksOf(m).includes(text) && shape.test(blocksOf(m)),
  );
}

/** The card just posted for a scheduled send, once the store knows where it is (the job updates it there). */
async function postedCard(text: string, harness: Harness = h): Promise<SlackMessage> {
  const card = await harness.fake.state.waitForMessage(
    (m) => m.channel === channels.smsOps && blocksOf(m).includes(text),
  );
  await vi.waitFor(async () => {
    const row = (await harness.store.outbox.recent(100)).find((r) => r.text === text);
    expect(row?.messageTs).toBe(card.ts);
  });
  return card;
}

async function rowOf(text: string) {
  const row = (await h.store.outbox.recent(100)).find((r) => r.text === text);
  expect(row, `an outbox row for “${text}”`).toBeDefined();
  return row!;
}

async function click(card: SlackMessage, actionId: string, user: string = users.admin) {
  h.mark();
  await h.driver.blockAction({ userId: user, message: card, actionId });
}

describe('scheduling from the compose modal', () => {
  it('offers Send now or Schedule, with the picker in the user’s own Slack zone', async () => {
    const view = await h.openCompose('send');
    const when = view.blocks.find((b) => b.block_id === 'when') as { element: { type: string } };
    const at = view.blocks.find((b) => b.block_id === 'schedule_at') as {
      element: { type: string };
      hint: { text: string };
    };
    expect(when.element.type).toBe('radio_buttons');
    expect(at.element.type).toBe('datetimepicker');
    expect(at.hint.text).toContain('your Slack time zone, Europe/London');
    await h.store.permissions.grant(users.alice, 'sender', users.admin);
    const alices = await h.openCompose('send', users.alice);
    expect(blocksOf(alices)).toContain('your Slack time zone, Europe/Paris');
    // The zone is asked of Slack once per user, then cached.
    await h.openCompose('send');
    const asked = h.fake.state.calls('users.info').filter((c) => c.args.user === users.admin);
    expect(asked).toHaveLength(1);
  });

  it('refuses a time too soon, too far or missing, as an error on the picker, and saves nothing', async () => {
    const tooSoon = await schedule('Too soon', clock + minutes(1));
    expect(tooSoon.outcome).toMatchObject({ kind: 'errors' });
    const soonError = (tooSoon.outcome as { errors: Record<string, string> }).errors.schedule_at;
    expect(soonError).toContain('at least 2 minutes ahead');
    expect(soonError).toContain('(Europe/London)');

    const tooFar = await schedule('Too far', clock + minutes(91 * 24 * 60));
    expect((tooFar.outcome as { errors: Record<string, string> }).errors.schedule_at).toContain(
      'at most 90 days ahead',
    );
    const view = await h.openCompose('send');
    const missing = await h.submitCompose(view, {
      recipients: '0532 100 00 01',
      text: 'No time',
      when: 'schedule',
    });
    expect((missing.outcome as { errors: Record<string, string> }).errors.schedule_at).toMatch(
      /Pick a date and time/,
    );

    expect(await h.store.outbox.waitingScheduled(10)).toEqual([]);
    expect(await h.control.callCount('Submit')).toBe(0);
  });

  it('never sends at once a send with a time picked beside “Send now”: the When field says what to do', async () => {
    const view = await h.openCompose('send');
    const result = await h.submitCompose(view, {
      recipients: '0532 100 00 01',
      text: 'Meant for later',
      when: 'now',
      schedule_at: pick(clock + minutes(60)),
    });
    expect(result.outcome).toMatchObject({ kind: 'errors' });
    expect((result.outcome as { errors: Record<string, string> }).errors.when).toMatch(
      /A time is picked below but “Send now” is chosen\. Choose “Schedule for the time below”/,
    );
    expect(await h.control.callCount('Submit')).toBe(0);
    expect((await h.store.outbox.recent(100)).filter((r) => r.text === 'Meant for later')).toEqual([]);
  });

  it('saves a send for later: its card says when, in the author’s zone, and nothing is sent yet', async () => {
    const result = await schedule('Doors open at nine', Date.parse('2026-11-24T09:00:00Z'));
    expect(result.outcome.kind).toBe('updated');
    const card = await postedCard('Doors open at nine');
    expect(blocksOf(card)).toContain('Scheduled for Tue 24 Nov, 09:00 (Europe/London)');
    expect(blocksOf(card)).toMatch(/scheduled_send_now.*scheduled_edit.*scheduled_cancel/);
    const modal = await h.fake.state.waitFor('view', (e) =>
      blocksOf(e.view).includes('scheduled for Tue 24 Nov'),
    );
    expect(blocksOf(modal.view)).toContain('(Europe/London)');
    expect(await h.control.callCount('Submit')).toBe(0);
    expect((await rowOf('Doors open at nine')).state).toBe('scheduled');

    // Alice, in Paris, sees her own zone on her own send.
    await h.store.permissions.grant(users.alice, 'sender', users.admin);
    await schedule('Paris at ten', Date.parse('2026-11-24T09:00:00Z'), users.alice);
    const hers = await postedCard('Paris at ten');
    expect(blocksOf(hers)).toContain('Scheduled for Tue 24 Nov, 10:00 (Europe/Paris)');
  });

  it('a send that needs confirmation says in the confirmation when it will go', async () => {
    const many = Array.from(
      { length: 60 },
      (_, i) => `0532 200 ${String(i).padStart(4, '0').slice(0, 2)} ${String(i).padStart(2, '0')}`,
    ).join('\n');
    const result = await schedule('Sixty people', Date.parse('2026-11-24T09:30:00Z'), users.admin, many);
    expect(result.outcome.kind).toBe('pushed');
    const confirm = (result.outcome as { view: ViewOutput }).view;
    expect(blocksOf(confirm)).toContain('Scheduled for Tue 24 Nov, 09:30 (Europe/London)');
    expect(JSON.stringify(confirm.submit)).toContain('Schedule 60 messages');
    // The confirmation closes and the compose view below it shows the outcome: one modal is left.
    expect((await h.driver.viewSubmission({ userId: users.admin, view: confirm })).outcome.kind).toBe(
      'closed',
    );
    await postedCard('Sixty people');
    expect(await h.control.callCount('Submit')).toBe(0);
  });
});

describe('when a scheduled send is due', () => {
  it('goes once, through the send path, and its card becomes the delivery card', async () => {
    await schedule('Due at seven', clock + minutes(60), users.admin, '0532 100 00 01\n0532 100 00 02');
    await postedCard('Due at seven');
    // One of the two opts out meanwhile: the send leaves it out, and the card says so.
    await h.sms('optout add 0532 100 00 02');
    await h.ephemeral(users.admin, /opted out|opt-out|added/i);

    clock += minutes(59);
    expect(await h.bot.scheduled.tick()).toEqual({ fired: 0, held: 0 });
    expect(await h.control.callCount('Submit')).toBe(0);

    clock += minutes(1);
    const passes = await Promise.all([h.bot.scheduled.tick(), h.bot.scheduled.tick()]);
    await h.bot.scheduled.tick();
    expect(passes.reduce((n, p) => n + p.fired, 0)).toBe(1);
    expect(await h.control.callCount('Submit')).toBe(1);
    const row = await rowOf('Due at seven');
    expect(row).toMatchObject({ state: 'submitted', recipientCount: 1 });
    const card = await cardOf('Due at seven', /SMS batch \d+/);
    expect(blocksOf(card)).toContain('Scheduled by <@U0ADMIN> for Tue 24 Nov, 07:00 (Europe/London)');
    expect(blocksOf(card)).toMatch(/1 number opted out/);
    expect(blocksOf(card)).not.toContain('scheduled_send_now');
  });

  it('says on its card what changed: a role taken away sends nothing', async () => {
    await h.store.permissions.grant(users.alice, 'sender', users.admin);
    await schedule('Alice later', clock + minutes(30), users.alice);
    await postedCard('Alice later');
    await h.sms('revoke <@U0ALICE|alice>');
    clock += minutes(31);
    await h.bot.scheduled.tick();
    const card = await cardOf('Alice later', /Not sent/);
    expect(blocksOf(card)).toContain('no longer has the sender role');
    expect(await h.control.callCount('Submit')).toBe(0);
    expect((await rowOf('Alice later')).state).toBe('failed');
  });

  it('after downtime: sent when found within the grace, held when found later, never sent late by surprise', async () => {
    await schedule('Within grace', clock + minutes(40));
    await schedule('Beyond grace', clock + minutes(10));
    await postedCard('Within grace');
    await postedCard('Beyond grace');
    // Nothing ran from 06:00 to 06:50: one is 10 minutes late, the other 40.
    clock += minutes(50);
    expect(await h.bot.scheduled.tick()).toEqual({ fired: 1, held: 1 });
    expect(await h.control.callCount('Submit')).toBe(1);
    expect((await rowOf('Within grace')).state).toBe('submitted');
    const held = await cardOf('Beyond grace', /held/);
    expect(blocksOf(held)).toContain('was due Tue 24 Nov, 06:10 (Europe/London)');
    expect(blocksOf(held)).toContain('<@U0ADMIN>, send it now or cancel it');
    expect(blocksOf(held)).toMatch(/scheduled_send_now.*scheduled_cancel/);

    // Hours later, it still waits for its author.
    clock += minutes(300);
    await h.bot.scheduled.tick();
    expect(await h.control.callCount('Submit')).toBe(1);
    expect((await rowOf('Beyond grace')).state).toBe('held');

    await click(held, 'scheduled_send_now');
    await cardOf('Beyond grace', /SMS batch \d+/);
    expect(await h.control.callCount('Submit')).toBe(2);
  });
});

describe('the card’s buttons', () => {
  it('Send now sends at once, and a second press sends nothing more', async () => {
    await schedule('Right away', clock + minutes(120));
    const card = await postedCard('Right away');
    await click(card, 'scheduled_send_now');
    await cardOf('Right away', /SMS batch \d+/);
    await click(card, 'scheduled_send_now');
    await h.ephemeral(users.admin, /no longer waiting/);
    expect(await h.control.callCount('Submit')).toBe(1);
    // And the job finds nothing left to send when its time comes.
    clock += minutes(121);
    await h.bot.scheduled.tick();
    expect(await h.control.callCount('Submit')).toBe(1);
  });

  it('Cancel: refused to another sender, allowed to the author and to an admin', async () => {
    await h.store.permissions.grant(users.alice, 'sender', users.admin);
    await h.store.permissions.grant(users.bob, 'sender', users.admin);
    await schedule('Alice first', clock + minutes(60), users.alice);
    await schedule('Alice second', clock + minutes(60), users.alice);
    const first = await postedCard('Alice first');
    const second = await postedCard('Alice second');

    await click(first, 'scheduled_cancel', users.bob);
    await h.ephemeral(users.bob, /Only the author of this scheduled send \(<@U0ALICE>\) or an admin/);
    expect((await rowOf('Alice first')).state).toBe('scheduled');

    await click(first, 'scheduled_cancel', users.alice);
    await h.ephemeral(users.alice, /Scheduled send cancelled/);
    await cardOf('Alice first', /Cancelled by <@U0ALICE>/);

    await click(second, 'scheduled_cancel', users.admin);
    await h.ephemeral(users.admin, /Scheduled send cancelled/);
    await cardOf('Alice second', /Cancelled by <@U0ADMIN>/);

    clock += minutes(61);
    await h.bot.scheduled.tick();
    expect(await h.control.callCount('Submit')).toBe(0);
    const cancelDialog = JSON.stringify(
      (first.blocks as { elements?: { action_id: string; confirm?: unknown }[] }[])
        .flatMap((b) => b.elements ?? [])
        .find((e) => e.action_id === 'scheduled_cancel')?.confirm,
    );
    expect(cancelDialog).toContain('"type":"plain_text"');
  });

  it('Edit reopens the compose modal prefilled; saving updates the same send and its card', async () => {
    await schedule('First wording', clock + minutes(60));
    const card = await postedCard('First wording');
    const row = await rowOf('First wording');
    const view = await editScheduled(h, card);
    expect(blocksOf(view)).toContain('First wording');
    expect(blocksOf(view)).toContain('+90 532 100 00 01');
    expect(JSON.stringify(view.title)).toContain('Edit scheduled SMS');
    const picker = view.blocks.find((b) => b.block_id === 'schedule_at') as {
      element: { initial_date_time?: number };
    };
    expect(picker.element.initial_date_time).toBe(Math.floor((clock + minutes(60)) / 1000));

    const saved = await h.submitCompose(view, {
      text: 'Second wording',
      schedule_at: pick(Date.parse('2026-11-24T08:15:00Z')),
    });
    expect(saved.outcome.kind).toBe('updated');
    const updated = await postedCard('Second wording');
    expect(updated.ts).toBe(card.ts);
    expect(blocksOf(updated)).toContain('Scheduled for Tue 24 Nov, 08:15 (Europe/London)');
    const waiting = await h.store.outbox.waitingScheduled(10);
    expect(waiting.map((r) => r.id)).toEqual([row.id]);
    expect(waiting[0]).toMatchObject({ text: 'Second wording', dueAt: new Date('2026-11-24T08:15:00Z') });

    // At the old time nothing goes; at the new one it does.
    clock += minutes(61);
    await h.bot.scheduled.tick();
    expect(await h.control.callCount('Submit')).toBe(0);
    clock = Date.parse('2026-11-24T08:15:00Z');
    await h.bot.scheduled.tick();
    expect(await h.control.callCount('Submit')).toBe(1);
  });
});

describe('an edit saved with Send now', () => {
  it('applies the edit and sends it at once, once', async () => {
    await schedule('Before the edit', clock + minutes(90));
    const card = await postedCard('Before the edit');
    const view = await editScheduled(h, card);
    const saved = await h.submitCompose(view, { text: 'After the edit', when: 'now' });
    expect(saved.outcome.kind).toBe('updated');
    const sent = await cardOf('After the edit', /SMS batch \d+/);
    expect(sent.ts).toBe(card.ts);
    expect(await h.control.callCount('Submit')).toBe(1);
    clock += minutes(91);
    await h.bot.scheduled.tick();
    expect(await h.control.callCount('Submit')).toBe(1);
  });

  it('is refused when another time was picked beside it: the edit is not sent, and stays scheduled', async () => {
    await schedule('Edited to a new time', clock + minutes(90));
    const card = await postedCard('Edited to a new time');
    const view = await editScheduled(h, card);
    const saved = await h.submitCompose(view, { when: 'now', schedule_at: pick(clock + minutes(120)) });
    expect(saved.outcome).toMatchObject({ kind: 'errors' });
    expect((saved.outcome as { errors: Record<string, string> }).errors.when).toContain(
      '“Send now” is chosen',
    );
    expect(await h.control.callCount('Submit')).toBe(0);
    expect((await h.store.outbox.waitingScheduled(10)).map((r) => r.text)).toEqual(['Edited to a new time']);
  });
});

describe('a scheduled send whose gateway reply never came', () => {
  // A store of its own: the simulator restarts its MessageIds at each reset, and the gateway check leaves
  // out batches already recorded on other sends.
  let quiet: Harness;
  beforeAll(async () => {
    quiet = await startHarness({ now });
  });
  afterAll(() => quiet.close());

  it('is state unknown, and Check the gateway looks for it around when it went, not when it was scheduled', async () => {
    // Real time here: the simulator stamps batches with its own clock. Scheduled three hours ago…
    clock = Date.now() - minutes(180);
    const view = await quiet.openCompose('send');
    await quiet.submitCompose(view, {
      recipients: '0532 100 00 01',
      text: 'Gone quiet',
      when: 'schedule',
      schedule_at: pick(Date.now() + minutes(60)),
    });
    const card = await postedCard('Gone quiet', quiet);
    // …sent now, and the gateway's reply never comes in time.
    clock = Date.now();
    await quiet.control.fault({ operation: 'Submit', kind: 'timeout', delayMs: 5_000 });
    await quiet.driver.blockAction({ userId: users.admin, message: card, actionId: 'scheduled_send_now' });
    const unknown = await quiet.fake.state.waitForMessage(
      (m) => blocksOf(m).includes('Gone quiet') && blocksOf(m).includes('State unknown'),
    );
    expect(unknown.ts).toBe(card.ts);
    clock = Date.now();
    quiet.mark();
    await quiet.driver.blockAction({ userId: users.admin, message: unknown, actionId: 'card_check_gateway' });
    await quiet.ephemeral(users.admin, /The gateway has one batch matching send S-\d+/);
  });
});

describe('lists of what waits', () => {
  it('/sms scheduled and the App Home list the pending sends, soonest first, with their zone', async () => {
    await schedule('Later one', Date.parse('2026-11-25T12:00:00Z'));
    await schedule('Sooner one', Date.parse('2026-11-24T08:00:00Z'));
    await postedCard('Later one');
    await h.sms('scheduled');
    const list = await h.ephemeral(users.admin, /Scheduled sends/);
    const text = blocksOf(list);
    expect(text.indexOf('Sooner one')).toBeLessThan(text.indexOf('Later one'));
    expect(text).toContain('Tue 24 Nov, 08:00 (Europe/London)');
    expect(text).toContain('Wed 25 Nov, 12:00 (Europe/London)');

    const after = h.fake.state.journal.seq;
    await h.driver.appHomeOpened(users.admin);
    const published = await h.fake.state.waitForCall('views.publish', () => true, { after });
    const home = JSON.stringify(published.args.view);
    expect(home).toContain('Scheduled sends');
    expect(home).toContain('Sooner one');
  });
});

describe('a scheduled send that the balance cannot pay for', () => {
  let costly: Harness;
  beforeAll(async () => {
    costly = await startHarness({ now, sending: { pricePerSegment: 1_000_000 } });
  });
  afterAll(() => costly.close());

  it('is not sent when due, and its card says the balance is short', async () => {
    const view = await costly.openCompose('send');
    await costly.submitCompose(view, {
      recipients: '0532 100 00 01',
      text: 'Costly',
      when: 'schedule',
      schedule_at: pick(clock + minutes(5)),
    });
    await postedCard('Costly', costly);
    clock += minutes(5);
    await costly.bot.scheduled.tick();
    const card = await costly.fake.state.waitForMessage(
      (m) => blocksOf(m).includes('Costly') && blocksOf(m).includes('Not sent'),
    );
    // Both amounts as every other amount is shown: Turkish digits and the currency.
    expect(blocksOf(card)).toContain(
      'the usable balance (1.250,00 ₺) is below the estimated cost (1.000.000,00 ₺)',
    );
    expect(await costly.control.callCount('Submit')).toBe(0);
  });
});

describe('a workspace that does not grant users:read', () => {
  let bare: Harness;
  beforeAll(async () => {
    bare = await startHarness({
      now,
      fakeSlack: {
        scopes: [
          'commands',
          'chat:write',
          'channels:join',
          'channels:read',
          'groups:read',
          'im:read',
          'mpim:read',
          // The compose modal holds a file_input, which Slack opens only for an app with files:read.
          'files:read',
        ],
      },
    });
  });
  afterAll(() => bare.close());

  it('is refused users.info, as Slack does, and the picker says which zone stands in', async () => {
    const view = await bare.openCompose('send');
    const call = bare.fake.state.calls('users.info').at(-1);
    expect(call?.result).toMatchObject({ ok: false, error: 'missing_scope', needed: 'users:read' });
    const at = view.blocks.find((b) => b.block_id === 'schedule_at') as { hint: { text: string } };
    expect(at.hint.text).toContain('Europe/Istanbul (your Slack time zone could not be read)');
  });
});
