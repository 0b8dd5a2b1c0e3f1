import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { BalanceLogEntry } from '../../src/gateway/index.js';
import type { EphemeralMessage } from '../../workspace/index.js';
import { ephemeralText, type Harness, startHarness, users } from '../support/slack-harness.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
  await h.store.permissions.grant(users.alice, 'viewer', users.admin);
});
afterAll(() => h.close());
beforeEach(async () => {
  await h.control.reset();
});

const DAY_MS = 86_400_000;
const money = {
  format: (n: number) =>
    `${new Intl.NumberFormat('tr-TR', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(n)} ₺`,
};
const count = new Intl.NumberFormat('en-US');

interface Shown {
  message: EphemeralMessage;
  /** The fallback text and every block, as a person (or a regex) reads them. */
  all: string;
}

/**
 * Runs `/sms <command>` and returns the ephemeral it produced. Waiting only for events after the command
 * keeps an earlier test's message from matching; the response_url log proves the fake's Block Kit
 * validation accepted the first and only answer (a refused one would show up as a 400 there).
 */
async function ask(command: string, userId: string = users.admin): Promise<Shown> {
  const after = h.fake.state.journal.seq;
  const ack = await h.sms(command, userId);
  expect(ack.status).toBe(200);
  const { message } = await h.fake.state.waitFor(
    'ephemeral',
    (e) => e.action !== 'deleted' && e.message.recipient === userId,
    { after },
  );
  const posts = h.fake.state.journal
    .values('response')
    .filter((p) => ack.responseUrl.endsWith(`/${p.responseUrlId}`))
    .map((p) => ({ status: p.status, error: p.error }));
  expect(posts).toEqual([{ status: 200, error: undefined }]);
  expect(message.blocks?.length ?? 0).toBeLessThanOrEqual(50);
  return { message, all: ephemeralText(message) };
}

function debitsAndCredits(entries: BalanceLogEntry[]) {
  let debits = 0;
  let credits = 0;
  for (const e of entries) {
    if (e.type === 'Debit') debits += e.amount;
    if (e.type === 'Credit') credits += e.amount;
  }
  return { debits, credits };
}

/** The calendar day of an instant in the report zone, computed independently of the code under test. */
function dayIn(date: Date, timeZone = 'Europe/Istanbul'): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone }).format(date);
}

async function submitTwo(): Promise<number> {
  const { messageId } = await h.deps.gateway.submit({
    from: 'SMSOPS',
    to: ['905321234567', '905331234567'],
    message: 'Your order is ready',
  });
  return messageId;
}

const STACK = /\bat \S+:\d+|\.ts\b|Error:|GatewayUnavailable|GatewayRejected/;

describe('/sms balance', () => {
  it('shows main, limit, usable credit and spend, consistent with the gateway after a send', async () => {
    await submitTwo();
    const now = Date.now();
    const week = (await h.deps.gateway.getBalanceLog({ begin: new Date(now - 7 * DAY_MS) })).filter(
      (e) => e.type === 'Debit',
    );
    const spentWeek = week.reduce((sum, e) => sum + e.amount, 0);
    const spentToday = week
      .filter((e) => e.timestamp && dayIn(e.timestamp) === dayIn(new Date()))
      .reduce((sum, e) => sum + e.amount, 0);
    expect(spentToday).toBeGreaterThanOrEqual(0.1);

    const { message, all } = await ask('balance');
    // 1250 seeded, minus 2 recipients × 1 segment × 0.05.
    expect(message.text).toContain('Usable credit 1.249,90 ₺ (main 1.249,90 ₺ + limit 0,00 ₺)');
    expect(message.text).toContain(
      `spent today (since 00:00 Europe/Istanbul) ${money.format(spentToday)} (net of refunds), last 7 days ${money.format(spentWeek)}`,
    );
    expect(all).toMatch(/\*Usable credit\*\\n\*1\.249,90 ₺\*/);
    expect(all).toMatch(/\*Main\*\\n1\.249,90 ₺/);
    expect(all).toMatch(/\*Limit\*\\n0,00 ₺/);
    expect(all).toContain('Simulated gateway');
    expect(JSON.stringify(message.blocks?.[0])).toContain('Simulated gateway');
  });

  it('is open to a viewer', async () => {
    const { all } = await ask('balance', users.alice);
    expect(all).toContain('Usable credit 1.250,00 ₺');
  });

  it('is refused to someone with no role, with the role message', async () => {
    const { message } = await ask('balance', users.bob);
    expect(message.text).toMatch(/You need the \*viewer\* role to look this up; you have no smsops role yet/);
    expect(message.text).toContain('/sms grant @you viewer');
    expect(await h.control.callCount('GetBalance')).toBe(0);
  });

  it('turns a failing gateway into one human sentence, no stack trace', async () => {
    await h.control.fault({ operation: 'GetBalance', kind: 'http500', times: 5 });
    const { message, all } = await ask('balance');
    expect(message.text).toMatch(/The SMS gateway .*try again in a minute/);
    expect(all).not.toMatch(STACK);
  });

  it('still shows the balance when only the balance log fails', async () => {
    await h.control.fault({ operation: 'GetBalanceLog', kind: 'http500', times: 5 });
    const { message, all } = await ask('balance');
    expect(message.text).toContain('Usable credit 1.250,00 ₺');
    expect(all).toContain('Spending is not available right now');
  });
});

