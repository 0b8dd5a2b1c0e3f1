import { TZDate } from '@date-fns/tz';
import type { KnownBlock } from '@slack/types';
import type { MonthlyStats } from '../../gateway/index.js';
import { context, header, section, simulatedNotice } from './blocks.js';
import { formatCount, onFirstUse } from './format.js';
import {
  formatChange,
  formatPercent,
  type LookupMessage,
  type LookupView,
  textBar,
} from './lookup-common.js';

const MONTHS_SHOWN = 12;
const BAR_CELLS = 12;

const monthName = onFirstUse(
  () => new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' }),
);

/** "September 2024": the gateway's year and month, with no time zone to shift them. */
export function monthLabel(m: Pick<MonthlyStats, 'year' | 'month'>): string {
  return monthName().format(new Date(Date.UTC(m.year, m.month - 1, 1)));
}

/** Of the messages that reached a final state: pending ones would make the current month look worse than it is. */
function deliveryRate(m: MonthlyStats): string {
  return formatPercent(m.delivered, m.delivered + m.undelivered);
}

function chronological(stats: readonly MonthlyStats[]): MonthlyStats[] {
  return [...stats].sort((a, b) => a.year - b.year || a.month - b.month).slice(-MONTHS_SHOWN);
}

function isMonthBefore(earlier: MonthlyStats, later: MonthlyStats): boolean {
  return earlier.year * 12 + earlier.month + 1 === later.year * 12 + later.month;
}

/** A fixed-width table in a code block: the one layout that keeps columns aligned on desktop and mobile. */
function table(months: readonly MonthlyStats[]): string {
  const max = Math.max(0, ...months.map((m) => m.count));
  const rows = [
    ['Month', 'Sent', 'Delivered', 'Undeliv.', 'Rate', ''],
    ...months.map((m) => [
      monthLabel(m),
      formatCount(m.count),
      formatCount(m.delivered),
      formatCount(m.undelivered),
      deliveryRate(m),
      textBar(m.count, max, BAR_CELLS),
    ]),
  ];
  const widths = rows[0]!.map((_, col) => Math.max(...rows.map((r) => r[col]!.length)));
  const lines = rows.map((r) =>
    r
      .map((cell, col) =>
        col === 0 || col === r.length - 1 ? cell.padEnd(widths[col]!) : cell.padStart(widths[col]!),
      )
      .join('  ')
      .trimEnd(),
  );
  return `\`\`\`\n${lines.join('\n')}\n\`\`\``;
}

/** Whether the month is still running where the report is read, so its figures are "so far". */
function isRunning(m: MonthlyStats, view: LookupView): boolean {
  const local = new TZDate(view.now.getTime(), view.timeZone);
  return local.getFullYear() === m.year && local.getMonth() + 1 === m.month;
}

function comparison(current: MonthlyStats, previous: MonthlyStats | undefined, running: boolean): string {
  const now = `*${monthLabel(current)}*${running ? ' so far' : ''}: *${formatCount(current.count)}* sent, delivery rate ${deliveryRate(current)}`;
  if (!previous) return `${now}. No figures for the month before.`;
  return (
    `${now}\n*${monthLabel(previous)}*: ${formatCount(previous.count)} sent, delivery rate ${deliveryRate(previous)}` +
    `\nChange in sent: *${formatChange(current.count, previous.count)}*`
  );
}

export function statsMessage(stats: readonly MonthlyStats[], view: LookupView): LookupMessage {
  const head: KnownBlock[] = [...simulatedNotice(view.simulated), header('SMS statistics: last 12 months')];
  const months = chronological(stats);
  const current = months.at(-1);
  if (!current) {
    return {
      text: 'No sending statistics yet.',
      blocks: [...head, section('The gateway has no statistics yet.')],
    };
  }
  const before = months.at(-2);
  const previous = before && isMonthBefore(before, current) ? before : undefined;
  const running = isRunning(current, view);
  const blocks: KnownBlock[] = [
    ...head,
    section(table(months)),
    section(comparison(current, previous, running)),
    context('Rate = delivered ÷ (delivered + undelivered); messages still pending are not counted.'),
  ];
  const change = previous
    ? ` (${formatChange(current.count, previous.count)} vs ${monthLabel(previous)})`
    : '';
  const soFar = running ? ' so far' : '';
  return {
    text: `SMS statistics: ${monthLabel(current)}${soFar} ${formatCount(current.count)} sent${change}`,
    blocks,
  };
}
