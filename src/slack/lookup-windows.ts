import type { InboundMessage } from '../gateway/index.js';

const DAY_MS = 86_400_000;

/** How far back `/sms inbox` and the App Home read inbound SMS. */
export const INBOX_DAYS = 7;

/** The window `/sms log <days>` reads: rolling days back from now, not calendar days. */
export function logWindow(now: Date, days: number): { begin: Date } {
  return { begin: new Date(now.getTime() - days * DAY_MS) };
}

export function inboxWindow(now: Date): { begin: Date } {
  return { begin: new Date(now.getTime() - INBOX_DAYS * DAY_MS) };
}

/** The newest `n` first; a message without a time sorts last, ties by id. */
export function newestInbound(messages: readonly InboundMessage[], n: number): InboundMessage[] {
  return [...messages]
    .sort(
      (a, b) => (b.received?.getTime() ?? -Infinity) - (a.received?.getTime() ?? -Infinity) || b.id - a.id,
    )
    .slice(0, n);
}
