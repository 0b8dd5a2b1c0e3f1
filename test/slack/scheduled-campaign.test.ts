import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { CAMPAIGN_NOT_STARTED } from '../../src/sending/scheduled-campaign.js';
import { openStore } from '../../src/store/index.js';
import type { SlackMessage, ViewOutput } from '../../workspace/index.js';
import { withStoreFaults } from '../support/faulty-store.js';
import { channels, editScheduled, type Harness, startHarness, users } from '../support/slack-harness.js';

/**
 * A scheduled send larger than SUBMIT_CHUNK_SIZE (3 here) goes as a campaign when its time comes, or on Send now:
 * the scheduled send is claimed once and closed, the campaign runner sends the chunks. Real bot, local workspace,
 * simulator; the bot's clock and the jobs' passes are moved by the test.
 */

const START = Date.parse('2026-11-24T06:00:00.000Z');
let clock = START;
const now = () => new Date(clock);
const minutes = (n: number) => n * 60_000;
const pick = (ms: number) => String(Math.floor(ms / 1000));

/** Eight distinct numbers: chunks of 3, 3 and 2. */
const NUMBERS = Array.from({ length: 8 }, (_, i) => `90532${1_000_000 + i}`);

let h: Harness;
let postsBefore = 0;
/** Store methods (`campaigns.create`) that fail once, as a stop at that moment would leave things. */
const failOnce = new Set<string>();
/** What happens elsewhere just before a store call of the bot (another instance, a person), when set. */
let meanwhile: ((method: string) => Promise<void>) | undefined;
const dir = mkdtempSync(join(tmpdir(), 'smsops-scheduled-campaign-'));

beforeAll(async () => {
  h = await startHarness({
    now,
    store: withStoreFaults(
      await openStore(`sqlite:${join(dir, 'bot.db')}`),
      (method) => (failOnce.delete(method) ? new Error(`the process stopped at ${method}`) : undefined),
      (method) => meanwhile?.(method),
    ),
    sending: { submitChunkSize: 3, confirmRecipients: 5 },
    env: { SUBMIT_CHUNK_INTERVAL_MS: '0' },
  });
});
afterAll(async () => {
  await h.close();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(async () => {
  clock = START;
  await h.control.reset();
  postsBefore = h.fake.state.calls('chat.postMessage').length;
  for (const row of await h.store.outbox.waitingScheduled(100)) {
    await h.store.outbox.cancelScheduled(row.id, 'test', now());
  }
});

const blocksOf = (x: { blocks?: unknown[] }) => JSON.stringify(x.blocks ?? []);

/** Composes a send to `numbers` scheduled at `atMs`, confirming it (more than 5 recipients ask). */
async function schedule(text: string, atMs: number, numbers = NUMBERS): Promise<ViewOutput> {
  const view = await h.openCompose('send');
  const result = await h.submitCompose(view, {
    recipients: numbers.join('\n'),
    text,
    when: 'schedule',
    schedule_at: pick(atMs),
  });
  expect(result.outcome.kind).toBe('pushed');
  const confirm = (result.outcome as { view: ViewOutput }).view;
  expect((await h.driver.viewSubmission({ userId: users.admin, view: confirm })).outcome.kind).toBe('closed');
  return confirm;
}

/** The scheduled send's card, once the store knows where it is and it matches `shape`. */
async function cardOf(text: string, shape: RegExp = /Scheduled/): Promise<SlackMessage> {
  const card = await h.fake.state.waitForMessage(
    (m) => m.channel === channels.smsOps && blocksOf(m).includes(text) && shape.test(blocksOf(m)),
  );
  await vi.waitFor(async () => {
    const row = (await h.store.outbox.recent(100)).find((r) => r.text === text);
    expect(row?.messageTs).toBe(card.ts);
  });
  return card;
}

/**
 * Schedules `text` ten minutes ahead, lets the time come, and runs the due pass with the process stopping at the
 * store call `stopAt` (the pass then fails, as the stopped process would never have finished it).
 */
async function dueAndStoppedAt(text: string, stopAt: string): Promise<void> {
  await schedule(text, clock + minutes(10));
  await cardOf(text);
  clock += minutes(10);
  failOnce.add(stopAt);
  await h.bot.scheduled.tick().catch(() => undefined);
}

async function rowOf(text: string) {
  const row = (await h.store.outbox.recent(100)).find((r) => r.text === text);
  expect(row, `an outbox row for “${text}”`).toBeDefined();
  return row!;
}

/** Campaign cards posted since the test began. */
function campaignCards(): { text: string }[] {
  return h.fake.state
    .calls('chat.postMessage')
    .slice(postsBefore)
    .map((c) => ({ text: String(c.args.text ?? '') }))
    .filter((m) => /^SMS campaign C-\d+:/.test(m.text));
}

async function receivedPerNumber(): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const batch of (await h.control.state()).batches) {
    for (const r of batch.recipients) counts.set(r.to, (counts.get(r.to) ?? 0) + 1);
  }
  return counts;
}