describe('/sms log', () => {
  it('lists the last 7 days newest first, with signs, balances after and totals matching the gateway', async () => {
    const messageId = await submitTwo();
    const entries = await h.deps.gateway.getBalanceLog({ begin: new Date(Date.now() - 7 * DAY_MS) });
    const { debits, credits } = debitsAndCredits(entries);

    const { message, all } = await ask('log');
    expect(message.text).toContain(
      `Balance log, the last 7 days: ${count.format(entries.length)} entries, credits +${money.format(credits)}, debits −${money.format(debits)}`,
    );
    expect(all).toContain(`debits *−${money.format(debits)}*`);
    const mine = `:arrow_down: Debit *−0,10 ₺* → 1.249,90 ₺ · SMS batch ${messageId}: 2 recipients, 2 segments, sender SMSOPS`;
    expect(all).toContain(mine);
    // Newest first: the batch just sent comes before the seeded daily debits.
    expect(all.indexOf(mine)).toBeLessThan(all.indexOf('SMS sending:'));
    expect(all).toMatch(/`\d{4}-\d\d-\d\d \d\d:\d\d` :arrow_down: Debit/);
    expect(all).not.toContain('more older entries');
  });

  it('shows at most 40 entries of a long period and counts the rest', async () => {
    const entries = await h.deps.gateway.getBalanceLog({ begin: new Date(Date.now() - 90 * DAY_MS) });
    expect(entries.length).toBeGreaterThan(40);
    const { all } = await ask('log 90');
    expect(all).toContain(`…and ${entries.length - 40} more older entries`);
    expect(all.match(/:arrow_(up|down):/g)).toHaveLength(40);
    // The oldest entries are the ones left out.
    expect(all).not.toContain('Opening balance');
  });

  it.each(['0', 'abc', '91', '7.5', '-3'])(
    'refuses `log %s`, naming the range and an example',
    async (arg) => {
      const { message } = await ask(`log ${arg}`);
      expect(message.text).toContain(`:warning: “${arg}” is not a number of days`);
      expect(message.text).toContain('from 1 to 90');
      expect(message.text).toContain('`/sms log 30`');
      expect(await h.control.callCount('GetBalanceLog')).toBe(0);
    },
  );
});

describe('/sms senders', () => {
  it('lists the sender names with the default marked', async () => {
    const { message, all } = await ask('senders');
    expect(message.text).toBe('3 sender names: SMSOPS (default), ACME, INFO');
    expect(all).toContain('• *SMSOPS*  :star: default');
    expect(all).toContain('• ACME');
    expect(all).toContain('• INFO');
  });
});

describe('/sms stats', () => {
  it('tables the last 12 months with bars, and compares this month with the last', async () => {
    await submitTwo();
    const stats = await h.deps.gateway.queryStats();
    expect(stats).toHaveLength(12);
    const label = (m: { year: number; month: number }) =>
      new Date(Date.UTC(m.year, m.month - 1, 1)).toLocaleString('en-US', {
        month: 'long',
        year: 'numeric',
        timeZone: 'UTC',
      });
    const { message, all } = await ask('stats');
    const table =
      JSON.stringify(message.blocks)
        .match(/```([^`]*)```/)?.[1]
        ?.split('\\n') ?? [];
    // Header and one row per month, in order, each with its own figures.
    expect(table.filter((l) => l.trim() !== '')).toHaveLength(13);
    for (const m of stats) {
      const row = table.find((l) => l.startsWith(label(m)));
      expect(row, label(m)).toBeDefined();
      expect(row).toContain(count.format(m.count));
      expect(row).toContain(count.format(m.delivered));
    }
    expect(table.findIndex((l) => l.startsWith(label(stats[0]!)))).toBeLessThan(
      table.findIndex((l) => l.startsWith(label(stats[11]!))),
    );
    // The busiest month gets the full bar.
    expect(all).toContain('▇'.repeat(12));
    const current = stats[11]!;
    const previous = stats[10]!;
    expect(all).toContain(`*${label(current)}* so far: *${count.format(current.count)}* sent`);
    expect(all).toContain(`*${label(previous)}*: ${count.format(previous.count)} sent`);
    expect(all).toMatch(/Change in sent: \*[+−±][\d.]+%\*/);
    expect(message.text).toContain(`${label(current)} so far ${count.format(current.count)} sent`);
  });
});

describe('/sms surveys', () => {
  it('shows every survey with its figures and answer rate, and how to see one', async () => {
    const surveys = await h.deps.gateway.getSurveys();
    const { message, all } = await ask('surveys');
    expect(message.text).toBe('2 surveys: Loyalty programme opt-in (302), Customer satisfaction (301)');
    for (const s of surveys) {
      expect(all).toContain(`*${s.name}* · id \`${s.id}\``);
      expect(all).toContain(`*Subscribers*\\n${count.format(s.subscribers)}`);
      expect(all).toContain(`*Answered*\\n${count.format(s.answered)}`);
      expect(all).toContain(`*Answer rate*\\n${((s.answered / s.delivered) * 100).toFixed(1)}% of delivered`);
    }
    // Seeded: 12 + 18 + 41 + 87 + 64 answers to question 1 of 1,164 delivered.
    expect(all).toContain('*Answer rate*\\n19.1% of delivered');
    expect(all).toContain('/sms survey &lt;id&gt;');
  });
});

