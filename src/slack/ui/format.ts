import { TZDate } from '@date-fns/tz';
import { format } from 'date-fns';
import { formatForPeople } from '../../sms/index.js';

/**
 * Text from outside (SMS bodies, gateway descriptions, user input) is escaped before it goes into
 * mrkdwn, so it can never mention @channel, a user, or forge a link.
 */
export function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * An Intl formatter built when first used, not when its module loads: the first one a process builds loads
 * ICU's formatting data, 8 MB of resident memory that an idle bot need not hold (see time-zones.ts).
 */
export function onFirstUse<T>(make: () => T): () => T {
  let made: T | undefined;
  return () => (made ??= make());
}

const count = onFirstUse(() => new Intl.NumberFormat('en-US'));

/** Money is formatted where sending/ can reach it too (a campaign's stop reason names amounts). */
export { formatCost, formatMoney, useCurrency } from '../../money.js';

/**
 * An inbound SMS's keyword as a person reads it: the gateway takes the message's first word as it was typed, so
 * "Merhaba, ..." has the keyword "MERHABA,". Punctuation and symbols at its ends go; inside a word they stay.
 */
export function shownKeyword(keyword: string): string {
  return keyword
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^[\p{P}\p{S}]+|[\p{P}\p{S}]+$/gu, '');
}

export function formatCount(n: number): string {
  return count().format(n);
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}

export function formatTime(date: Date | undefined | null, timeZone: string): string {
  if (!date) return '—';
  return format(new TZDate(date.getTime(), timeZone), 'yyyy-MM-dd HH:mm');
}

export function formatNumber(msisdn: string): string {
  return formatForPeople(msisdn);
}

/**
 * Cuts text to a limit as Slack counts it (UTF-16 units), never inside a surrogate pair, with an
 * ellipsis that counts toward the limit.
 */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  let out = '';
  for (const char of text) {
    if (out.length + char.length > max - 1) break;
    out += char;
  }
  return `${out}…`;
}

/** A 20-cell bar for delivered / undelivered / pending that reads on desktop and mobile. */
export function progressBar(delivered: number, undelivered: number, total: number, cells = 20): string {
  if (total <= 0) return '░'.repeat(cells);
  const d = Math.round((delivered / total) * cells);
  const u = Math.min(cells - d, Math.round((undelivered / total) * cells));
  return `${'█'.repeat(d)}${'▒'.repeat(u)}${'░'.repeat(cells - d - u)}`;
}
