import type { AuditEntry, JsonValue } from '../../store/index.js';
import { type AdminMessage, isUserId, listMessage, mention } from './admin-common.js';
import { escapeMrkdwn, formatNumber, formatTime, plural, truncate } from './format.js';

const SUMMARY_CHARS = 120;

/** Newest first, one line each, so 100 entries still fit one message. */
export function auditMessage(
  entries: readonly AuditEntry[],
  requested: number,
  timeZone: string,
): AdminMessage {
  const lines = entries.map(
    (e) =>
      `\`${formatTime(e.at, timeZone)}\` ${mention(e.actor)} *${escapeMrkdwn(truncate(e.action, 40))}*` +
      `${e.target ? ` ${auditTarget(e.action, e.target)}` : ''}` +
      `${detailsSummary(e.details) ? ` — ${detailsSummary(e.details)}` : ''}`,
  );
  const shown =
    entries.length < requested
      ? `all ${plural(entries.length, 'entry', 'entries')}`
      : `the last ${entries.length}`;
  return listMessage({
    title: 'smsops audit log',
    intro: `Newest first: ${shown}. Times in ${escapeMrkdwn(timeZone)}.`,
    lines,
    empty: '_No audit entries yet._',
    footer: ['More or fewer: `/sms audit 1…100`'],
    text: `Audit log: ${plural(entries.length, 'entry', 'entries')}`,
  });
}

/** Targets are user ids, msisdns, batch ids or names, whatever the writer chose. */
function auditTarget(action: string, target: string): string {
  if (isUserId(target)) return mention(target);
  if (action.startsWith('optout') && /^\d{6,17}$/.test(target)) return formatNumber(target);
  return escapeMrkdwn(truncate(target, 60));
}

/** `role: sender, previous: none`: short enough for one line, escaped since details may hold typed text. */
export function detailsSummary(details: JsonValue | null): string {
  if (details === null || details === undefined) return '';
  const text =
    typeof details === 'object' && !Array.isArray(details)
      ? Object.entries(details)
          .map(([key, value]) => `${key}: ${scalar(value)}`)
          .join(', ')
      : scalar(details);
  return escapeMrkdwn(truncate(text.replace(/\s+/g, ' ').trim(), SUMMARY_CHARS));
}

function scalar(value: JsonValue): string {
  if (value === null) return 'none';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}
