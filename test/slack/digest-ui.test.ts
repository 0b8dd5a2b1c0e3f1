import { describe, expect, it } from 'vitest';
import { buildBalanceDigest } from '../../src/digests/balance.js';
import { runwayOf, spendOf } from '../../src/digests/spend.js';
import { statsDigestOf } from '../../src/digests/stats.js';
import type { DigestFraming, SurveysDigest } from '../../src/digests/types.js';
import type { BalanceLogEntry, Survey, SurveyAnswer } from '../../src/gateway/index.js';
import { monthlyChartPng, monthlyChartSvg } from '../../src/slack/charts/monthly-chart.js';
import { lowBalanceAlertMessage } from '../../src/slack/ui/digest-alert.js';
import { balanceDigestMessage } from '../../src/slack/ui/digest-balance.js';
import { statsDigestMessage } from '../../src/slack/ui/digest-stats.js';
import { subscriptionsMessage } from '../../src/slack/ui/digest-subscriptions.js';
import { surveysDigestMessage } from '../../src/slack/ui/digest-surveys.js';
import type { Subscription } from '../../src/store/index.js';
import { checkBlocks } from '../../workspace/index.js';
import { FakeGateway, twelveMonths } from '../jobs/digest-fakes.js';

const DAY = 86_400_000;
const NOW = new Date('2026-11-20T06:00:00Z');
const framing: DigestFraming = {
  timeZone: 'Europe/Istanbul',
  simulated: true,
  schedule: 'daily at 09:00',
  nextRun: new Date(NOW.getTime() + DAY),
};

/** All a person reads in a message: fallback text and every block. */
const all = (m: { text: string; blocks: unknown[] }) => `${m.text}\n${JSON.stringify(m.blocks)}`;

function valid(m: { text: string; blocks: unknown[] }) {
  expect(checkBlocks(m.blocks, 'message', '/blocks')).toEqual([]);
  expect(m.blocks.length).toBeLessThanOrEqual(50);
  expect(m.text.length).toBeGreaterThan(0);
}

function entry(
  i: number,
  type: 'Debit' | 'Credit',
  amount: number,
  at: number,
  explanation = `SMS batch ${i}`,
): BalanceLogEntry {
  return { id: i, timestamp: new Date(at), type, amount, balanceAfter: 1000, explanation };
}

describe('balance digest', () => {
  it('gives main, limit, usable, change, 1/7/30-day spend, runway and the largest entries of the period', async () => {
    const gateway = new FakeGateway();
    gateway.setUsable(900, 100);
    gateway.log = [
      entry(1, 'Debit', 10, NOW.getTime() - 2 * 3_600_000),
      entry(2, 'Debit', 30, NOW.getTime() - 20 * 3_600_000, 'Big <campaign> & more'),
      entry(3, 'Credit', 500, NOW.getTime() - 10 * 3_600_000, 'Top-up by bank transfer'),
      entry(4, 'Debit', 40, NOW.getTime() - 3 * DAY),
      entry(5, 'Debit', 100, NOW.getTime() - 20 * DAY),
      entry(6, 'Debit', 999, NOW.getTime() - 40 * DAY),
    ];
    const d = await buildBalanceDigest(gateway, {
      now: NOW,
      timeZone: framing.timeZone,
      period: { from: new Date(NOW.getTime() - DAY), to: NOW },
      previous: { slot: 'x', at: new Date(NOW.getTime() - DAY).toISOString(), usable: 1200 },
    });
    // "Today" is the report zone's calendar day: the debit of 20 hours ago was yesterday there.
    expect(d.spend).toEqual({ today: 10, day7: 80, day30: 180, refundedToday: 0 });
    expect(d.runway).toEqual({ perDay: 80 / 7, days: 1000 / (80 / 7) });
    expect(d.change).toMatchObject({ amount: -200, basis: 'previous-digest' });
    expect(d.largestDebits.map((e) => e.id)).toEqual([2, 1]);
    expect(d.largestCredits.map((e) => e.id)).toEqual([3]);
    const m = balanceDigestMessage(d, framing);
    valid(m);
    const text = all(m);
    for (const shown of [
      '1.000,00 ₺',
      '900,00 ₺',
      '100,00 ₺',
      '−200,00 ₺',
      'Spent today (since 00:00 Europe/Istanbul), net of refunds *10,00 ₺*',
      '80,00 ₺',
      '180,00 ₺',
      'about 88 days',
      '+500,00 ₺',
      '−30,00 ₺',
    ])
      expect(text).toContain(shown);
    expect(text).toContain('Big &lt;campaign&gt; &amp; more');
    expect(text).toContain('Simulated gateway');
    expect(text).toContain('/sms unsubscribe digest balance');
  });

  it('still posts the balance when the log cannot be read', async () => {
    const gateway = new FakeGateway();
    gateway.failing.add('getBalanceLog');
    const d = await buildBalanceDigest(gateway, {
      now: NOW,
      timeZone: framing.timeZone,
      period: { from: new Date(NOW.getTime() - DAY), to: NOW },
    });
    expect(d.spend).toBeUndefined();
    const m = balanceDigestMessage(d, framing);
    valid(m);
    expect(all(m)).toMatch(/balance log could not be read/);
  });

  it('forecasts from the 7-day rate: no spend, used up, and the numbers', () => {
    const spend = (today: number, week: number) => ({ today, day7: week, day30: week, refundedToday: 0 });
    expect(runwayOf(100, spend(0, 0))).toEqual({ perDay: 0, days: undefined });
    expect(runwayOf(0, spend(1, 7))).toEqual({ perDay: 1, days: 0 });
    expect(runwayOf(70, spend(1, 70))).toEqual({ perDay: 10, days: 7 });
    expect(spendOf([entry(1, 'Credit', 5, NOW.getTime() - 1000)], NOW, 'UTC')).toEqual({
      today: 0,
      day7: 0,
      day30: 0,
      refundedToday: 0,
    });
  });

  it('stays within Slack limits with very long explanations', async () => {
    const gateway = new FakeGateway();
    gateway.log = Array.from({ length: 5000 }, (_, i) =>
      entry(
        i,
        i % 7 === 0 ? 'Credit' : 'Debit',
        i + 0.5,
        NOW.getTime() - (i % 24) * 3_600_000,
        '€'.repeat(5000),
      ),
    );
    const d = await buildBalanceDigest(gateway, {
      now: NOW,
      timeZone: framing.timeZone,
      period: { from: new Date(NOW.getTime() - DAY), to: NOW },
    });
    valid(balanceDigestMessage(d, framing));
  });
});

