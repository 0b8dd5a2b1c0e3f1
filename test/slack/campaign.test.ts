import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SlackMessage, ViewOutput } from '../../workspace/index.js';
import { channels, type Harness, startHarness, users } from '../support/slack-harness.js';

/**
 * Campaigns through the real bot and the local workspace: a send larger than SUBMIT_CHUNK_SIZE (3 here) goes in
 * chunks, each through the one send path, followed on one card. The runner's passes are driven by the test
 * (the loops are not started), so each step happens when the test says.
 */

let h: Harness;

beforeAll(async () => {
  h = await startHarness({
    sending: { submitChunkSize: 3, confirmRecipients: 100 },
    env: { SUBMIT_CHUNK_INTERVAL_MS: '0' },
  });
  await h.store.permissions.grant(users.alice, 'sender', users.admin);
});
afterAll(() => h.close());

let start = 0;
beforeEach(async () => {
  await h.control.reset();
  start = h.fake.state.journal.seq;
});

/** Eight distinct numbers: chunks of 3, 3 and 2. */
const NUMBERS = Array.from({ length: 8 }, (_, i) => `90532${1_000_000 + i}`);

const blockText = (x: { blocks?: unknown[] }) => JSON.stringify(x.blocks ?? []);

async function startCampaign(text: string, user: string = users.admin, numbers = NUMBERS) {
  const view = await h.openCompose('send', user);
  const result = await h.submitCompose(view, { recipients: numbers.join('\n'), text }, user);
  expect(result.outcome.kind).toBe('updated');
  const started = await h.fake.state.waitFor(
    'view',
    (e) => e.view.id === view.id && blockText(e.view).includes('started'),
    { after: start },
  );
  const card = await h.fake.state.waitForMessage(
    (m) => m.channel === channels.smsOps && /^SMS campaign C-\d+:/.test(m.text),
    { after: start },
  );
  const id = Number(/C-(\d+)/.exec(card.text)![1]);
  return { view, started: started.view as ViewOutput, card, id };
}

/** The card as it is once it matches (the runner's updates are paced within chat.update's tier). */
function cardShows(card: SlackMessage, match: RegExp): Promise<SlackMessage> {
  return h.fake.state.waitForMessage((m) => m.ts === card.ts && match.test(`${m.text}\n${blockText(m)}`), {
    after: start,
    timeoutMs: 15_000,
  });
}

/** How many times each number got an SMS at the gateway. */
async function receivedPerNumber(): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const batch of (await h.control.state()).batches) {
    for (const r of batch.recipients) counts.set(r.to, (counts.get(r.to) ?? 0) + 1);
  }
  return counts;
}

