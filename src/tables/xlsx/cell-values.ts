import { type CellFormats, displayedNumber, GENERAL, isGeneral, type NumberFormat } from './number-format.js';
import type { SharedStrings } from './shared-strings.js';
import { errorText, logicalText } from './turkish-values.js';
import { decodeXml, unescapeText } from './xml.js';

/** How a sheet's cells become text: its workbook's shared strings, cell formats and date system. */
export interface CellValues {
  strings: SharedStrings;
  /** Whether a style shows numbers in the General format (a whole number then is its digits). */
  isGeneral(style: number): boolean;
  /** A number cell's <v> text as its style shows it. */
  number(raw: string, style: number): string;
  /** A cell of another type than n and s: `type` and `second` are t="…"'s first two bytes. */
  typed(type: number, second: number, raw: string, style: number): string;
}

export function cellValues(strings: SharedStrings, formats: CellFormats, date1904: boolean): CellValues {
  // Each style's format, null for General, looked up once: a sheet of 100,000 cells has a handful of styles.
  const byStyle: (NumberFormat | null | undefined)[] = [];
  const formatOf = (style: number): NumberFormat | null => {
    let format = byStyle[style];
    if (format === undefined) {
      const found = formats.of(style);
      format = isGeneral(found) ? null : found;
      byStyle[style] = format;
    }
    return format;
  };
  const number = (raw: string, style: number): string => {
    const trimmed = raw.trim();
    const value = Number(trimmed);
    if (trimmed === '' || Number.isNaN(value)) return trimmed;
    return displayedNumber(value, formatOf(style) ?? GENERAL, date1904);
  };
  return {
    strings,
    isGeneral: (style) => formatOf(style) === null,
    number,
    typed(type, second, raw, style) {
      if (type === 0x62) return logicalText(raw.trim()); // b
      if (type === 0x65) return errorText(decodeXml(raw)); // e
      if (type === 0x73 && second === 0x74) return unescapeText(decodeXml(raw)).trim(); // str
      if (type === 0x64) return isoDate(decodeXml(raw).trim(), formatOf(style), date1904); // d
      return number(raw, style);
    },
  };
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}(?:\.\d+)?))?)?/;
const DAY_MS = 86_400_000;
/** 1899-12-30, day 0 of Excel's 1900 date system (past its leap-year bug, which only moves dates before March 1900). */
const EPOCH_1900 = Date.UTC(1899, 11, 30);
const EPOCH_1904 = Date.UTC(1904, 0, 1);

/**
 * A t="d" cell (an ISO 8601 date, the format's own date type): in its style's format when it has one, as Excel
 * turns it into a serial date; else the day it names, read from the text (a Date would read a time without a zone
 * in the server's zone, a day off east of UTC). Anything that is not a date as it is written.
 */
function isoDate(text: string, format: NumberFormat | null, date1904: boolean): string {
  const match = ISO_DATE.exec(text);
  if (!match) return text;
  if (!format) return text.slice(0, 10);
  const [, year, month, day, hours, minutes, seconds] = match;
  const time = Date.UTC(
    Number(year),
    Number(month) - 1,
    Number(day),
    Number(hours ?? 0),
    Number(minutes ?? 0),
    Number(seconds ?? 0),
  );
  const serial = (time - (date1904 ? EPOCH_1904 : EPOCH_1900)) / DAY_MS;
  return displayedNumber(serial, format, date1904);
}
