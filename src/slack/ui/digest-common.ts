import type { KnownBlock } from '@slack/types';
import type { DigestFraming } from '../../digests/types.js';
import { context, header, simulatedNotice } from './blocks.js';
import { escapeMrkdwn, formatMoney, formatTime } from './format.js';

/** Every digest builder returns this: blocks, and the plain summary Slack shows in notifications. */
export interface DigestMessage {
  text: string;
  blocks: KnownBlock[];
}

/** Blocks a digest spends on its frame (simulated notice, header, preview note, footer), out of 50. */
export const FRAME_BLOCKS = 4;

export function digestHead(title: string, framing: DigestFraming): KnownBlock[] {
  return [
    ...simulatedNotice(framing.simulated),
    header(title),
    ...(framing.preview
      ? [
          context(
            ':eyes: *Preview*: only you can see this, and it does not count as the channel’s previous digest.',
          ),
        ]
      : []),
  ];
}

/** When the figures were taken, on which schedule, and when the next digest comes. */
export function digestFoot(framing: DigestFraming, at: Date, unsubscribe: string): KnownBlock {
  const zone = escapeMrkdwn(framing.timeZone);
  const parts = [`As of ${formatTime(at, framing.timeZone)} (${zone})`];
  if (framing.schedule) parts.push(`${escapeMrkdwn(framing.schedule)}`);
  if (framing.nextRun) parts.push(`next ${formatTime(framing.nextRun, framing.timeZone)}`);
  if (framing.schedule && !framing.preview) parts.push(`\`/sms unsubscribe digest ${unsubscribe}\` stops it`);
  return context(parts.join(' · '));
}

/** "+12.00" / "−3.50" / "±0.00": a change reads by its sign first. */
export function signedMoney(amount: number): string {
  const rounded = Math.round(amount * 100) / 100;
  const sign = rounded > 0 ? '+' : rounded < 0 ? '−' : '±';
  return `${sign}${formatMoney(Math.abs(rounded))}`;
}

/** "about 12 days", "less than a day", "more than a year". */
export function durationInDays(days: number): string {
  if (days < 1) return 'less than a day';
  if (days > 365) return 'more than a year';
  const rounded = days < 10 ? Math.round(days * 10) / 10 : Math.round(days);
  return `about ${rounded} day${rounded === 1 ? '' : 's'}`;
}