describe('a scheduled send larger than one gateway call', () => {
  it('says on its confirmation and card that it goes as a campaign of chunks', async () => {
    const confirm = await schedule('Campaign later', clock + minutes(60));
    expect(blocksOf(confirm)).toContain('campaign of 3 chunks of up to 3 recipients');
    expect(blocksOf(confirm)).toContain('one after another');
    const card = await cardOf('Campaign later');
    expect(blocksOf(card)).toContain('campaign of 3 chunks of up to 3 recipients');
    expect(blocksOf(card)).toContain('one after another');
    expect(blocksOf(card)).toMatch(/Recipients\*\\n8/);
  });

  it('when due, becomes one campaign: 3 chunks, each number once, the gateway never called for the whole', async () => {
    await schedule('Due campaign', clock + minutes(60));
    await cardOf('Due campaign');
    // One number opts out meanwhile: left out at that moment, and the card says so.
    await h.sms(`optout add +${NUMBERS[7]}`);
    await h.ephemeral(users.admin, /opted out|opt-out|added/i);

    clock += minutes(60);
    const passes = await Promise.all([h.bot.scheduled.tick(), h.bot.scheduled.tick()]);
    expect(passes.reduce((n, p) => n + p.fired, 0)).toBe(1);
    expect(await h.control.callCount('Submit')).toBe(0);
    const row = await rowOf('Due campaign');
    expect(row.state).toBe('cancelled');
    const went = await cardOf('Due campaign', /sent as a campaign/);
    expect(blocksOf(went)).toContain('1 number opted out since it was scheduled');
    expect(blocksOf(went)).not.toContain('scheduled_send_now');
    await vi.waitFor(() => expect(campaignCards()).toHaveLength(1));
    expect(campaignCards()[0]!.text).toMatch(/0 of 7 sent/);

    expect(await h.bot.campaigns.tick()).toBe(3);
    expect(await h.control.callCount('Submit')).toBe(3);
    const batches = (await h.control.state()).batches;
    expect(batches.map((b) => b.recipients.length)).toEqual([3, 3, 1]);
    const counts = await receivedPerNumber();
    expect([...counts.keys()].sort()).toEqual(NUMBERS.slice(0, 7));
    expect([...counts.values()].every((c) => c === 1)).toBe(true);

    // `/sms status S-…` shows the same: it went as a campaign.
    await h.sms(`status S-${row.id}`);
    await h.ephemeral(users.admin, /went as a campaign of 3 chunks/);

    // A later pass, on either job, starts nothing more.
    expect(await h.bot.scheduled.tick()).toEqual({ fired: 0, held: 0 });
    expect(await h.bot.campaigns.tick()).toBe(0);
    expect(await h.control.callCount('Submit')).toBe(3);
    expect(campaignCards()).toHaveLength(1);
  });

  it('held after downtime, then Send now: it goes as a campaign', async () => {
    await schedule('Held campaign', clock + minutes(10));
    await cardOf('Held campaign');
    clock += minutes(50);
    expect(await h.bot.scheduled.tick()).toEqual({ fired: 0, held: 1 });
    const held = await cardOf('Held campaign', /held/);
    expect(blocksOf(held)).toContain('campaign of 3 chunks');
    await h.driver.blockAction({ userId: users.admin, message: held, actionId: 'scheduled_send_now' });
    await cardOf('Held campaign', /sent as a campaign/);
    await vi.waitFor(() => expect(campaignCards()).toHaveLength(1));
    expect(await h.control.callCount('Submit')).toBe(0);
    expect(await h.bot.campaigns.tick()).toBe(3);
    expect(await h.control.callCount('Submit')).toBe(3);
    // A second press finds nothing waiting.
    await h.driver.blockAction({ userId: users.admin, message: held, actionId: 'scheduled_send_now' });
    await h.ephemeral(users.admin, /no longer waiting/);
    expect(await h.bot.campaigns.tick()).toBe(0);
    expect(campaignCards()).toHaveLength(1);
  });

  it('an edit saved with Send now goes as a campaign, once', async () => {
    await schedule('Before the campaign edit', clock + minutes(90));
    const card = await cardOf('Before the campaign edit');
    const after = h.fake.state.journal.seq;
    const view = await editScheduled(h, card);
    const saved = await h.submitCompose(view, { text: 'After the campaign edit', when: 'now' });
    if (saved.outcome.kind === 'pushed') {
      const confirm = (saved.outcome as { view: ViewOutput }).view;
      expect(blocksOf(confirm)).toContain('campaign of 3 chunks');
      await h.driver.viewSubmission({ userId: users.admin, view: confirm });
    }
    await h.fake.state.waitFor('view', (e) => /Campaign \*C-\d+\* started/.test(blocksOf(e.view)), {
      after,
    });
    const went = await cardOf('After the campaign edit', /sent as a campaign/);
    expect(went.ts).toBe(card.ts);
    await vi.waitFor(() => expect(campaignCards()).toHaveLength(1));
    expect(await h.bot.campaigns.tick()).toBe(3);
    clock += minutes(91);
    expect(await h.bot.scheduled.tick()).toEqual({ fired: 0, held: 0 });
    expect(await h.bot.campaigns.tick()).toBe(0);
    expect(await h.control.callCount('Submit')).toBe(3);
  });

  it('cancelled before it is due: nothing is sent and no campaign starts', async () => {
    await schedule('Cancelled campaign', clock + minutes(30));
    const card = await cardOf('Cancelled campaign');
    await h.driver.blockAction({ userId: users.admin, message: card, actionId: 'scheduled_cancel' });
    await cardOf('Cancelled campaign', /Cancelled by <@U0ADMIN>/);
    clock += minutes(31);
    expect(await h.bot.scheduled.tick()).toEqual({ fired: 0, held: 0 });
    expect(await h.bot.campaigns.tick()).toBe(0);
    expect(await h.control.callCount('Submit')).toBe(0);
    expect(campaignCards()).toHaveLength(0);
  });

  it('cut off between its claim and its campaign: held, not unknown; Send now starts it, each number once', async () => {
    // The process stops right after claiming the row, before the campaign exists.
    await dueAndStoppedAt('Cut off campaign', 'campaigns.create');
    expect((await rowOf('Cut off campaign')).state).toBe('pending');
    expect(await h.control.callCount('Submit')).toBe(0);

    // Once its lease has run out, the tracker hands it back: nothing was sent, so it is not "unknown".
    clock += minutes(5);
    expect(await h.tracker.reconcileStale(now())).toBe(1);
    expect(await rowOf('Cut off campaign')).toMatchObject({ state: 'held', owner: null });
    const held = await cardOf('Cut off campaign', /stopped while it was starting as a campaign/);
    expect(blocksOf(held)).toContain('scheduled_send_now');
    // Only that campaign may ever go, as it was: it is not edited.
    h.mark();
    await h.driver.blockAction({ userId: users.admin, message: held, actionId: 'scheduled_edit' });
    await h.ephemeral(users.admin, /can no longer be edited: send it now as it is, or cancel it/);
    expect(await h.bot.scheduled.tick()).toEqual({ fired: 0, held: 0 });
    expect(campaignCards()).toHaveLength(0);

    await h.driver.blockAction({ userId: users.admin, message: held, actionId: 'scheduled_send_now' });
    await cardOf('Cut off campaign', /sent as a campaign/);
    await vi.waitFor(() => expect(campaignCards()).toHaveLength(1), { timeout: 10_000 });
    expect(await h.bot.campaigns.tick()).toBe(3);
    // Each number once, but those opted out (by an earlier test, when the file runs whole).
    const counts = await receivedPerNumber();
    const optedOut = await h.store.optOuts.hasMany(NUMBERS);
    expect([...counts.keys()].sort()).toEqual(NUMBERS.filter((n) => !optedOut.has(n)));
    expect([...counts.values()].every((c) => c === 1)).toBe(true);
  });

  it('cut off after its campaign started, before its row closed: the row closes, nothing starts twice', async () => {
    await dueAndStoppedAt('Started then cut off', 'outbox.closeAsCampaign');
    const cut = await rowOf('Started then cut off');
    expect(cut.state).toBe('pending');
    expect(await h.store.campaigns.byKey(`${cut.idempotencyKey}:campaign`)).toMatchObject({
      state: 'running',
    });

    clock += minutes(5);
    expect(await h.tracker.reconcileStale(now())).toBe(1);
    expect((await rowOf('Started then cut off')).state).toBe('cancelled');
    await cardOf('Started then cut off', /sent as a campaign/);
    const audit = await h.store.audit.recent(20);
    expect(
      audit.filter((a) => a.action === 'schedule_campaign' && a.target === `outbox ${cut.id}`),
    ).toHaveLength(1);
    // The campaign runs as any other (its card, never posted by the cut-off flow, comes with its first chunk).
    expect(await h.bot.campaigns.tick()).toBe(3);
    expect(await h.bot.campaigns.tick()).toBe(0);
    expect(await h.control.callCount('Submit')).toBe(3);
    await vi.waitFor(() => expect(campaignCards()).toHaveLength(1), { timeout: 10_000 });
  });

  it('held while its slow instance was still starting the campaign: Send now finds it, and nothing goes twice', async () => {
    await dueAndStoppedAt('Slow, not gone', 'outbox.closeAsCampaign');
    const slow = await rowOf('Slow, not gone');
    // What a tracker does to a claim whose lease ran out, had it looked before the campaign was there.
    const taken = { now: new Date(clock + minutes(5)), unleasedBefore: new Date(clock) };
    expect(await h.store.outbox.holdAbandoned(slow.id, 'the bot stopped', taken)).toBe(true);
    const held = await h.fake.state.waitForMessage(
      (m) => m.channel === channels.smsOps && blocksOf(m).includes('Slow, not gone'),
    );

    h.mark();
    await h.driver.blockAction({ userId: users.admin, message: held, actionId: 'scheduled_send_now' });
    await h.ephemeral(users.admin, /already went as campaign C-\d+/);
    expect((await rowOf('Slow, not gone')).state).toBe('cancelled');
    expect(await h.bot.campaigns.tick()).toBe(3);
    expect(await h.bot.campaigns.tick()).toBe(0);
    expect(await h.control.callCount('Submit')).toBe(3);
    const counts = await receivedPerNumber();
    expect([...counts.values()].every((c) => c === 1)).toBe(true);
  });

  it('cancelled by a person while its slow instance was starting the campaign: that campaign never sends', async () => {
    await schedule('Cancelled while slow', clock + minutes(10));
    await cardOf('Cancelled while slow');
    clock += minutes(10);
    // Just before the slow instance closes the row: a tracker took the claim back, and the author cancelled it.
    meanwhile = async (method) => {
      if (method !== 'outbox.closeAsCampaign') return;
      meanwhile = undefined;
      const row = await rowOf('Cancelled while slow');
      const later = { now: new Date(clock + minutes(60)), unleasedBefore: new Date(clock) };
      expect(await h.store.outbox.holdAbandoned(row.id, CAMPAIGN_NOT_STARTED, later)).toBe(true);
      expect(await h.store.outbox.cancelScheduled(row.id, users.admin, now())).toBe(true);
    };
    await h.bot.scheduled.tick();
    const row = await rowOf('Cancelled while slow');
    expect(row.state).toBe('cancelled');
    expect(await h.store.campaigns.byKey(`${row.idempotencyKey}:campaign`)).toMatchObject({
      state: 'cancelled',
    });
    expect(await h.bot.campaigns.tick()).toBe(0);
    expect(await h.control.callCount('Submit')).toBe(0);
  });

  it('a role taken away by then: refused, said on its card, no campaign', async () => {
    await h.store.permissions.grant(users.alice, 'sender', users.admin);
    const view = await h.openCompose('send', users.alice);
    const result = await h.submitCompose(
      view,
      {
        recipients: NUMBERS.join('\n'),
        text: 'Alice campaign',
        when: 'schedule',
        schedule_at: pick(clock + minutes(30)),
      },
      users.alice,
    );
    const confirm = (result.outcome as { view: ViewOutput }).view;
    await h.driver.viewSubmission({ userId: users.alice, view: confirm });
    await cardOf('Alice campaign');
    await h.store.permissions.revoke(users.alice);
    clock += minutes(30);
    await h.bot.scheduled.tick();
    const card = await cardOf('Alice campaign', /Not sent/);
    expect(blocksOf(card)).toContain('no longer has the sender role');
    expect((await rowOf('Alice campaign')).state).toBe('failed');
    expect(await h.bot.campaigns.tick()).toBe(0);
    expect(campaignCards()).toHaveLength(0);
    expect(await h.control.callCount('Submit')).toBe(0);
  });
});

describe('an immediate send larger than one gateway call', () => {
  it('its confirmation says it goes as a campaign of chunks, one after another', async () => {
    const view = await h.openCompose('send');
    const result = await h.submitCompose(view, { recipients: NUMBERS.join('\n'), text: 'Now campaign' });
    expect(result.outcome.kind).toBe('pushed');
    const confirm = (result.outcome as { view: ViewOutput }).view;
    expect(blocksOf(confirm)).toContain('campaign of 3 chunks of up to 3 recipients');
    expect(blocksOf(confirm)).toContain('one after another');
    await h.driver.viewSubmission({ userId: users.admin, view: confirm });
    await vi.waitFor(() => expect(campaignCards()).toHaveLength(1));
    expect(await h.bot.campaigns.tick()).toBe(3);
  });
});