describe('stats digest', () => {
  it('compares the current month with the previous one and charts 12 months', () => {
    const d = statsDigestOf(twelveMonths(2026, 11), NOW, 'Europe/Istanbul');
    expect(d.current).toMatchObject({ year: 2026, month: 11, count: 2100 });
    expect(d.previous).toMatchObject({ year: 2026, month: 10, count: 2000 });
    expect(d.currentIsRunning).toBe(true);
    const m = statsDigestMessage(d, framing);
    valid(m);
    const text = all(m);
    expect(text).toContain('November 2026');
    expect(text).toContain('October 2026');
    expect(text).toContain('+5.0%');
    expect(text).toMatch(/Delivery rate \*94\.7%\*/);
    // The chart: 12 lines in a code block, each short enough for a phone.
    const chart = /```\\n([^`]*)\\n```/.exec(JSON.stringify(m.blocks))![1]!.split('\\n');
    expect(chart).toHaveLength(12);
    expect(chart[0]).toMatch(/^Dec 25 ▇+ +1,000$/);
    expect(chart[11]).toMatch(/^Nov 26 ▇{12} 2,100$/);
    for (const line of chart) expect(line.length).toBeLessThanOrEqual(32);
  });

  it('handles no statistics and huge numbers', () => {
    valid(statsDigestMessage(statsDigestOf([], NOW, 'UTC'), framing));
    const huge = twelveMonths(2026, 11).map((m) => ({
      ...m,
      count: m.count * 1e9,
      delivered: m.delivered * 1e9,
    }));
    valid(statsDigestMessage(statsDigestOf(huge, NOW, 'UTC'), framing));
  });

  it('renders the 12-month PNG chart without any system font', async () => {
    const months = twelveMonths(2026, 11);
    const svg = monthlyChartSvg(months);
    expect(svg).not.toContain('<text');
    const png = await monthlyChartPng(months);
    expect(Buffer.from(png.subarray(0, 8)).toString('hex')).toBe('89504e470d0a1a0a');
    // IHDR: width and height, big-endian, at bytes 16 and 20.
    const view = new DataView(png.buffer, png.byteOffset);
    expect([view.getUint32(16), view.getUint32(20)]).toEqual([1920, 960]);
    expect(png.length).toBeGreaterThan(10_000);
  });
});

describe('surveys digest', () => {
  const survey = (id: number, name = `Survey ${id}`): Survey => ({
    id,
    name,
    totalQuestions: 3,
    subscribers: 1000,
    delivered: 900,
    answered: 450,
    messageId: id,
  });

  it('shows counts, answer rate and each question as bars', () => {
    const answers: SurveyAnswer[] = [
      ...[1, 2, 3, 4, 5].map((n) => ({ surveyId: 301, questionNo: 1, answer: String(n), count: n * 10 })),
      { surveyId: 301, questionNo: 2, answer: 'EVET', count: 30 },
      { surveyId: 301, questionNo: 2, answer: 'HAYIR', count: 10 },
    ];
    const d: SurveysDigest = {
      kind: 'surveys',
      at: NOW,
      since: new Date(NOW.getTime() - DAY),
      entries: [{ survey: survey(301, 'Customer satisfaction'), newAnswers: 12, answers }],
      unchanged: 1,
      omitted: 0,
      totalSurveys: 2,
      answered: {},
    };
    const m = surveysDigestMessage(d, framing);
    valid(m);
    const text = all(m);
    expect(text).toContain('Customer satisfaction');
    expect(text).toContain('12 new answers');
    expect(text).toContain('50.0% of delivered');
    expect(text).toContain('*Question 1* · 150 answers');
    expect(text).toContain('`▇▇▇▇▇▇▇▇▇▇` *5* — 50 · 33.3%');
    expect(text).toContain('*EVET* — 30 · 75.0%');
    expect(text).toContain('1 survey without new answers not shown');
  });

  it('says so when nothing is new', () => {
    const m = surveysDigestMessage(
      {
        kind: 'surveys',
        at: NOW,
        since: NOW,
        entries: [],
        unchanged: 2,
        omitted: 0,
        totalSurveys: 2,
        answered: {},
      },
      framing,
    );
    valid(m);
    expect(m.text).toMatch(/No new answers since the previous digest/);
  });

  it('stays within 50 blocks and every text limit with many surveys, questions and long free answers', () => {
    const entries = Array.from({ length: 8 }, (_, s) => ({
      survey: survey(400 + s, `${'Ş'.repeat(300)} <@channel>`),
      newAnswers: 5,
      answers: Array.from({ length: 40 }, (_, q) =>
        Array.from({ length: 30 }, (_, a) => ({
          surveyId: 400 + s,
          questionNo: q + 1,
          answer: `${'😀'.repeat(100)} ${a}`,
          count: a + 1,
        })),
      ).flat(),
    }));
    const m = surveysDigestMessage(
      {
        kind: 'surveys',
        at: NOW,
        since: undefined,
        entries,
        unchanged: 0,
        omitted: 30,
        totalSurveys: 38,
        answered: {},
      },
      framing,
    );
    valid(m);
    expect(all(m)).not.toContain('<@channel>');
  });
});

describe('alerts and the subscription list', () => {
  it('an alert names the threshold, what is left and the runway', () => {
    const m = lowBalanceAlertMessage(
      {
        change: 'below',
        threshold: 100,
        balance: { main: 60, limit: 20, usable: 80 },
        runway: { perDay: 20, days: 4 },
        at: NOW,
      },
      framing,
    );
    valid(m);
    expect(all(m)).toMatch(/below 100,00 ₺.*80,00 ₺.*left/);
    expect(all(m)).toContain('about 4 days');
    const back = lowBalanceAlertMessage(
      {
        change: 'recovered',
        threshold: 100,
        balance: { main: 500, limit: 0, usable: 500 },
        runway: undefined,
        at: NOW,
      },
      framing,
    );
    valid(back);
    expect(back.text).toMatch(/back above 100,00 ₺/);
  });

  it('lists hundreds of subscriptions within the limits', () => {
    const subs: Subscription[] = Array.from({ length: 3000 }, (_, i) => ({
      id: i,
      channel: 'C0X',
      createdBy: 'U0',
      createdAt: NOW,
      alertState: null,
      alertedAt: null,
      ...(i % 3 === 0
        ? { kind: 'digest' as const, digest: 'stats' as const, cron: `${i % 60} 9 * * *`, timezone: 'UTC' }
        : i % 3 === 1
          ? { kind: 'low_balance' as const, threshold: i }
          : { kind: 'inbound' as const, keyword: 'K'.repeat(500), recipient: null }),
    }));
    const m = subscriptionsMessage(subs, { timeZone: 'UTC', simulated: false, nextRun: () => NOW });
    valid(m);
    expect(all(m)).toMatch(/more subscriptions/);
  });
});
