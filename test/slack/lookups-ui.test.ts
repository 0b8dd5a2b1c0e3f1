import { describe, expect, it } from 'vitest';
import { spendOf } from '../../src/digests/spend.js';
import type {
  BalanceLogEntry,
  InboundMessage,
  MonthlyStats,
  Survey,
  SurveyAnswer,
} from '../../src/gateway/index.js';
import { parseCount, parseSurveyId } from '../../src/slack/commands/lookups.js';
import { UserInputError } from '../../src/slack/errors.js';
import { newestInbound } from '../../src/slack/lookup-windows.js';
import { balanceLogMessage, balanceMessage } from '../../src/slack/ui/lookup-balance.js';
import {
  fitUnits,
  type LookupMessage,
  type LookupView,
  listBlocks,
  textBar,
} from '../../src/slack/ui/lookup-common.js';
import { inboxMessage } from '../../src/slack/ui/lookup-inbox.js';
import { sendersMessage } from '../../src/slack/ui/lookup-senders.js';
import { statsMessage } from '../../src/slack/ui/lookup-stats.js';
import { surveyAnswersMessage, surveysMessage } from '../../src/slack/ui/lookup-surveys.js';
import { checkBlocks } from '../../workspace/index.js';

/** 2025-03-10 00:30 in Istanbul (UTC+3): just after midnight, so "today" is 30 minutes old. */
const NOW = new Date('2025-03-09T21:30:00Z');
const view: LookupView = { now: NOW, timeZone: 'Europe/Istanbul', simulated: true };
const HOSTILE = '<!channel> <@U0BOB> <https://evil.example|click> & 😀';

/** What Slack would refuse (the fake's own validator), and any text that could ping or link. */
function expectSafe(message: LookupMessage): string {
  expect(checkBlocks(message.blocks, 'message', '/blocks')).toEqual([]);
  expect(message.blocks.length).toBeLessThanOrEqual(50);
  expect(message.text.length).toBeGreaterThan(0);
  expect(message.text.length).toBeLessThan(4000);
  const all = `${message.text}\n${JSON.stringify(message.blocks)}`;
  expect(all).not.toMatch(/<!channel>|<@U0BOB>|<https:/);
  return all;
}

function logEntry(
  id: number,
  minutesAgo: number,
  type: string,
  amount: number,
  explanation = 'x',
): BalanceLogEntry {
  return {
    id,
    timestamp: new Date(NOW.getTime() - minutesAgo * 60_000),
    type,
    amount,
    balanceAfter: 1000,
    explanation,
  };
}

describe('argument parsing', () => {
  const rule = { command: 'log', what: 'number of days', min: 1, max: 90, fallback: 7, example: 30 };

  it('takes the default, whole numbers in range, and nothing else', () => {
    expect(parseCount(undefined, rule)).toBe(7);
    expect(parseCount(' ', rule)).toBe(7);
    expect(parseCount('1', rule)).toBe(1);
    expect(parseCount('90', rule)).toBe(90);
    for (const bad of ['0', '91', '-1', '1.5', '1e2', '0x10', 'seven', '99999999999999999999']) {
      expect(() => parseCount(bad, rule), bad).toThrow(UserInputError);
    }
  });

  it('echoes what was typed without letting it ping', () => {
    expect(() => parseCount('<!channel>', rule)).toThrow('“&lt;!channel&gt;” is not a number of days');
    expect(() => parseSurveyId('<@U0BOB>')).toThrow('“&lt;@U0BOB&gt;” is not a survey id');
  });

  it('reads survey ids as positive whole numbers', () => {
    expect(parseSurveyId('301')).toBe(301);
    expect(() => parseSurveyId(undefined)).toThrow(/Which survey\?/);
    for (const bad of ['0', 'x', '3.5', '-1', '9007199254740993']) {
      expect(() => parseSurveyId(bad), bad).toThrow(UserInputError);
    }
  });
});

describe('building blocks', () => {
  it('draws bars with at least one cell for anything above zero', () => {
    expect(textBar(0, 10)).toBe('');
    expect(textBar(1, 1000, 10)).toBe('▇');
    expect(textBar(1000, 1000, 10)).toBe('▇'.repeat(10));
    expect(textBar(5, 0)).toBe('');
  });

  it('cuts by UTF-16 units, as Slack counts', () => {
    const cut = fitUnits('😀'.repeat(2000), 3000);
    expect(cut.length).toBeLessThanOrEqual(3000);
    expect(cut.endsWith('😀…')).toBe(true);
  });

  it('packs whole entries and counts what is left out', () => {
    const blocks = listBlocks(
      Array.from({ length: 100 }, () => 'y'.repeat(1400)),
      { maxItems: 100, maxBlocks: 5, moreLabel: 'lines' },
    );
    // The trailer counts within the budget: four sections of two entries, then the trailer.
    expect(blocks).toHaveLength(5);
    expect(JSON.stringify(blocks.at(-1))).toContain('…and 92 more lines');
  });
});

