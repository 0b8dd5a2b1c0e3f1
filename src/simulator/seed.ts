import { TZDate } from '@date-fns/tz';
import type { Units } from './money.js';
import { toUnits } from './money.js';
import { randomInt, seededRandom } from './random.js';
import type { BalanceLogEntry, MonthlyStats, Sender, Survey } from './types.js';

export interface SeedOptions {
  now: Date;
  timeZone: string;
  pricePerSegment: Units;
  /** Balance.Main at the end of the seeded history (that is, at start-up). */
  balance: Units;
}

export interface Seed {
  senders: Sender[];
  balanceLog: BalanceLogEntry[];
  monthlyStats: MonthlyStats[];
  surveys: Survey[];
}

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
/** Balance-log history length: long enough for 1/7/30-day spend in a digest on a fresh install. */
const LOG_DAYS = 60;
const TOP_UPS = [
  { daysAgo: 52, amount: 1000 },
  { daysAgo: 31, amount: 500 },
  { daysAgo: 10, amount: 750 },
];
const FIRST_LOG_ID = 70_001;

export const SENDERS: readonly Sender[] = [
  { name: 'SMSOPS', isDefault: true },
  { name: 'ACME', isDefault: false },
  { name: 'INFO', isDefault: false },
];

/** Short number inbound SMS are addressed to when the injector does not say. */
export const DEFAULT_INBOUND_RECIPIENT = '4440123';

interface DayTraffic {
  at: Date;
  messages: number;
  segments: number;
  delivered: number;
}

export function buildSeed(options: SeedOptions): Seed {
  const traffic = seedTraffic(options.now, options.timeZone);
  return {
    senders: SENDERS.map((s) => ({ ...s })),
    balanceLog: seedBalanceLog(traffic, options),
    monthlyStats: seedMonthlyStats(traffic, options.timeZone),
    surveys: seedSurveys(),
  };
}

/** One aggregate per past day from the first day of the month 11 months back until yesterday. */
function seedTraffic(now: Date, timeZone: string): DayTraffic[] {
  const random = seededRandom(20_240_611);
  const local = new TZDate(now.getTime(), timeZone);
  const firstMonth = new TZDate(local.getFullYear(), local.getMonth() - 11, 1, 0, 0, 0, 0, timeZone);
  // Past days only, in whatever zone they are read (the bot's REPORT_TIME_ZONE, not the gateway's): a day old at
  // the least, which is before today's midnight everywhere and still within a rolling last day. Yesterday's entry
  // pushed forward by its jitter landed "today" late in the evening, and a fresh install's "spent today" showed
  // yesterday's traffic.
  const lastPast = now.getTime() - DAY_MS;
  const days: DayTraffic[] = [];
  for (let k = 1; ; k++) {
    // Jitter keeps the entries from sitting at one exact time of day.
    const jittered = now.getTime() - k * DAY_MS + randomInt(random, -180, 180) * 60_000;
    const at = new Date(Math.min(jittered, lastPast));
    if (at.getTime() < firstMonth.getTime()) break;
    const weekday = new TZDate(at.getTime(), timeZone).getDay();
    const weekend = weekday === 0 || weekday === 6;
    // Slow growth towards the present, so the statistics show a trend.
    const growth = 1 + (365 - Math.min(k, 365)) / 730;
    const messages = Math.round(
      (weekend ? randomInt(random, 40, 120) : randomInt(random, 150, 420)) * growth,
    );
    const segments = messages + Math.round(messages * random() * 0.15);
    const delivered = Math.round(messages * (0.93 + random() * 0.05));
    days.push({ at, messages, segments, delivered });
  }
  return days.reverse();
}

function seedMonthlyStats(traffic: DayTraffic[], timeZone: string): MonthlyStats[] {
  const months = new Map<string, MonthlyStats>();
  for (const day of traffic) {
    const local = new TZDate(day.at.getTime(), timeZone);
    const key = `${local.getFullYear()}-${local.getMonth() + 1}`;
    const entry = months.get(key) ?? {
      year: local.getFullYear(),
      month: local.getMonth() + 1,
      delivered: 0,
      undelivered: 0,
      count: 0,
    };
    entry.delivered += day.delivered;
    entry.undelivered += day.messages - day.delivered;
    entry.count += day.messages;
    months.set(key, entry);
  }
  return [...months.values()];
}

interface PendingEntry {
  timestamp: Date;
  type: 'Credit' | 'Debit';
  amount: Units;
  explanation: string;
  cost: Units | null;
}

/**
 * Built backwards from the balance the account must end on, so any initialBalance works: a top-up
 * that would have left the account negative before it simply did not happen, and an opening credit
 * accounts for what remains.
 */
function seedBalanceLog(traffic: DayTraffic[], options: SeedOptions): BalanceLogEntry[] {
  const horizon = options.now.getTime() - LOG_DAYS * DAY_MS;
  const events: PendingEntry[] = traffic
    .filter((day) => day.at.getTime() >= horizon)
    .map((day) => {
      const cost = day.segments * options.pricePerSegment;
      return {
        timestamp: day.at,
        type: 'Debit' as const,
        amount: cost,
        explanation: `SMS sending: ${day.messages} messages, ${day.segments} segments`,
        cost,
      };
    });
  for (const topUp of TOP_UPS) {
    events.push({
      timestamp: new Date(options.now.getTime() - topUp.daysAgo * DAY_MS + 2 * HOUR_MS),
      type: 'Credit',
      amount: toUnits(topUp.amount),
      explanation: `Top-up by bank transfer (invoice INV-${topUp.daysAgo}${topUp.amount})`,
      cost: null,
    });
  }
  events.sort((a, b) => a.timestamp.getTime() - b.timestamp.getTime());

  const kept: Array<PendingEntry & { balanceAfter: Units }> = [];
  let balance = options.balance;
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i]!;
    const before = event.type === 'Debit' ? balance + event.amount : balance - event.amount;
    if (before < 0) continue;
    kept.push({ ...event, balanceAfter: balance });
    balance = before;
  }
  kept.reverse();
  if (balance > 0) {
    kept.unshift({
      timestamp: new Date(horizon - DAY_MS),
      type: 'Credit',
      amount: balance,
      explanation: 'Opening balance',
      cost: null,
      balanceAfter: balance,
    });
  }
  return kept.map((entry, index) => ({ id: FIRST_LOG_ID + index, ...entry }));
}

function seedSurveys(): Survey[] {
  const ratings = [12, 18, 41, 87, 64];
  return [
    {
      id: 301,
      name: 'Customer satisfaction',
      keyword: 'ANKET',
      totalQuestions: 2,
      subscribers: 1200,
      delivered: 1164,
      messageId: 98_734,
      answers: [
        ...ratings.map((count, i) => ({ questionNo: 1, answer: String(i + 1), count })),
        { questionNo: 2, answer: 'EVET', count: 151 },
        { questionNo: 2, answer: 'HAYIR', count: 58 },
      ],
    },
    {
      id: 302,
      name: 'Loyalty programme opt-in',
      keyword: 'KATIL',
      totalQuestions: 1,
      subscribers: 800,
      delivered: 779,
      messageId: 99_102,
      answers: [
        { questionNo: 1, answer: 'EVET', count: 203 },
        { questionNo: 1, answer: 'HAYIR', count: 61 },
      ],
    },
  ];
}
