import { TZDate } from '@date-fns/tz';
import { isUtcZone } from '../time-zones.js';

/**
 * The gateway writes timestamps without a zone (`2024-01-02T03:04:05.1234567`) in a zone of its own
 * that is a setting (SMS_GATEWAY_TIMEZONE). Some deployments send fewer fractional digits, and a
 * tolerant reader also takes an explicit `Z` or offset when one appears.
 */
const TIMESTAMP =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,7}))?)?(Z|[+-]\d{2}:?\d{2})?$/;

export function parseGatewayTime(text: string, timeZone: string): Date | undefined {
  const m = TIMESTAMP.exec(text.trim());
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s = '0', fraction = '', zone] = m;
  const ms = Number(fraction.padEnd(3, '0').slice(0, 3));
  if (zone) {
    const iso = `${y}-${mo}-${d}T${h}:${mi}:${s.padStart(2, '0')}.${String(ms).padStart(3, '0')}${zone === 'Z' ? 'Z' : zone.replace(/^([+-]\d{2})(\d{2})$/, '$1:$2')}`;
    const date = new Date(iso);
    return Number.isNaN(date.getTime()) ? undefined : date;
  }
  const fields = [Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s), ms] as const;
  // UTC, the default, is read without Intl (see time-zones.ts).
  if (isUtcZone(timeZone)) {
    const utc = new Date(Date.UTC(...fields));
    if (utc.getUTCMonth() !== fields[1] || utc.getUTCDate() !== fields[2]) return undefined;
    return utc;
  }
  const date = new TZDate(...fields, timeZone);
  // Reject impossible dates (Feb 30) instead of letting them roll over into another day.
  if (date.getMonth() !== fields[1] || date.getDate() !== fields[2]) return undefined;
  return new Date(date.getTime());
}

export function formatGatewayTime(date: Date, timeZone: string): string {
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  const year = date.getUTCFullYear();
  if (isUtcZone(timeZone) && year >= 1000 && year <= 9999) {
    // toISOString is that very form in UTC, with milliseconds: 2024-01-02T03:04:05.123Z (four-digit years only).
    return `${date.toISOString().slice(0, 23)}0000`;
  }
  const z = new TZDate(date.getTime(), timeZone);
  return (
    `${z.getFullYear()}-${pad(z.getMonth() + 1)}-${pad(z.getDate())}` +
    `T${pad(z.getHours())}:${pad(z.getMinutes())}:${pad(z.getSeconds())}.${pad(z.getMilliseconds(), 3)}0000`
  );
}