describe('balance and log', () => {
  it('counts debits of today (in the report zone) and of the last 7 days, never credits', () => {
    const spend = spendOf(
      [
        logEntry(1, 30, 'Debit', 1), // 00:00 Istanbul: today
        logEntry(2, 31, 'Debit', 2), // 23:59 yesterday
        logEntry(3, 10, 'Credit', 100),
        logEntry(4, 8 * 24 * 60, 'Debit', 50), // before the window
        logEntry(5, 5, 'debit', 4), // spelling varies
      ],
      view.now,
      view.timeZone,
    );
    expect(spend).toEqual({ today: 5, day7: 7, day30: 57, refundedToday: 0 });
  });

  it('takes refunds of cancelled messages off spend, never top-ups, and never goes below zero', () => {
    const spend = spendOf(
      [
        logEntry(1, 20, 'Debit', 150.25),
        logEntry(2, 10, 'Credit', 100.2, 'Refund for cancelled messages of batch 100042 (3000 recipients)'),
        logEntry(3, 9, 'Credit', 50.05, 'İPTAL İADESİ 100043'), // Turkish, upper case
        logEntry(4, 8, 'Credit', 500, 'Top-up by bank transfer'),
        logEntry(5, 3 * 24 * 60, 'Debit', 20),
        logEntry(6, 3 * 24 * 60 - 1, 'Credit', 30, 'Refund: cancelled'), // a refund larger than that day's debits
      ],
      view.now,
      view.timeZone,
    );
    expect(spend).toEqual({ today: 0, day7: 0, day30: 0, refundedToday: 150.25 });
    const later = spendOf(
      [logEntry(1, 20, 'Debit', 150.25), logEntry(2, 10, 'Credit', 0.25, 'iade')],
      view.now,
      view.timeZone,
    );
    expect(later.today).toBe(150);
    const message = balanceMessage({ main: 1000, limit: 0, usable: 1000 }, later, view);
    expect(JSON.stringify(message.blocks)).toContain('net of refunds *150,00 ₺* (0,25 ₺ refunded)');
    expect(message.text).toContain('150,00 ₺ (net of refunds)');
  });

  it('shows the balance without spend when the log is unavailable, and no notice unless simulated', () => {
    const message = balanceMessage({ main: 1234.5, limit: 100, usable: 1334.5 }, undefined, {
      ...view,
      simulated: false,
    });
    const all = expectSafe(message);
    expect(message.text).toBe('Usable credit 1.334,50 ₺ (main 1.234,50 ₺ + limit 100,00 ₺)');
    expect(all).toContain('Spending is not available right now');
    expect(all).not.toContain('Simulated gateway');
  });

  it('keeps a long, hostile log within limits: newest 40 shown, totals over all', () => {
    const entries = Array.from({ length: 500 }, (_, i) =>
      logEntry(i + 1, 500 - i, i % 10 === 0 ? 'Credit' : 'Debit', 1.25, `${HOSTILE} ${'long '.repeat(800)}`),
    );
    const message = balanceLogMessage(entries, 90, view);
    const all = expectSafe(message);
    expect(JSON.stringify(message.blocks[0])).toContain('Simulated gateway');
    expect(all).toContain('&lt;!channel&gt; &lt;@U0BOB&gt;');
    expect(all).toContain('…and 460 more older entries');
    expect(message.text).toBe(
      'Balance log, the last 90 days: 500 entries, credits +62,50 ₺, debits −562,50 ₺',
    );
    // Newest first: id 500 is the most recent.
    expect(all.match(/`(\d{4}-\d\d-\d\d \d\d:\d\d)`/)?.[1]).toBe('2025-03-10 00:29');
  });

  it('shows an unknown entry type as it is, outside both totals', () => {
    const message = balanceLogMessage(
      [logEntry(1, 5, 'Adjustment', 9), logEntry(2, 6, 'Credit', 1)],
      7,
      view,
    );
    const all = expectSafe(message);
    expect(all).toContain(':grey_question: Adjustment *9,00 ₺*');
    expect(message.text).toContain('2 entries, credits +1,00 ₺, debits −0,00 ₺');
  });

  it('says so when the period is empty', () => {
    const message = balanceLogMessage([], 3, view);
    expectSafe(message);
    expect(message.text).toBe('No balance log entries in the last 3 days.');
  });
});

describe('senders', () => {
  it('summarises hundreds of long names and marks the default first', () => {
    const senders = Array.from({ length: 300 }, (_, i) => ({
      name: `sender ${String(i).padStart(3, '0')} ${HOSTILE} ${'n'.repeat(100)}`,
      isDefault: i === 250,
    }));
    const message = sendersMessage(senders, view);
    const all = expectSafe(message);
    expect(all).toMatch(/…and \d+ more sender names/);
    expect(all.indexOf('sender 250')).toBeLessThan(all.indexOf('sender 000'));
    expect(message.text).toMatch(/^300 sender names: .*sender 250.* \(default\), /);
  });

  it('says when there is no default or no sender at all', () => {
    expect(expectSafe(sendersMessage([{ name: 'A', isDefault: false }], view))).toContain(
      'No sender is marked default',
    );
    expect(sendersMessage([], view).text).toBe('The account has no sender names.');
  });
});

