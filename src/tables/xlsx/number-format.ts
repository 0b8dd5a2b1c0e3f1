/**
 * The text a spreadsheet shows for a number, so that a personalised message says "15.03.2024" where the
 * sheet shows a date, not its serial 45366. Format codes are interpreted by numfmt (Excel's format
 * language, its rounding, its 1900 leap-year bug, Turkish names); this module adds what numfmt leaves to
 * its caller: the 1904 date system, the locale's date separator, the product's rule for whole numbers,
 * and a cache so that a 100,000-row sheet parses each code once.
 */
import { format as formatWithNumfmt, isDateFormat, isValidFormat, type Token, tokenize } from 'numfmt';

export { readCellFormats } from './styles.js';

export interface NumberFormat {
  id: number;
  code: string;
}

/** Excel's format 0, what a cell without another shows. */
export const GENERAL: NumberFormat = Object.freeze({ id: 0, code: 'General' });

export interface CellFormats {
  of(styleIndex: number): NumberFormat;
}

type Formatter = (value: number, date1904: boolean) => string;

/**
 * Turkish conventions for every locale-dependent part. Dates outside Excel's range (before 1900, after
 * 9999) show as the number, where Excel would fill the cell with `#`.
 */
const TURKISH = Object.freeze({ locale: 'tr', dateSpanLarge: false, dateErrorNumber: true });

/** Serial of 1904-01-01 in the 1900 system, the day the 1904 system counts from. */
const DAYS_FROM_1900_TO_1904_SYSTEM = 1462;

/** Distinct codes kept parsed; a file with more (made to exhaust memory) only costs re-parsing. */
const MAX_CACHED_CODES = 1000;
const formatters = new Map<string, Formatter>();

/** The text Excel shows for a numeric cell, Turkish conventions for locale-dependent parts. */
export function displayedNumber(value: number, format: NumberFormat, date1904: boolean): string {
  let formatter = formatters.get(format.code);
  if (!formatter) {
    formatter = compile(format.code);
    if (formatters.size >= MAX_CACHED_CODES) formatters.clear();
    formatters.set(format.code, formatter);
  }
  return formatter(value, date1904);
}

export function isGeneral(format: NumberFormat): boolean {
  return isGeneralCode(format.code);
}

function isGeneralCode(code: string): boolean {
  const trimmed = code.trim();
  return trimmed === '' || trimmed.toLowerCase() === 'general';
}

function compile(code: string): Formatter {
  // A number in a text-formatted cell was typed before the format was set; Excel shows it as General.
  if (isGeneralCode(code) || code.trim() === '@') return generalText;
  if (code === '0') return wholeNumberText;
  const pattern = withLocaleDateSeparator(code);
  // A code Excel would not have written (hand-made or damaged file): the number is still worth showing.
  if (!isValidFormat(pattern)) return generalText;
  const shown = memoised(pattern);
  if (!isDateFormat(pattern)) return shown;
  // Elapsed time ([h]:mm) counts from zero in both date systems; only calendar dates move.
  if (tokenize(pattern).some((token) => token.type === 'DURATION')) return shown;
  return (value, date1904) => {
    if (value < 0) return generalText(value);
    return shown(date1904 ? value + DAYS_FROM_1900_TO_1904_SYSTEM : value);
  };
}

/** Values seen per code: a column of appointment dates or prices repeats a few values many times. */
const MAX_MEMOISED_VALUES = 4096;

function memoised(pattern: string): (value: number) => string {
  const texts = new Map<number, string>();
  return (value) => {
    let text = texts.get(value);
    if (text === undefined) {
      text = formatWithNumfmt(pattern, value, TURKISH);
      if (texts.size >= MAX_MEMOISED_VALUES) texts.clear();
      texts.set(value, text);
    }
    return text;
  };
}

/**
 * Excel's General, except that a whole number shows all its digits: a phone number or an account number
 * read as a number must reach the message as 5321234567, never as 5,32123E+09 (Excel does that only once
 * a number no longer fits an 11-character column). Other numbers go as Excel's General shows them: a
 * decimal comma and at most 10 significant digits.
 */
function generalText(value: number): string {
  // Up to 1e21 JavaScript writes a whole number in digits; past 2^53 they are the double's, as Excel stores them.
  if (Number.isInteger(value) && Math.abs(value) < 1e21) return String(value);
  const shortest = String(value);
  // The shortest round-trip text of a number that fits General's 11 characters is what General shows;
  // the rest (rounding to fit, exponents) is numfmt's. The property test holds the two equal.
  if (shortest.length <= 11 && !shortest.includes('e') && Number.isFinite(value)) {
    return shortest.replace('.', ',');
  }
  return formatWithNumfmt('General', value, TURKISH);
}

/** Format "0": Excel rounds to 15 significant digits first, then half away from zero. */
function wholeNumberText(value: number): string {
  const magnitude = Math.abs(value);
  // Excel shows 15 significant digits: near that limit (and beyond) its rounding is numfmt's to mimic.
  if (!(magnitude < 1e14)) return formatWithNumfmt('0', value, TURKISH);
  if (Number.isInteger(value)) return String(value);
  const rounded = Math.round(Number(magnitude.toPrecision(15)));
  return value < 0 && rounded !== 0 ? `-${rounded}` : String(rounded);
}

/**
 * Excel replaces a `/` in a date code with the system's date separator, so a Turkish Excel shows
 * `dd/mm/yyyy` as 15.03.2024; a quoted or escaped slash (`dd\/mm`) stays, and so does the fraction bar
 * of a number section (`# ?/?`).
 */
function withLocaleDateSeparator(code: string): string {
  if (!code.includes('/')) return code;
  let tokens: Token[];
  try {
    tokens = tokenize(code);
  } catch {
    return code;
  }
  if (tokens.map((token) => token.raw).join('') !== code) return code;
  const sections: Token[][] = [[]];
  for (const token of tokens) {
    if (token.type === 'BREAK') sections.push([]);
    else sections.at(-1)!.push(token);
  }
  return sections
    .map((section) => {
      if (!section.some((token) => token.type === 'DATETIME')) return rawText(section);
      return section
        .map((token, index) =>
          token.type === 'SLASH' && !isLowercaseAmPm(section, index) ? '\\.' : token.raw,
        )
        .join('');
    })
    .join(';');
}

function rawText(tokens: Token[]): string {
  return tokens.map((token) => token.raw).join('');
}

/** `a/p`, which numfmt leaves as text: its slash is not a date separator. */
function isLowercaseAmPm(section: Token[], slashIndex: number): boolean {
  return (
    section[slashIndex - 1]?.raw.toLowerCase() === 'a' && section[slashIndex + 1]?.raw.toLowerCase() === 'p'
  );
}
