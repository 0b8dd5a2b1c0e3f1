import type { KnownBlock } from '@slack/types';
import type { DigestFraming, StatsDigest } from '../../digests/types.js';
import type { MonthlyStats } from '../../gateway/index.js';
import { textBarChart } from './bar-chart.js';
import { context, section } from './blocks.js';
import { type DigestMessage, digestFoot, digestHead } from './digest-common.js';
import { formatCount } from './format.js';
import { formatChange, formatPercent } from './lookup-common.js';
import { monthLabel } from './lookup-stats.js';

const SHORT_MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** Of the messages that reached a final state: pending ones would make a running month look worse. */
export function deliveryRate(m: MonthlyStats): string {
  return formatPercent(m.delivered, m.delivered + m.undelivered);
}

/** The change in delivery rate in percentage points; a dash when either month has no final messages. */
function rateChange(current: MonthlyStats, previous: MonthlyStats): string {
  const a = current.delivered + current.undelivered;
  const b = previous.delivered + previous.undelivered;
  if (!(a > 0) || !(b > 0)) return '—';
  const points = ((current.delivered / a - previous.delivered / b) * 100).toFixed(1);
  return `${Number(points) > 0 ? '+' : Number(points) < 0 ? '−' : '±'}${Math.abs(Number(points)).toFixed(1)} pts`;
}

function monthField(m: MonthlyStats, running: boolean): string {
  return [
    `*${monthLabel(m)}*${running ? ' _(so far)_' : ''}`,
    `Sent *${formatCount(m.count)}*`,
    `Delivered ${formatCount(m.delivered)}`,
    `Undelivered ${formatCount(m.undelivered)}`,
    `Delivery rate *${deliveryRate(m)}*`,
  ].join('\n');
}

/** 12 months as bars in a code block: "Nov 26 ▇▇▇▇▇▇       12,345". */
export function monthlyTextChart(months: readonly MonthlyStats[]): string {
  return textBarChart(
    months.map((m) => ({
      label: `${SHORT_MONTHS[m.month - 1] ?? '?'} ${String(m.year % 100).padStart(2, '0')}`,
      value: m.count,
      shown: formatCount(m.count),
    })),
  );
}

export function statsDigestMessage(d: StatsDigest, framing: DigestFraming): DigestMessage {
  const head = digestHead('Monthly statistics digest', framing);
  const { current, previous } = d;
  if (!current) {
    return {
      text: 'Monthly statistics digest: the gateway has no statistics yet.',
      blocks: [...head, section('The gateway has no statistics yet.'), digestFoot(framing, d.at, 'stats')],
    };
  }
  const blocks: KnownBlock[] = [...head];
  blocks.push({
    type: 'section',
    fields: [
      { type: 'mrkdwn', text: monthField(current, d.currentIsRunning) },
      {
        type: 'mrkdwn',
        text: previous ? monthField(previous, false) : '*The month before*\nNo figures.',
      },
    ],
  });
  if (previous) {
    blocks.push(
      section(
        `Against ${monthLabel(previous)}: sent *${formatChange(current.count, previous.count)}*, delivered *${formatChange(current.delivered, previous.delivered)}*, delivery rate *${rateChange(current, previous)}*` +
          (d.currentIsRunning ? ' _(a running month against a whole one)_' : ''),
      ),
    );
  }
  blocks.push(
    section(`*Sent per month, last ${d.months.length}*\n${monthlyTextChart(d.months)}`),
    context('Rate = delivered ÷ (delivered + undelivered); messages still pending are not counted.'),
    digestFoot(framing, d.at, 'stats'),
  );
  const change = previous
    ? ` (${formatChange(current.count, previous.count)} vs ${monthLabel(previous)})`
    : '';
  return {
    text: `Monthly statistics digest: ${monthLabel(current)}${d.currentIsRunning ? ' so far' : ''} ${formatCount(current.count)} sent${change}, delivery rate ${deliveryRate(current)}`,
    blocks,
  };
}