describe('stats', () => {
  const month = (year: number, m: number, count: number, delivered = count): MonthlyStats => ({
    year,
    month: m,
    count,
    delivered,
    undelivered: count - delivered,
  });

  it('shows only the last 12 months, oldest first, with a dash for a month without final messages', () => {
    const stats = Array.from({ length: 24 }, (_, i) =>
      month(2023 + Math.floor((i + 3) / 12), ((i + 3) % 12) + 1, i * 10),
    );
    const message = statsMessage(stats.reverse(), view);
    expectSafe(message);
    const table = JSON.stringify(message.blocks);
    expect(table).not.toContain('March 2024 ');
    expect(table).toContain('April 2024');
    expect(table.indexOf('April 2024')).toBeLessThan(table.indexOf('March 2025'));
    expect(message.text).toBe('SMS statistics: March 2025 so far 230 sent (+4.5% vs February 2025)');
  });

  it('leaves out the comparison when the month before is missing, and "so far" for a past month', () => {
    const message = statsMessage([month(2024, 6, 0), month(2024, 8, 100, 95)], view);
    const all = expectSafe(message);
    expect(all).toContain('*August 2024*: *100* sent, delivery rate 95.0%. No figures for the month before.');
    expect(all).toMatch(/June 2024 +0 +0 +0 +—\\n/);
  });

  it('says so when there are no statistics', () => {
    expect(statsMessage([], view).text).toBe('No sending statistics yet.');
  });
});

describe('surveys', () => {
  const survey = (id: number, delivered = 100, answered = 25): Survey => ({
    id,
    name: `${HOSTILE} survey ${id}`,
    totalQuestions: 2,
    subscribers: 1000,
    delivered,
    answered,
    messageId: 1,
  });

  it('lists at most 40 surveys, newest id first, escaped', () => {
    const message = surveysMessage(
      Array.from({ length: 100 }, (_, i) => survey(i + 1)),
      view,
    );
    const all = expectSafe(message);
    expect(all).toContain('…and 60 older surveys');
    expect(all).toContain('`/sms survey 100`');
    expect(all).toContain('*Answer rate*\\n25.0% of delivered');
  });

  it('shows a dash for the answer rate of a survey not yet delivered', () => {
    expect(expectSafe(surveysMessage([survey(1, 0, 0)], view))).toContain('*Answer rate*\\n— of delivered');
  });

  it('keeps a survey with many questions and free-text answers within limits', () => {
    const answers: SurveyAnswer[] = [];
    for (let q = 1; q <= 60; q++) {
      for (let a = 0; a < 200; a++) {
        answers.push({
          surveyId: 7,
          questionNo: q,
          answer: `${HOSTILE} ${'w'.repeat(300)} ${a}`,
          count: a + 1,
        });
      }
    }
    const message = surveyAnswersMessage(7, survey(7), answers, view);
    const all = expectSafe(message);
    expect(all).toContain('…and 185 other answers (');
    expect(all).toMatch(/…and \d+ more questions/);
    expect(message.text).toContain('answers to 60 questions');
  });

  it('handles a survey the list does not know, and one without answers', () => {
    const unknown = surveyAnswersMessage(
      9,
      undefined,
      [{ surveyId: 9, questionNo: 1, answer: 'EVET', count: 0 }],
      view,
    );
    expect(expectSafe(unknown)).toContain('`░░░░░░░░░░` *EVET* — 0 · —');
    expect(unknown.text).toBe('Survey 9 (name unknown): answers to 1 question');
    expect(surveyAnswersMessage(9, survey(9), [], view).text).toMatch(/no answers yet/);
  });
});

describe('inbox', () => {
  const sms = (id: number, minutesAgo: number, text: string): InboundMessage => ({
    id,
    received: new Date(NOW.getTime() - minutesAgo * 60_000),
    network: 1,
    msisdn: '905321234567',
    recipient: '4440123',
    keyword: '',
    text,
    price: 0,
    xser: '',
  });

  it('orders newest first, ties by id', () => {
    const order = newestInbound([sms(1, 5, 'a'), sms(3, 1, 'c'), sms(2, 1, 'b'), sms(4, 9, 'd')], 3).map(
      (m) => m.id,
    );
    expect(order).toEqual([3, 2, 1]);
  });

  it('keeps 50 emoji-heavy, hostile SMS within limits', () => {
    const messages = Array.from({ length: 50 }, (_, i) => sms(i, i, `${HOSTILE}\n${'😀&'.repeat(1000)}`));
    const message = inboxMessage(messages, 80, view);
    const all = expectSafe(message);
    expect(all).toContain('The newest 50 SMS of 80 SMS in the last 7 days');
    expect(all).toContain('&gt;');
  });

  it('shows an empty text as such, and nothing as "No inbound SMS"', () => {
    expect(expectSafe(inboxMessage([sms(1, 1, '  ')], 1, view))).toContain('>_(empty)_');
    expect(inboxMessage([], 0, view).text).toBe('No inbound SMS in the last 7 days.');
  });
});
