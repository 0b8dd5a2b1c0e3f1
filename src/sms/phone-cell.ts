import { plainNumberText } from './number-text.js';
import { type CountryCode, msisdnOf, normaliseNumber } from './numbers.js';

// 5.32E+09, 5,32E+09 (Turkish decimal comma), 9.05E+11: a spreadsheet showed a long number in scientific
// notation and the CSV kept the rounded text. The digits it dropped cannot be recovered.
export const SCIENTIFIC = /^[+-]?\d+(?:[.,]\d+)?[eE]\+?\d+$/;

/** A phone number read from a cell, or why not: the reasons name what a spreadsheet did to it. */
export function readPhoneCell(
  raw: string,
  country: CountryCode,
): { ok: true; msisdn: string } | { ok: false; reason: string } {
  // A number pasted from a phone may carry invisible direction marks: removed, so that the checks below see it.
  const text = plainNumberText(raw).trim();
  if (text === '') return { ok: false, reason: 'no phone number' };
  const fast = msisdnOf(text, country);
  if (fast !== undefined) return { ok: true, msisdn: fast };
  if (SCIENTIFIC.test(text)) {
    return {
      ok: false,
      reason: `the spreadsheet wrote the number as ${text}, which has lost its last digits: format the column as Text and export again`,
    };
  }
  // Excel keeps a number cell's decimals in CSV: 5321234567.0 or 5321234567,00.
  const decimals = /^(\d{7,15})[.,]0+$/.exec(text);
  if (decimals) {
    const msisdn = msisdnOf(decimals[1]!, country);
    if (msisdn !== undefined) return { ok: true, msisdn };
  }
  const result = normaliseNumber(text, country);
  return result.ok ? result : { ok: false, reason: result.reason };
}
