import { type CountryCode, msisdnOf } from '../sms/numbers.js';
import { SCIENTIFIC } from '../sms/phone-cell.js';
import { trimmed } from '../sms/trim.js';

// A date as offices type it (01.03.2024, 2024-03-01, 1/3/24): digits and separators that the phone-shaped
// pattern below would otherwise take for a number, so that a "Tarih" cell in a notes line is not data.
const DATE = /^\d{1,4}[./-]\d{1,2}[./-]\d{1,4}$/;
const PHONE_SHAPED = /^\+?[\d\s\-().]{7,}$/;

/**
 * Whether a cell looks like a phone number of any kind, valid or not (a landline, a number with a digit
 * missing, 5,32E+09): what tells a row of data from a row of names. Deliberately broad.
 */
export function looksLikeNumber(cell: string, country: CountryCode): boolean {
  if (cell === '') return false;
  if (msisdnOf(cell, country) !== undefined) return true;
  const text = trimmed(cell);
  return SCIENTIFIC.test(text) || (PHONE_SHAPED.test(text) && !DATE.test(text));
}

// Excel keeps a number cell's decimals in CSV: 5321234567.0 (readPhoneCell reads it the same way).
const WITH_DECIMALS = /^(\d{7,15})[.,]0+$/;

/**
 * Whether a cell holds a number that can receive SMS (for TR: a 5xx mobile; a landline is not one), and is
 * not a TC identity number that happens to parse as a foreign number (11 digits starting with 1 read as +1).
 */
export function isMobileCell(cell: string, country: CountryCode): boolean {
  if (cell === '') return false;
  const text = trimmed(cell);
  if (isTcIdentityNumber(text)) return false;
  if (msisdnOf(text, country) !== undefined) return true;
  const decimals = WITH_DECIMALS.exec(text);
  return decimals !== null && msisdnOf(decimals[1]!, country) !== undefined;
}

/**
 * Whether a cell is a Turkish identity number (TC Kimlik No): 11 digits, the first not 0, the 10th and 11th
 * the two check digits of the official algorithm. A random 11-digit number passes one time in a hundred.
 */
export function isTcIdentityNumber(cell: string): boolean {
  const text = trimmed(cell);
  if (text.length !== 11 || text.charCodeAt(0) === 0x30) return false;
  const d: number[] = new Array(11);
  for (let i = 0; i < 11; i++) {
    const digit = text.charCodeAt(i) - 0x30;
    if (digit < 0 || digit > 9) return false;
    d[i] = digit;
  }
  const odd = d[0]! + d[2]! + d[4]! + d[6]! + d[8]!;
  const even = d[1]! + d[3]! + d[5]! + d[7]!;
  if ((((odd * 7 - even) % 10) + 10) % 10 !== d[9]) return false;
  return (odd + even + d[9]!) % 10 === d[10];
}
