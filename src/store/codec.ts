import { randomUUID } from 'node:crypto';
import type { JsonValue } from './types.js';

// Conversions between the API's types and the columns' portable encodings (see schema.ts).

export const toMillis = (date: Date): number => {
  const ms = date.getTime();
  if (!Number.isFinite(ms)) throw new RangeError('invalid Date');
  return ms;
};

export const fromMillis = (ms: number | string): Date => new Date(Number(ms));

export const fromMillisOrNull = (ms: number | string | null): Date | null =>
  ms === null ? null : fromMillis(ms);

export const toMillisOrNull = (date: Date | null | undefined): number | null =>
  date ? toMillis(date) : null;

export const toJson = (value: JsonValue | undefined): string | null =>
  value === undefined ? null : JSON.stringify(value);

export const fromJson = <T = JsonValue>(text: string | null): T | null =>
  text === null ? null : (JSON.parse(text) as T);

/** Gateway ids are 64-bit integers: decimal text keeps them exact in both dialects. */
export function gatewayIdText(id: string | bigint | number): string {
  if (typeof id === 'number' && !Number.isSafeInteger(id)) {
    throw new RangeError(`gateway id ${id} is not exact as a number; pass it as a string or bigint`);
  }
  const text = String(id).trim();
  if (text === '') throw new RangeError('empty gateway id');
  return text;
}

/** Marks a row as written by one call, so a retry after a lost reply can tell its own write from a rival's. */
export const newToken = (): string => randomUUID();

/**
 * A LIKE pattern matching JSON text that holds `msisdn` as a string: a coarse filter, the exact match is
 * made on the decoded value. Numbers are digits (with an optional +), so the pattern has no wildcard in it.
 */
export function jsonStringPattern(msisdn: string): string {
  return `%${JSON.stringify(checkedNumber(msisdn))}%`;
}

/** A LIKE pattern matching text that holds `msisdn` anywhere (a packed list, numbers a comma between them). */
export function numberPattern(msisdn: string): string {
  return `%${checkedNumber(msisdn)}%`;
}

/** `msisdn`, when it is digits with an optional +: nothing that a LIKE pattern or a quote would read. */
function checkedNumber(msisdn: string): string {
  if (!/^\+?\d{3,20}$/.test(msisdn)) throw new RangeError('a phone number is digits, with an optional +');
  return msisdn;
}
