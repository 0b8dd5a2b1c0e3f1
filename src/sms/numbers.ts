import {
  type CountryCode,
  getCountryCallingCode,
  isSupportedCountry,
  type PhoneNumber,
  parseIncompletePhoneNumber,
  parsePhoneNumberFromString,
  parsePhoneNumberWithError,
  validatePhoneNumberLength,
} from 'libphonenumber-js/max';
import mobileExamples from 'libphonenumber-js/mobile/examples';
import { fastMsisdn } from './fast-number.js';
import { plainNumberText } from './number-text.js';
import { trimmed } from './trim.js';

export type { CountryCode } from 'libphonenumber-js/max';

export type NormalisedNumber = { ok: true; msisdn: string } | { ok: false; reason: string };

// Digits in any script, blanks and the punctuation people put in numbers. Anything else (letters,
// '#', 'ext.') means the text is not just a number; rejecting it here also stops the parser from
// reading vanity letters as digits.
const PHONE_TEXT = /^[\p{Nd}\s+\-\u2010-\u2015\u2212()./]+$/u;

// E.164 allows 15 digits; an international prefix such as 00 can add two more.
const MAX_DIGITS = 17;

// Under these the gateway can deliver an SMS; fixed lines, toll-free, VoIP and the rest cannot.
const SMS_CAPABLE = new Set(['MOBILE', 'FIXED_LINE_OR_MOBILE']);

const ERROR_REASONS: Record<string, string> = {
  NOT_A_NUMBER: 'not a phone number',
  INVALID_COUNTRY: 'unknown country code',
  TOO_SHORT: 'too short',
  TOO_LONG: 'too long',
};

type Attempt = NormalisedNumber & { valid: boolean };

const fail = (reason: string, valid = false): Attempt => ({ ok: false, reason, valid });

/**
 * Turns a number as people type it (`+90 532 123 45 67`, `0532 123 45 67`, `5321234567`,
 * `0090 532…`, `905321234567`) into the gateway's form: digits only, country code first.
 * Only numbers that can receive SMS pass. Never throws.
 */
export function normaliseNumber(input: string, defaultCountry: CountryCode): NormalisedNumber {
  try {
    const { valid: _, ...result } = normalise(input, defaultCountry, true);
    return result;
  } catch {
    return { ok: false, reason: 'invalid number' };
  }
}

/**
 * The msisdn when `input` is a usable number, else undefined. Same verdict as `normaliseNumber`
 * without working out why a number fails, which costs several more parses.
 */
export function msisdnOf(input: string, defaultCountry: CountryCode): string | undefined {
  // The common number straight from the fast reader, without a result object (a file may hold 100,000).
  if (typeof input === 'string') {
    const fast = fastMsisdn(trimmed(input), defaultCountry);
    if (fast !== undefined) return fast;
  }
  try {
    const result = normalise(input, defaultCountry, false);
    return result.ok ? result.msisdn : undefined;
  } catch {
    return undefined;
  }
}

function normalise(input: string, defaultCountry: CountryCode, explain: boolean): Attempt {
  if (typeof input !== 'string') return fail('not a phone number');
  const text = plainNumberText(input).trim();
  // First, as it settles most real input in about a microsecond.
  const fast = fastMsisdn(text, defaultCountry);
  if (fast !== undefined) return { ok: true, msisdn: fast, valid: true };
  if (text === '' || !PHONE_TEXT.test(text)) return fail('not a phone number');
  // Leading '+' kept, every digit converted to ASCII.
  const compact = parseIncompletePhoneNumber(text);
  const digits = compact.replace('+', '');
  if (digits === '') return fail('not a phone number');
  if (digits.length > MAX_DIGITS) return fail('too long');

  const asTyped = interpret(text, defaultCountry, explain);
  if (asTyped.ok || compact.startsWith('+') || digits.startsWith('0')) return asTyped;
  // Digits with no '+' and no trunk 0 may be the gateway's own form (country code first), e.g.
  // copied from a delivery report. Trust that reading only when it is a real number.
  const international = interpret(`+${digits}`, defaultCountry, explain);
  return international.valid ? international : asTyped;
}

function interpret(text: string, defaultCountry: CountryCode, explain: boolean): Attempt {
  let phone: PhoneNumber;
  try {
    phone = parsePhoneNumberWithError(text, { defaultCountry, extract: false });
  } catch (error) {
    const code = error instanceof Error ? error.message : '';
    return fail(ERROR_REASONS[code] ?? 'invalid number');
  }
  if (phone.ext) return fail('not a phone number');
  // With full metadata a number is valid exactly when it has a type, so one call answers both.
  const type = phone.getType();
  if (type === undefined) return fail(explain ? lengthReason(text, phone, defaultCountry) : 'invalid number');
  if (!SMS_CAPABLE.has(type)) return fail('not a mobile number', true);
  return { ok: true, msisdn: phone.number.slice(1), valid: true };
}

function lengthReason(text: string, phone: PhoneNumber, defaultCountry: CountryCode): string {
  const verdict = validatePhoneNumberLength(text, { defaultCountry });
  if (verdict === 'TOO_SHORT' || verdict === 'TOO_LONG') return ERROR_REASONS[verdict]!;
  // The library often says only "invalid length" (or nothing) because some number type of the
  // country has that length, and keeps a trunk 0 it could not strip, which hides a missing digit.
  // Ask instead whether a digit more or fewer would make a real number.
  const compact = parseIncompletePhoneNumber(text);
  for (const k of [1, 2]) {
    if (isValidAt(compact.slice(0, -k), defaultCountry)) return 'too long';
    if (isValidAt(compact + '0'.repeat(k), defaultCountry)) return 'too short';
  }
  // Failing that, compare with a mobile number of the country, since people are sending SMS.
  const country =
    phone.country ??
    (phone.countryCallingCode === getCountryCallingCode(defaultCountry) ? defaultCountry : undefined);
  const example = country === undefined ? undefined : mobileExamples[country];
  if (example !== undefined) {
    if (phone.nationalNumber.length < example.length) return 'too short';
    if (phone.nationalNumber.length > example.length) return 'too long';
  }
  return 'invalid number';
}

function isValidAt(text: string, defaultCountry: CountryCode): boolean {
  return parsePhoneNumberFromString(text, { defaultCountry, extract: false })?.getType() !== undefined;
}

/** `905321234567` → `+90 532 123 45 67`; anything unrecognised comes back as `+digits`. */
export function formatForPeople(msisdn: string): string {
  const digits = String(msisdn).replace(/\D/g, '');
  try {
    const phone = parsePhoneNumberFromString(`+${digits}`);
    if (phone?.isValid()) return phone.formatInternational();
  } catch {
    // Fall through to the plain form.
  }
  return `+${digits}`;
}

/**
 * `905321234567` → `+90 ••• ••• •• 67`: the country code and the last two digits, enough to match an audit
 * line to the request it answered, not enough to text anyone.
 */
export function maskNumber(msisdn: string): string {
  const shown = formatForPeople(msisdn);
  const space = shown.indexOf(' ');
  const keptHead = space > 0 ? space : 1;
  const keptTail = shown.length - 2;
  return [...shown].map((c, i) => (i >= keptHead && i < keptTail && /\d/.test(c) ? '•' : c)).join('');
}

export function isCountryCode(value: string): value is CountryCode {
  return isSupportedCountry(value);
}
