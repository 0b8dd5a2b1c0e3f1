import type { KnownBlock } from '@slack/types';
import { LIMITS } from './blocks.js';
import { escapeMrkdwn, onFirstUse, truncate } from './format.js';

/** What every look-up builder returns: blocks, and the plain summary Slack shows in notifications. */
export interface LookupMessage {
  text: string;
  blocks: KnownBlock[];
}

/** What the builders need to know besides the data: where "now" is and how to show times. */
export interface LookupView {
  now: Date;
  timeZone: string;
  simulated: boolean;
}

/** Room left for the simulated notice, a header, a summary and a trailer in a 50-block message. */
export const LIST_BLOCK_BUDGET = LIMITS.blocksPerMessage - 8;

const percent = onFirstUse(
  () => new Intl.NumberFormat('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 }),
);

/** `part` as a share of `whole`, one decimal; a dash when there is nothing to divide by. */
export function formatPercent(part: number, whole: number): string {
  if (!(whole > 0)) return '—';
  return `${percent().format((part / whole) * 100)}%`;
}

/** A signed relative change ("+12.5%", "−3.0%"); a dash when the base is zero. */
export function formatChange(current: number, previous: number): string {
  if (!(previous > 0)) return '—';
  const change = ((current - previous) / previous) * 100;
  const sign = change > 0 ? '+' : change < 0 ? '−' : '±';
  return `${sign}${percent().format(Math.abs(change))}%`;
}

/**
 * A bar of `cells` characters for `value` out of `max`. Anything above zero gets at least one cell,
 * so a small but real number never looks like nothing.
 */
export function textBar(value: number, max: number, cells = 10): string {
  if (!(max > 0) || !(value > 0)) return '';
  return '▇'.repeat(Math.max(1, Math.min(cells, Math.round((value / max) * cells))));
}

/** Outside text as a mrkdwn block quote: escaped, cut, every line quoted so a newline cannot end the quote. */
export function quoteText(text: string, max: number): string {
  const body = text.trim() === '' ? '_(empty)_' : escapeMrkdwn(truncate(text.trim(), max));
  return `>${body.replace(/\n/g, '\n>')}`;
}

/** Outside text for one line of a list: escaped, on one line, and short. */
export function inlineText(text: string, max: number): string {
  return escapeMrkdwn(truncate(text.replace(/\s+/g, ' ').trim(), max));
}

/**
 * Cuts text to `max` UTF-16 units, which is how Slack (and the fake) measure; `truncate` counts
 * characters, so a text full of emoji could pass it and still be refused.
 */
/** Kept for the look-up builders: Slack's own counting is what truncate does. */
export const fitUnits = truncate;

export { type ListOptions, listBlocks } from './blocks.js';
