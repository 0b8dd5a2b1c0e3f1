import { TZDate } from '@date-fns/tz';
import type { KnownBlock } from '@slack/types';
import { startOfDay } from 'date-fns';
import type { Balance, BalanceLogEntry } from '../../gateway/index.js';
import { context, fields, header, section, simulatedNotice } from './blocks.js';
import { escapeMrkdwn, formatMoney, formatTime, plural } from './format.js';
import {
  inlineText,
  LIST_BLOCK_BUDGET,
  type LookupMessage,
  type LookupView,
  listBlocks,
} from './lookup-common.js';

const DAY_MS = 86_400_000;
/** Balance-log lines shown before "…and N more": enough to scan, short enough to read. */
export const LOG_MAX_LINES = 40;

/** The window `/sms balance` reads spend from: the last 7 days, which always contains "today". */
export function spendWindow(now: Date): { begin: Date } {
  return { begin: new Date(now.getTime() - 7 * DAY_MS) };
}

/** The window `/sms log <days>` reads: rolling days back from now, not calendar days. */
export function logWindow(now: Date, days: number): { begin: Date } {
  return { begin: new Date(now.getTime() - days * DAY_MS) };
}

export interface Spend {
  today: number;
  week: number;
}

/** Debits only: a credit is a top-up or a refund, neither of which is spending. */
export function spendFrom(entries: readonly BalanceLogEntry[], view: LookupView): Spend {
  const midnight = startOfDay(new TZDate(view.now.getTime(), view.timeZone)).getTime();
  const weekAgo = spendWindow(view.now).begin.getTime();
  let today = 0;
  let week = 0;
  for (const entry of entries) {
    if (direction(entry) !== 'debit' || !entry.timestamp) continue;
    const at = entry.timestamp.getTime();
    if (at >= weekAgo) week += entry.amount;
    if (at >= midnight) today += entry.amount;
  }
  return { today, week };
}

/** `spend` is undefined when the balance log could not be read: the balance is still worth showing. */
export function balanceMessage(balance: Balance, spend: Spend | undefined, view: LookupView): LookupMessage {
  const spendLine = spend
    ? `:chart_with_downwards_trend: Spent today *${formatMoney(spend.today)}* · last 7 days *${formatMoney(spend.week)}*`
    : ':grey_question: Spending is not available right now: the balance log could not be read.';
  const blocks: KnownBlock[] = [
    ...simulatedNotice(view.simulated),
    header('SMS credit'),
    fields([
      ['Usable credit', `*${formatMoney(balance.usable)}*`],
      ['Main', formatMoney(balance.main)],
      ['Limit', formatMoney(balance.limit)],
    ]),
    section(spendLine),
    context(
      `Usable = Main + Limit · as of ${formatTime(view.now, view.timeZone)} (${view.timeZone}) · \`/sms log\` lists the entries`,
    ),
  ];
  const text =
    `Usable credit ${formatMoney(balance.usable)} (main ${formatMoney(balance.main)} + limit ${formatMoney(balance.limit)})` +
    (spend ? `; spent today ${formatMoney(spend.today)}, last 7 days ${formatMoney(spend.week)}` : '');
  return { text, blocks };
}

type Direction = 'credit' | 'debit' | 'other';

/** The gateway spells the type; the amount itself is always positive. */
function direction(entry: BalanceLogEntry): Direction {
  const type = entry.type.trim().toLowerCase();
  return type === 'credit' ? 'credit' : type === 'debit' ? 'debit' : 'other';
}

function logLine(entry: BalanceLogEntry, timeZone: string): string {
  const dir = direction(entry);
  const what =
    dir === 'credit'
      ? `:arrow_up: Credit *+${formatMoney(entry.amount)}*`
      : dir === 'debit'
        ? `:arrow_down: Debit *−${formatMoney(entry.amount)}*`
        : `:grey_question: ${inlineText(entry.type || 'Unknown', 30)} *${formatMoney(entry.amount)}*`;
  const explanation = entry.explanation ? ` · ${inlineText(entry.explanation, 200)}` : '';
  return `\`${formatTime(entry.timestamp, timeZone)}\` ${what} → ${formatMoney(entry.balanceAfter)}${explanation}`;
}

/** Newest first; entries without a time go last, the gateway's id keeps equal times in order. */
export function newestFirst(entries: readonly BalanceLogEntry[]): BalanceLogEntry[] {
  return [...entries].sort(
    (a, b) => (b.timestamp?.getTime() ?? -Infinity) - (a.timestamp?.getTime() ?? -Infinity) || b.id - a.id,
  );
}

export function balanceLogMessage(
  entries: readonly BalanceLogEntry[],
  days: number,
  view: LookupView,
): LookupMessage {
  const since = logWindow(view.now, days).begin;
  const period = `the last ${plural(days, 'day')}`;
  const head: KnownBlock[] = [...simulatedNotice(view.simulated), header(`Balance log: ${period}`)];
  if (entries.length === 0) {
    return {
      text: `No balance log entries in ${period}.`,
      blocks: [...head, section(`No balance log entries since ${formatTime(since, view.timeZone)}.`)],
    };
  }
  let credits = 0;
  let debits = 0;
  for (const entry of entries) {
    if (direction(entry) === 'credit') credits += entry.amount;
    if (direction(entry) === 'debit') debits += entry.amount;
  }
  const totals = `*${plural(entries.length, 'entry', 'entries')}* · credits *+${formatMoney(credits)}* · debits *−${formatMoney(debits)}*`;
  const blocks: KnownBlock[] = [
    ...head,
    section(totals),
    ...listBlocks(
      newestFirst(entries).map((e) => logLine(e, view.timeZone)),
      { maxItems: LOG_MAX_LINES, maxBlocks: LIST_BLOCK_BUDGET, moreLabel: 'older entries' },
    ),
    context(
      `Newest first, since ${formatTime(since, view.timeZone)} (${escapeMrkdwn(view.timeZone)}) · amount → balance after`,
    ),
  ];
  const text = `Balance log, ${period}: ${plural(entries.length, 'entry', 'entries')}, credits +${formatMoney(credits)}, debits −${formatMoney(debits)}`;
  return { text, blocks };
}
