import type { InboundMessage } from '../gateway/index.js';
import { localDayKey } from './period.js';
import { PURGED } from './send-lines.js';

export interface InboundDetail {
  received: Date;
  msisdn: string;
  recipient: string;
  keyword: string;
  text: string;
}

export interface InboundSummary {
  byDay: Map<string, number>;
  byKeyword: Map<string, number>;
  total: number;
  /** Only when an admin asked for them (numbers and texts are personal data); undefined otherwise. */
  details: InboundDetail[] | undefined;
  /** False when Receive could not be read: the sheet says so instead of showing no SMS. */
  read: boolean;
}

export const NO_KEYWORD = '(no keyword)';

export function inboundSummaryOf(
  messages: readonly InboundMessage[] | undefined,
  range: { from: Date; to: Date },
  timeZone: string,
  withDetails: boolean,
  retainedSince?: Date,
): InboundSummary {
  const byDay = new Map<string, number>();
  const byKeyword = new Map<string, number>();
  const details: InboundDetail[] = [];
  let total = 0;
  for (const m of messages ?? []) {
    if (!m.received || m.received < range.from || m.received >= range.to) continue;
    total++;
    const day = localDayKey(m.received, timeZone);
    byDay.set(day, (byDay.get(day) ?? 0) + 1);
    const keyword = m.keyword.trim() === '' ? NO_KEYWORD : m.keyword.trim().toLocaleUpperCase('tr');
    byKeyword.set(keyword, (byKeyword.get(keyword) ?? 0) + 1);
    if (!withDetails) continue;
    // The gateway keeps what smsops purges after RETENTION_DAYS: a report does not bring it back.
    const purged = retainedSince !== undefined && m.received < retainedSince;
    details.push({
      received: m.received,
      msisdn: purged ? PURGED : m.msisdn,
      recipient: m.recipient,
      keyword: m.keyword,
      text: purged ? PURGED : m.text,
    });
  }
  details.sort((a, b) => a.received.getTime() - b.received.getTime());
  return {
    byDay: new Map([...byDay].sort(([a], [b]) => a.localeCompare(b))),
    byKeyword: new Map([...byKeyword].sort(([a, x], [b, y]) => y - x || a.localeCompare(b))),
    total,
    details: withDetails ? details : undefined,
    read: messages !== undefined,
  };
}
