import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OutboxRow } from '../../src/store/index.js';
import {
  channels,
  ephemeralText,
  type Harness,
  sendThroughCompose,
  startHarness,
  users,
} from '../support/slack-harness.js';

// The person who asks to be forgotten, and two others who stay.
const AYSE = '905321234567';
const BORA = '905331234567';
const CEM = '905341234567';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
  await h.store.permissions.grant(users.alice, 'sender', users.admin);
});
afterAll(() => h.close());

/** `/sms <text>` as `user`, and the text of the ephemeral answer to exactly this command. */
async function run(text: string, user: string = users.admin): Promise<string> {
  h.mark();
  const ack = await h.sms(text, user);
  expect(ack.status).toBe(200);
  const answer = ephemeralText(await h.ephemeral(user, /./));
  expect(answer).not.toContain(':boom:');
  return answer;
}

describe('/sms forget <number>', () => {
  let alone: OutboxRow;
  let together: OutboxRow;
  let others: OutboxRow;

  beforeAll(async () => {
    alone = await sendThroughCompose(h, '0532 123 45 67', 'Ayşe, your test result is ready');
    together = await sendThroughCompose(h, '0532 123 45 67\n0533 123 45 67', 'The shop opens at 10 tomorrow');
    others = await sendThroughCompose(h, '0533 123 45 67\n0534 123 45 67', 'Hello Bora and Cem');
    expect(await run('lists add family 0532 123 45 67 0533 123 45 67')).toMatch(/family/);
    expect(await run('lists add ayse-only 0532 123 45 67')).toMatch(/ayse-only/);
    expect(await run('optout add 0532 123 45 67')).toMatch(/opted out/);
    // The inbound relay keeps one thread per number and channel it posted in.
    await h.store.inbound.saveThread(channels.smsOps, AYSE, '1700000000.000100', new Date());
    await h.store.inbound.saveThread(channels.general, AYSE, '1700000000.000200', new Date());
    await h.store.inbound.saveThread(channels.smsOps, BORA, '1700000000.000300', new Date());
  });

  it('is listed in /sms help, for admins', async () => {
    expect(await run('help', users.alice)).toContain('/sms forget <number>');
  });

  it('is refused to a non-admin, and nothing changes', async () => {
    const audited = (await h.store.audit.recent(1000)).length;
    expect(await run('forget 0532 123 45 67', users.alice)).toMatch(/You need the \*admin\* role/);
    expect((await h.store.outbox.get(alone.id))?.recipients).toEqual([AYSE]);
    expect((await h.store.recipientLists.get('family'))?.members).toEqual([AYSE, BORA]);
    expect(await h.store.audit.recent(1000)).toHaveLength(audited);
  });

  it('answers a typo with what is wrong, and changes nothing', async () => {
    const audited = (await h.store.audit.recent(1000)).length;
    expect(await run('forget 0532 123 45')).toMatch(
      /“0532 123 45” is not a number smsops can send to: too short/,
    );
    expect(await run('forget')).toMatch(/Which number\? Usage: `\/sms forget <number>`/);
    expect(await h.store.audit.recent(1000)).toHaveLength(audited);
  });

  it('erases the number from sends, threads and saved lists, keeps its opt-out, says what it did and audits it', async () => {
    const answer = await run('forget +90 532 123 45 67');
    expect(answer).toContain('smsops has forgotten *+90 532 123 45 67*');
    expect(answer).toContain(
      'Sends: taken out of 2 sends, with the text of 1 send to this number alone. Recipient counts stay',
    );
    expect(answer).toContain('Inbound conversation threads: 2.');
    expect(answer).toContain('Saved lists: taken out of *ayse-only*, *family*.');
    expect(answer).toContain('*+90 532 123 45 67* stays opted out');

    // Sends: the number is gone, the counts and ids stay; a text to many stays, a text to Ayşe alone goes.
    expect(await h.store.outbox.get(alone.id)).toMatchObject({
      recipients: [],
      recipientCount: 1,
      text: '',
      messageId: alone.messageId,
    });
    expect(await h.store.outbox.get(together.id)).toMatchObject({
      recipients: [BORA],
      recipientCount: 2,
      text: 'The shop opens at 10 tomorrow',
    });
    expect(await h.store.outbox.get(others.id)).toMatchObject({ recipients: [BORA, CEM], redactedAt: null });
    // Inbound: her threads are gone, Bora's stays.
    expect(await h.store.inbound.findThread(channels.smsOps, AYSE, new Date(0))).toBeUndefined();
    expect(await h.store.inbound.findThread(channels.general, AYSE, new Date(0))).toBeUndefined();
    expect(await h.store.inbound.findThread(channels.smsOps, BORA, new Date(0))).toBe('1700000000.000300');
    // Lists: she is out of both; the other member stays.
    expect((await h.store.recipientLists.get('family'))?.members).toEqual([BORA]);
    expect((await h.store.recipientLists.get('ayse-only'))?.members).toEqual([]);
    // The opt-out stays: forgetting someone never starts texting them again.
    expect(await h.store.optOuts.has(AYSE)).toBe(true);

    const [entry] = await h.store.audit.recent(1);
    expect(entry).toMatchObject({
      actor: users.admin,
      action: 'forget',
      target: '+90 ••• ••• •• 67',
      details: { sends: 2, texts: 1, threads: 2, drafts: 0, lists: 2, optedOut: true },
    });
    expect(JSON.stringify(entry)).not.toContain(AYSE);

    // The send's card, asked for again, says its text is no longer kept.
    expect(await run(`status ${alone.messageId}`)).toMatch(/The text is no longer kept/);

    // Asked again: nothing is left, and it says so.
    expect(await run('forget 0532 123 45 67')).toMatch(
      /smsops held nothing about \*\+90 532 123 45 67\*: no send, conversation thread, saved list or draft has it/,
    );
  });
});