describe('/sms survey', () => {
  it('shows each question with counts, shares and bars, including a new inbound answer', async () => {
    await h.control.inbound({ MSISDN: '905321234567', Text: 'ANKET 5' });
    const { message, all } = await ask('survey 301');
    expect(message.text).toBe('Survey 301 (Customer satisfaction): answers to 2 questions');
    // Question 1: 12, 18, 41, 87, 64 + the new 5 → 223 answers.
    expect(all).toContain('*Question 1* · 223 answers');
    expect(all).toContain('`▇▇▇▇▇▇▇▇▇▇` *4* — 87 · 39.0%');
    expect(all).toContain('*5* — 65 · 29.1%');
    expect(all).toContain('`▇░░░░░░░░░` *1* — 12 · 5.4%');
    expect(all.indexOf('*1* — 12')).toBeLessThan(all.indexOf('*5* — 65'));
    expect(all).toContain('*Question 2* · 209 answers');
    expect(all).toContain('*EVET* — 151 · 72.2%');
    expect(all).toContain('*HAYIR* — 58 · 27.8%');
  });

  it.each(['x', '3.5', '-1', '0'])('refuses `survey %s` with an example', async (arg) => {
    const { message } = await ask(`survey ${arg}`);
    expect(message.text).toContain(`:warning: “${arg}” is not a survey id`);
    expect(message.text).toContain('`/sms survey 301`');
  });

  it('asks which survey when none is given', async () => {
    const { message } = await ask('survey');
    expect(message.text).toMatch(/Which survey\?.*\/sms survey 301/);
  });

  it('says there is no such survey for an unknown id', async () => {
    const { message, all } = await ask('survey 999');
    expect(message.text).toBe(
      ':warning: There is no survey 999. `/sms surveys` lists the surveys and their ids.',
    );
    expect(all).not.toMatch(STACK);
    expect(await h.control.callCount('GetSurveyAnswers')).toBe(1);
  });
});

describe('/sms inbox', () => {
  it('says so when nothing arrived', async () => {
    const { message } = await ask('inbox');
    expect(message.text).toBe('No inbound SMS in the last 7 days.');
  });

  it('shows an SMS with mentions literally, escaped, never as a ping', async () => {
    await h.control.inbound({
      MSISDN: '+90 532 123 45 67',
      Text: 'Hi <!channel> & <@U0BOB> *now*',
      Keyword: 'HI',
    });
    const { message, all } = await ask('inbox');
    expect(all).toContain('&lt;!channel&gt; &amp; &lt;@U0BOB&gt;');
    expect(all).not.toContain('<!channel>');
    expect(all).not.toContain('<@U0BOB>');
    expect(all).toContain('*+90 532 123 45 67* · to 4440123 · keyword *HI* · ');
    expect(message.text).toMatch(
      /^1 SMS in the last 7 days, newest first; latest from \+90 532 123 45 67 at \d{4}-/,
    );
  });

  it('shows the last n newest first and says how many there were', async () => {
    await h.control.inbound([
      { MSISDN: '905321111111', Text: 'first' },
      { MSISDN: '905322222222', Text: 'second' },
      { MSISDN: '905323333333', Text: 'third' },
    ]);
    const { all } = await ask('inbox 2');
    expect(all).toContain('The newest 2 SMS of 3 SMS in the last 7 days');
    expect(all).not.toContain('>first');
    expect(all.indexOf('>third')).toBeGreaterThan(-1);
    expect(all.indexOf('>third')).toBeLessThan(all.indexOf('>second'));
  });

  it('keeps 50 long SMS within Slack limits, summarising what does not fit', async () => {
    const long = 'A&<b>'.repeat(200);
    await h.control.inbound(
      Array.from({ length: 60 }, (_, i) => ({ MSISDN: `9053210000${10 + i}`, Text: long })),
    );
    const { message, all } = await ask('inbox 50');
    expect(message.text).toMatch(/^The newest 50 SMS of 60 SMS/);
    expect(all).toMatch(/…and \d+ more SMS/);
    expect(all).not.toContain('<b>');
  });

  it.each(['500', '0', 'abc', '51'])('refuses `inbox %s`, naming the range and an example', async (arg) => {
    const { message } = await ask(`inbox ${arg}`);
    expect(message.text).toContain(`“${arg}” is not a number of SMS`);
    expect(message.text).toContain('from 1 to 50');
    expect(message.text).toContain('`/sms inbox 20`');
    expect(await h.control.callCount('Receive')).toBe(0);
  });
});
