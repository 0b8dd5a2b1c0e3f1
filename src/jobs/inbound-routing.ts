import type { InboundMessage } from '../gateway/index.js';
import { foldCase } from '../sms/fold.js';

/** Where inbound SMS go: a channel, optionally only for one keyword and/or one recipient. */
export interface InboundRoute {
  channel: string;
  keyword?: string | null;
  recipient?: string | null;
  /** When the subscription was made: a channel gets what arrives from then on, not what the overlap re-reads. */
  createdAt?: Date;
}

/** Gateway and bot clocks may disagree a little; a message this much older than a subscription still counts. */
const CLOCK_GRACE_MS = 60_000;

/**
 * The keyword an SMS is filed under: the gateway's Keyword, or the first word of the text when the
 * gateway leaves it empty (short-number services put the keyword first).
 */
export function keywordOf(message: Pick<InboundMessage, 'keyword' | 'text'>): string {
  const given = message.keyword.trim();
  if (given !== '') return given;
  return message.text.trim().split(/\s+/u, 1)[0] ?? '';
}

/** Case-insensitive with Turkish dotted and dotless I folded, punctuation around a word ignored. */
export function sameWord(a: string, b: string): boolean {
  const clean = (s: string) => foldCase(s.trim()).replace(/^[\p{P}\p{S}]+|[\p{P}\p{S}]+$/gu, '');
  const x = clean(a);
  return x !== '' && x === clean(b);
}

/** Recipients are short numbers or sender names: spaces and a leading + or 00 do not matter, case does not. */
export function sameRecipient(a: string, b: string): boolean {
  const clean = (s: string) =>
    foldCase(s)
      .replace(/[\s().-]/g, '')
      .replace(/^(\+|00)/, '');
  const x = clean(a);
  return x !== '' && x === clean(b);
}

export function routeMatches(route: InboundRoute, message: InboundMessage): boolean {
  if (route.createdAt && message.received) {
    if (message.received.getTime() < route.createdAt.getTime() - CLOCK_GRACE_MS) return false;
  }
  if (route.keyword && !sameWord(route.keyword, keywordOf(message))) return false;
  if (route.recipient && !sameRecipient(route.recipient, message.recipient)) return false;
  return true;
}

/** Every channel with at least one matching route, once each, in route order. */
export function channelsFor(routes: readonly InboundRoute[], message: InboundMessage): string[] {
  const channels: string[] = [];
  for (const route of routes) {
    if (!channels.includes(route.channel) && routeMatches(route, message)) channels.push(route.channel);
  }
  return channels;
}
