import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  channels,
  ephemeralText,
  type Harness,
  openAppHome,
  startHarness,
  users,
} from '../support/slack-harness.js';

/**
 * "Spent today" after a cancelled send: the simulator debits the send and credits back what it cancelled, as the
 * gateway does. /sms balance, App Home, the balance digest and the credit forecast must all read the net.
 */

let h: Harness;

beforeAll(async () => {
  h = await startHarness({ sending: { confirmRecipients: 100 } });
});
afterAll(() => h.close());

const TWENTY = Array.from({ length: 20 }, (_, i) => `90532${2_000_000 + i}`);
// Three GSM-7 segments to each of 20 numbers: a debit the 7-day rate shows at two decimals.
const LONG_TEXT = 'Randevunuz yarin saat 10:00 icin onaylandi. '.repeat(8).trim();

/** What a person reads: the figures of `/sms balance`. */
async function balanceFigures(): Promise<{ today: string; week: string; text: string }> {
  await h.sms('balance');
  const text = ephemeralText(await h.ephemeral(users.admin, /Usable credit/));
  return {
    today: figure(text, /Spent today \(since [^)]*\)[^*]*\*([^*]+)\*/),
    week: figure(text, /last 7 days \*([^*]+)\*/),
    text,
  };
}

function figure(text: string, pattern: RegExp): string {
  const m = pattern.exec(text);
  expect(m, `${pattern} in ${text}`).not.toBeNull();
  return m![1]!.trim();
}

const rateOf = (text: string) => figure(text, /At the 7-day rate \(([^)]+) a day\)/);

async function homeText(): Promise<string> {
  return (await openAppHome(h, users.admin)).text;
}

async function sendAndCancel(): Promise<void> {
  const start = h.fake.state.journal.seq;
  await h.sms('send');
  const opened = await h.fake.state.waitForCall(
    'views.update',
    (c) => (c.args.view as { callback_id?: string }).callback_id === 'compose',
    { after: start },
  );
  const view = h.fake.state.views.get(String(opened.args.view_id))!;
  await h.submitCompose(view, { recipients: TWENTY.join('\n'), text: LONG_TEXT });
  let row: Awaited<ReturnType<typeof h.store.outbox.recent>>[number] | undefined;
  while (!row) {
    const seq = h.fake.state.journal.seq;
    row = (await h.store.outbox.recent(20)).find((r) => r.text === LONG_TEXT && r.messageTs !== null);
    if (!row) await h.fake.state.waitFor('call', () => true, { after: seq, timeoutMs: 5_000 });
  }
  const sent = await balanceFigures();
  expect(sent.today).not.toBe(before.today);
  expect(sent.week).not.toBe(before.week);
  expect(rateOf(await homeText())).not.toBe(rateOf(homeBefore));

  await h.sms(`cancel ${row.messageId}`);
  const question = await h.ephemeral(users.admin, /Cancel batch/);
  h.mark();
  await h.driver.blockAction({ userId: users.admin, message: question, actionId: 'cancel_confirm' });
  await h.ephemeral(users.admin, new RegExp(`Batch ${row.messageId} cancelled`));
}

let before: { today: string; week: string };
let homeBefore: string;

describe('spend is net of the refunds of cancelled messages', () => {
  it('/sms balance, App Home, the balance digest and the forecast read the same day’s refund off', async () => {
    before = await balanceFigures();
    homeBefore = await homeText();
    await sendAndCancel();

    const after = await balanceFigures();
    expect(after.today).toBe(before.today);
    expect(after.week).toBe(before.week);
    // Said where it is shown: net, what was refunded, and the definition.
    expect(after.text).toMatch(/Spent today \(since 00:00 Europe\/Istanbul\), net of refunds \*/);
    expect(after.text).toMatch(/refunded\)/);
    expect(after.text).toContain('less what it credited back for cancelled messages');

    const home = await homeText();
    const homeToday = (text: string) => figure(text, /Spent today \(since [^)]*\)[^*]*\*\\n([^"(]+)/);
    expect(homeToday(home)).toBe(homeToday(homeBefore));
    expect(homeToday(home)).toBe(before.today);
    expect(rateOf(home)).toBe(rateOf(homeBefore));
    expect(home).toContain('net of refunds');

    h.mark();
    await h.sms('digest balance', users.admin, channels.smsOps);
    const digest = ephemeralText(await h.ephemeral(users.admin, /Balance digest/));
    expect(figure(digest, /Spent today \(since [^)]*\)[^*]*\*([^*]+)\*/)).toBe(before.today);
    expect(rateOf(digest)).toBe(rateOf(homeBefore));
    expect(digest).toContain('less what it credited back for cancelled messages');
  });
});
