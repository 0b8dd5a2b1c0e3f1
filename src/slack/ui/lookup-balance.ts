import type { KnownBlock } from '@slack/types';
import {
  directionOf,
  NET_OF_REFUNDS,
  SPEND_DEFINITION,
  type Spend,
  todayLabel,
} from '../../digests/spend.js';
import type { Balance, BalanceLogEntry } from '../../gateway/index.js';
import { logWindow } from '../lookup-windows.js';
import { context, fields, header, section, simulatedNotice } from './blocks.js';
import { spendLine } from './digest-balance.js';
import { escapeMrkdwn, formatMoney, formatTime, plural } from './format.js';
import {
  inlineText,
  LIST_BLOCK_BUDGET,
  type LookupMessage,
  type LookupView,
  listBlocks,
} from './lookup-common.js';

/** Balance-log lines shown before "…and N more": enough to scan, short enough to read. */
export const LOG_MAX_LINES = 40;

/** `spend` is undefined when the balance log could not be read: the balance is still worth showing. */
export function balanceMessage(balance: Balance, spend: Spend | undefined, view: LookupView): LookupMessage {
  const spent = spend
    ? spendLine(spend, view.timeZone)
    : ':grey_question: Spending is not available right now: the balance log could not be read.';
  const blocks: KnownBlock[] = [
    ...simulatedNotice(view.simulated),
    header('SMS credit'),
    fields([
      ['Usable credit', `*${formatMoney(balance.usable)}*`],
      ['Main', formatMoney(balance.main)],
      ['Limit', formatMoney(balance.limit)],
    ]),
    section(spent),
    context(
      `Usable = Main + Limit${spend ? ` · ${SPEND_DEFINITION}` : ''} · as of ${formatTime(view.now, view.timeZone)} (${view.timeZone}) · \`/sms log\` lists the entries`,
    ),
  ];
  const text =
    `Usable credit ${formatMoney(balance.usable)} (main ${formatMoney(balance.main)} + limit ${formatMoney(balance.limit)})` +
    (spend
      ? `; spent ${todayLabel(view.timeZone)} ${formatMoney(spend.today)} (${NET_OF_REFUNDS}), last 7 days ${formatMoney(spend.day7)}`
      : '');
  return { text, blocks };
}

function logLine(entry: BalanceLogEntry, timeZone: string): string {
  const dir = directionOf(entry);
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
    if (directionOf(entry) === 'credit') credits += entry.amount;
    if (directionOf(entry) === 'debit') debits += entry.amount;
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