describe('campaigns: sends larger than one gateway call', () => {
  it('sends in chunks, in order, each number once, and one card follows submission then delivery', async () => {
    const { started, card, id } = await startCampaign('Campaign hello');
    expect(blockText(started)).toMatch(/8 recipients in 3 chunks of up to 3/);
    expect(card.text).toMatch(/0 of 8 sent/);
    expect(await h.control.callCount('Submit')).toBe(0);

    expect(await h.bot.campaigns.tick()).toBe(3);
    const state = await h.control.state();
    expect(state.batches.map((b) => b.recipients.map((r) => r.to))).toEqual([
      NUMBERS.slice(0, 3),
      NUMBERS.slice(3, 6),
      NUMBERS.slice(6),
    ]);
    // One outbox row per chunk, each with its own key derived from the campaign's.
    const rows = (await h.store.outbox.recent(10)).filter((r) => r.campaignId === id);
    expect(rows.map((r) => r.idempotencyKey).sort()).toEqual(
      [0, 1, 2].map((n) => `${rows[0]!.idempotencyKey.split('#')[0] ?? ''}#${n}`),
    );
    expect((await h.store.campaigns.get(id))?.state).toBe('done');
    await cardShows(card, /Chunks submitted\*\\n3 of 3/);
    await cardShows(card, /8 of 8 sent, 0 not sent; 0 delivered, 0 undelivered, 8 pending/);
    // No per-chunk delivery card: the campaign has one card.
    expect(h.fake.state.messages.history(channels.smsOps).filter((m) => /^SMS batch/.test(m.text))).toEqual(
      [],
    );

    await h.control.advance({ deliver: 1 });
    for (const row of rows) await h.tracker.pollNow(row.id);
    const final = await cardShows(card, /8 delivered, 0 undelivered, 0 pending/);
    expect(blockText(final)).toContain('delivery final');
    expect(blockText(final)).not.toContain('campaign_cancel');
    expect([...(await receivedPerNumber()).values()].every((n) => n === 1)).toBe(true);
  });

  it('Refresh asks the gateway about the chunks still being delivered and the card follows', async () => {
    const { card } = await startCampaign('Refresh me');
    await h.bot.campaigns.tick();
    const sent = await cardShows(card, /8 of 8 sent/);
    await h.control.advance({ deliver: 0.5 });
    await h.driver.blockAction({ userId: users.admin, message: sent, actionId: 'campaign_refresh' });
    // Nothing polled these chunks but the click.
    await cardShows(card, /8 of 8 sent, 0 not sent; [1-7] delivered, [1-7] undelivered, 0 pending/);
  });

  it('a repeated submission (Slack retry or double click) starts nothing twice', async () => {
    const view = await h.openCompose('send');
    const values = { recipients: NUMBERS.join('\n'), text: 'Only one campaign' };
    await Promise.all([h.submitCompose(view, values), h.submitCompose(view, values)]);
    await h.fake.state.waitFor('view', (e) => blockText(e.view).includes('already made'), { after: start });
    await h.bot.campaigns.tick();
    await h.bot.campaigns.tick();
    expect(await h.control.callCount('Submit')).toBe(3);
    const cards = h.fake.state.messages
      .history(channels.smsOps)
      .filter((m) => /^SMS campaign/.test(m.text) && blockText(m).includes('Only one campaign'));
    expect(cards).toHaveLength(1);
  });

  it('personalised sends chunk too: SubmitMulti per chunk with each recipient’s own text', async () => {
    const view = await h.openCompose('send');
    const personal = await h.chooseInCompose(view, 'mode', 'personalised');
    const csv = ['number,name', ...NUMBERS.slice(0, 5).map((n, i) => `${n},Name${i}`)].join('\n');
    const result = await h.submitCompose(personal, { csv, text: 'Hi {{name}}' });
    expect(result.outcome.kind).toBe('updated');
    await h.fake.state.waitForMessage((m) => /^SMS campaign C-\d+:/.test(m.text), { after: start });
    await h.bot.campaigns.tick();
    const { batches } = await h.control.state();
    expect(batches.map((b) => b.operation)).toEqual(['SubmitMulti', 'SubmitMulti']);
    expect(batches.flatMap((b) => b.recipients.map((r) => `${r.to}:${r.text}`))).toEqual(
      NUMBERS.slice(0, 5).map((n, i) => `${n}:Hi Name${i}`),
    );
  });

  it('a refused chunk stops the campaign; the card says sent and not sent; Send the rest (sender or admin, confirmed) sends only the rest', async () => {
    // A campaign an earlier test left with chunks to go would take the injected refusal instead of this one.
    while ((await h.bot.campaigns.tick()) > 0);
    const { card, id } = await startCampaign('Refused midway', users.alice);
    expect(await h.bot.campaigns.tick({ maxChunks: 1 })).toBe(1);
    await h.control.fault({ operation: 'Submit', kind: 'status', code: 402 });
    await h.bot.campaigns.tick();
    expect((await h.store.campaigns.get(id))?.state).toBe('stopped');
    const stopped = await cardShows(card, /Stopped.*Chunk 2 of 3 was refused by the gateway/);
    expect(stopped.text).toMatch(/3 of 8 sent, 5 not sent/);
    expect(blockText(stopped)).toContain('campaign_send_rest');
    // The dialog is plain_text, as Slack documents and the workspace enforces.
    expect(blockText(stopped)).toMatch(
      /"confirm":\{"title":\{"type":"plain_text","text":"Send the rest\?"\}/,
    );
    expect(await h.control.callCount('Submit')).toBe(2);

    // Anyone in the channel can press it: someone without a role, or another sender, is refused.
    h.mark();
    await h.driver.blockAction({ userId: users.bob, message: stopped, actionId: 'campaign_send_rest' });
    await h.ephemeral(users.bob, /You need the \*sender\* role/);
    await h.store.permissions.grant(users.bob, 'sender', users.admin);
    h.mark();
    await h.driver.blockAction({ userId: users.bob, message: stopped, actionId: 'campaign_send_rest' });
    await h.ephemeral(users.bob, /Only the sender of campaign C-\d+/);
    await h.store.permissions.revoke(users.bob);
    expect((await h.store.campaigns.get(id))?.state).toBe('stopped');

    h.mark();
    await h.driver.blockAction({ userId: users.alice, message: stopped, actionId: 'campaign_send_rest' });
    await h.ephemeral(users.alice, /the chunks never sent go now/);
    await h.bot.campaigns.tick();
    expect((await h.store.campaigns.get(id))?.state).toBe('done');
    await cardShows(card, /8 of 8 sent, 0 not sent/);
    const counts = await receivedPerNumber();
    expect(NUMBERS.map((n) => counts.get(n))).toEqual(NUMBERS.map(() => 1));
    // Pressing it again on the finished campaign sends nothing.
    h.mark();
    await h.driver.blockAction({ userId: users.alice, message: stopped, actionId: 'campaign_send_rest' });
    await h.ephemeral(users.alice, /nothing to send again/);
    await h.bot.campaigns.tick();
    expect(await h.control.callCount('Submit')).toBe(4);
  });

  it('a chunk of unknown fate stops the campaign and is never resent, not even by Send the rest', async () => {
    const { card, id } = await startCampaign('Unknown midway');
    await h.bot.campaigns.tick({ maxChunks: 1 });
    // The gateway takes chunk 2 but its reply never comes within the timeout.
    await h.control.fault({ operation: 'Submit', kind: 'timeout', delayMs: 4_000, times: 1 });
    await h.bot.campaigns.tick();
    expect((await h.store.campaigns.get(id))?.state).toBe('stopped');
    const stopped = await cardShows(card, /Chunk 2 of 3 is of unknown fate/);
    expect(stopped.text).toMatch(/3 of 8 sent, 2 not sent, 3 unknown/);
    expect(blockText(stopped)).toMatch(/\/sms status S-\d+/);

    h.mark();
    await h.driver.blockAction({ userId: users.admin, message: stopped, actionId: 'campaign_send_rest' });
    await h.ephemeral(users.admin, /the chunks never sent go now/);
    await h.bot.campaigns.tick();
    expect(await h.control.callCount('Submit')).toBe(3);
    const counts = await receivedPerNumber();
    // The gateway did take chunk 2 (its reply was lost): every number once, none twice.
    expect(NUMBERS.map((n) => counts.get(n))).toEqual(NUMBERS.map(() => 1));
    await cardShows(card, /5 of 8 sent, 0 not sent, 3 unknown/);
  });

  it('Cancel cancels every chunk that can still be cancelled and stops the chunks not yet sent', async () => {
    const { card, id } = await startCampaign('Cancel me', users.alice);
    await h.bot.campaigns.tick({ maxChunks: 2 });
    const running = await cardShows(card, /6 of 8 sent/);
    h.mark();
    await h.driver.blockAction({ userId: users.bob, message: running, actionId: 'campaign_cancel' });
    await h.ephemeral(users.bob, /You need the \*sender\* role/);
    expect(await h.control.callCount('Cancel')).toBe(0);

    h.mark();
    await h.driver.blockAction({ userId: users.alice, message: running, actionId: 'campaign_cancel' });
    await h.ephemeral(
      users.alice,
      /Campaign C-\d+ cancelled: no further chunk is sent; 2 sent chunk\(s\) cancelled/,
    );
    expect(await h.control.callCount('Cancel')).toBe(2);
    expect(await h.bot.campaigns.tick()).toBe(0);
    expect(await h.control.callCount('Submit')).toBe(2);
    expect((await h.store.campaigns.get(id))?.state).toBe('cancelled');
    const rows = (await h.store.outbox.recent(10)).filter((r) => r.campaignId === id);
    expect(rows.map((r) => r.state)).toEqual(['cancelled', 'cancelled']);
    const cancelled = await cardShows(card, /Cancelled by/);
    // Chunk 3 never went: the card offers it (campaign-cancel.test.ts sends it).
    expect(blockText(cancelled)).toContain('campaign_send_rest');
  });
});
