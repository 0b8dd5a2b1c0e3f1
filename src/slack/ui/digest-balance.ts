import type { KnownBlock } from '@slack/types';
import { NET_OF_REFUNDS, SPEND_DEFINITION, type Spend, todayLabel } from '../../digests/spend.js';
import type { BalanceDigest, DigestFraming, Runway } from '../../digests/types.js';
import type { BalanceLogEntry } from '../../gateway/index.js';
import { context, fields, section } from './blocks.js';
import { type DigestMessage, digestFoot, digestHead, durationInDays, signedMoney } from './digest-common.js';
import { formatMoney, formatTime } from './format.js';
import { inlineText } from './lookup-common.js';

const DAY_MS = 86_400_000;

/** "At the 7-day rate (12.40 a day), credit lasts about 35 days (until about 2026-12-27)." */
export function runwayLine(runway: Runway | undefined, usable: number, at: Date, timeZone: string): string {
  if (!runway) return ':grey_question: No forecast: the balance log could not be read.';
  if (usable <= 0 || runway.days === 0)
    return ':rotating_light: Usable credit is used up: sends will be refused until it is topped up.';
  if (runway.days === undefined)
    return ':zzz: Nothing was spent in the last 7 days, so there is no rate to forecast from.';
  const until =
    runway.days <= 365
      ? ` (until about ${formatTime(new Date(at.getTime() + runway.days * DAY_MS), timeZone).slice(0, 10)})`
      : '';
  const icon = runway.days < 7 ? ':warning:' : ':hourglass_flowing_sand:';
  return `${icon} At the 7-day rate (${formatMoney(runway.perDay)} a day), credit lasts *${durationInDays(runway.days)}*${until}.`;
}

/** "Spent today (since 00:00 Europe/Istanbul), net of refunds *12.00* (150.25 refunded) · last 7 days *80.00*". */
export function spendLine(spend: Spend, timeZone: string, windows: { day30?: boolean } = {}): string {
  const refunded = spend.refundedToday > 0 ? ` (${formatMoney(spend.refundedToday)} refunded)` : '';
  const month = windows.day30 ? ` · 30 days *${formatMoney(spend.day30)}*` : '';
  return `:chart_with_downwards_trend: Spent ${todayLabel(timeZone)}, ${NET_OF_REFUNDS} *${formatMoney(spend.today)}*${refunded} · last 7 days *${formatMoney(spend.day7)}*${month}`;
}

function entryLine(e: BalanceLogEntry, sign: '+' | '−', timeZone: string): string {
  const why = e.explanation ? ` · ${inlineText(e.explanation, 120)}` : '';
  return `\`${formatTime(e.timestamp, timeZone)}\` *${sign}${formatMoney(e.amount)}*${why}`;
}

function changeText(d: BalanceDigest, timeZone: string): string {
  if (!d.change) return '—';
  const since =
    d.change.basis === 'previous-digest'
      ? `since the previous digest (${formatTime(d.change.since, timeZone)})`
      : `over the period, from the balance log`;
  return `*${signedMoney(d.change.amount)}* ${since}`;
}

export function balanceDigestMessage(d: BalanceDigest, framing: DigestFraming): DigestMessage {
  const tz = framing.timeZone;
  const period = `${formatTime(d.period.from, tz)} – ${formatTime(d.period.to, tz)}`;
  const blocks: KnownBlock[] = [
    ...digestHead('Balance digest', framing),
    fields([
      ['Usable credit', `*${formatMoney(d.balance.usable)}*`],
      ['Change', changeText(d, tz)],
      ['Main', formatMoney(d.balance.main)],
      ['Limit', formatMoney(d.balance.limit)],
    ]),
    section(
      d.spend
        ? spendLine(d.spend, tz, { day30: true })
        : ':grey_question: Spending is not available: the balance log could not be read.',
    ),
    section(runwayLine(d.runway, d.balance.usable, d.at, tz)),
    ...(d.spend ? [context(SPEND_DEFINITION)] : []),
  ];
  const lines: string[] = [];
  if (d.largestDebits.length > 0)
    lines.push('*Largest debits*', ...d.largestDebits.map((e) => entryLine(e, '−', tz)));
  if (d.largestCredits.length > 0)
    lines.push('*Largest credits*', ...d.largestCredits.map((e) => entryLine(e, '+', tz)));
  blocks.push(
    section(
      lines.length > 0
        ? `*Period ${period}*\n${lines.join('\n')}`
        : `*Period ${period}*\nNo debits or credits in the balance log.`,
    ),
    digestFoot(framing, d.at, 'balance'),
  );
  const runway = d.runway?.days !== undefined ? `; credit lasts ${durationInDays(d.runway.days)}` : '';
  const change = d.change ? ` (${signedMoney(d.change.amount)})` : '';
  return { text: `Balance digest: usable credit ${formatMoney(d.balance.usable)}${change}${runway}`, blocks };
}
