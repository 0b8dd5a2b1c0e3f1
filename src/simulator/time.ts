import { TZDate } from '@date-fns/tz';

/**
 * Writes a moment the way the gateway does: wall-clock time in the gateway's zone, seven
 * fractional digits, no zone designator. JS dates carry milliseconds, so the last four digits are 0.
 */
export function formatGatewayTime(date: Date, timeZone: string): string {
  const local = new TZDate(date.getTime(), timeZone);
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  return (
    `${pad(local.getFullYear(), 4)}-${pad(local.getMonth() + 1)}-${pad(local.getDate())}` +
    `T${pad(local.getHours())}:${pad(local.getMinutes())}:${pad(local.getSeconds())}` +
    `.${pad(local.getMilliseconds(), 3)}0000`
  );
}

const TIMESTAMP =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,7}))?)?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/**
 * Reads a timestamp a client sent. Zone-less values are wall-clock time in the gateway's zone;
 * a trailing Z or offset is honoured so tolerant clients that send UTC still mean what they say.
 * Fractions beyond milliseconds are cut, not rounded, so echoing back a timestamp the simulator
 * wrote yields exactly the same moment (inclusive range ends stay inclusive).
 */
export function parseGatewayTime(text: string, timeZone: string): Date | undefined {
  const m = TIMESTAMP.exec(text.trim());
  if (!m) return undefined;
  const [, y, mo, d, h = '0', mi = '0', s = '0', frac = '', zone] = m;
  const parts = [y, mo, d, h, mi, s].map(Number) as [number, number, number, number, number, number];
  const [year, month, day, hour, minute, second] = parts;
  const ms = Number(frac.padEnd(3, '0').slice(0, 3));
  // Calendar check first so Feb 30 is refused instead of silently rolling into March.
  const calendarDay = new Date(Date.UTC(year, month - 1, day)).getUTCDate();
  if (month < 1 || month > 12 || calendarDay !== day || hour > 23 || minute > 59 || second > 59) {
    return undefined;
  }
  const result =
    zone === undefined
      ? new Date(new TZDate(year, month - 1, day, hour, minute, second, ms, timeZone).getTime())
      : new Date(Date.UTC(year, month - 1, day, hour, minute, second, ms) - offsetMinutes(zone) * 60_000);
  if (Number.isNaN(result.getTime())) return undefined;
  return result;
}

function offsetMinutes(zone: string): number {
  if (zone.toUpperCase() === 'Z') return 0;
  const sign = zone.startsWith('-') ? -1 : 1;
  const digits = zone.slice(1).replace(':', '');
  const hours = Number(digits.slice(0, 2));
  const minutes = digits.length > 2 ? Number(digits.slice(2, 4)) : 0;
  return sign * (hours * 60 + minutes);
}
