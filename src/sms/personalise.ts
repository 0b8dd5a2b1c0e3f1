import type { CsvError, CsvRow, ParsedCsv, TableRow } from './csv.js';
import { countPiece } from './encoding.js';
import { foldCase } from './fold.js';
import { plainNumberText } from './number-text.js';
import { type CountryCode, msisdnOf } from './numbers.js';
import { PackedStringsBuilder, type StringList } from './packed-strings.js';
import { readPhoneCell } from './phone-cell.js';
import { Repeats } from './repeats.js';
import { trimmed } from './trim.js';

export interface Envelope {
  /** Gateway form: digits, country code first. */
  to: string;
  message: string;
  /** CSV line the envelope came from. */
  line: number;
}

export interface RenderedEnvelopes {
  /** Empty whenever `missingColumns` is not: a half-filled template must never be sent. */
  envelopes: Envelope[];
  errors: CsvError[];
  /** Placeholders with no such column, in template order. */
  missingColumns: string[];
  /**
   * Each envelope's septets, by its line: GSM-7 and Turkish single shift (-1 where the table cannot carry it),
   * summed over the template's text and the row's values, so that segments are counted without a pass over
   * every message (segmentsOfCounted); `units` is the message's UTF-16 length. `surrogates` marks messages with a surrogate code unit; `unsure` lines
   * where a value on its own has a character no SMS carries (or half of one): the whole message must be
   * checked with unsendableCharacters.
   */
  septets: {
    gsm7: Int32Array;
    turkish: Int32Array;
    units: Int32Array;
    surrogates: Uint8Array;
    unsure: Uint8Array;
  };
  /**
   * What each message was joined from: the template's text around its placeholders (`literals`, one more than
   * the placeholders) and, by line, the values put between them (`values[line * (literals.length - 1) + i]`).
   * A draft can be stored as these instead of its messages (see joinMessage). addressRows packs them
   * (PackedStrings) as it goes; a list of strings serves as well (StringList).
   */
  pieces: { literals: string[]; valuesByLine: StringList };
}

/** A message from the template's text around its placeholders and a row's values: renderEnvelopes' join. */
export function joinMessage(literals: readonly string[], values: StringList, from: number): string {
  if (literals.length === 1) return literals[0]!;
  const pieces: string[] = new Array(literals.length * 2 - 1);
  for (let i = 0; i < literals.length; i++) {
    pieces[i * 2] = literals[i]!;
    if (i > 0) pieces[i * 2 - 1] = values.at(from + i - 1) ?? '';
  }
  return pieces.join('');
}

const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;

/** The template's own text, its `{{column}}` placeholders taken out: what every message has whatever the row. */
export function withoutPlaceholders(template: string): string {
  return template.replace(PLACEHOLDER, '');
}

/** Distinct `{{column}}` names in order of first use; blanks inside the braces are ignored. */
export function templatePlaceholders(template: string): string[] {
  const names = new Set<string>();
  for (const match of String(template).matchAll(PLACEHOLDER)) {
    if (match[1]) names.add(match[1]);
  }
  return [...names];
}

/**
 * The rows that get a message, by position: `to[i]`, a number in gateway form, came from line `lines[i]`. Two
 * arrays, not an object per row: `to` is the draft's recipients as it stands, and 100,000 objects less are
 * 100,000 objects less for the collector to copy while a file is read.
 */
export interface Addressees {
  readonly to: string[];
  readonly lines: Int32Array;
}

export type AddressedRows = Omit<RenderedEnvelopes, 'envelopes'> & { rows: Addressees };

/** No addressees. */
export function noAddressees(): Addressees {
  return { to: [], lines: new Int32Array(0) };
}

/** The addressees whose number `keep` accepts, in order. */
export function addresseesWhere(rows: Addressees, keep: (to: string, line: number) => boolean): Addressees {
  // Sized once and cut to length, as addressRows' list.
  const to: string[] = new Array(rows.to.length);
  const lines = new Int32Array(rows.to.length);
  let kept = 0;
  for (let i = 0; i < rows.to.length; i++) {
    if (!keep(rows.to[i]!, rows.lines[i]!)) continue;
    lines[kept] = rows.lines[i]!;
    to[kept++] = rows.to[i]!;
  }
  to.length = kept;
  return { to, lines: lines.subarray(0, kept) };
}

type TableOf = Pick<ParsedCsv, 'columns'> & { rows: readonly (CsvRow | TableRow)[]; numberIndex?: number };

/**
 * One message per CSV row, placeholders filled from that row. A row is left out, with an error
 * naming its line, when its number is unusable, repeats an earlier row's number (the person
 * would get two messages), a placeholder's value is empty, or the message comes out empty.
 */
export function renderEnvelopes(
  template: string,
  csv: TableOf,
  defaultCountry: CountryCode,
): RenderedEnvelopes {
  const { rows, ...rest } = addressRows(template, csv, defaultCountry);
  const { literals, valuesByLine } = rest.pieces;
  const placeholders = literals.length - 1;
  const envelopes: Envelope[] = new Array(rows.to.length);
  for (let r = 0; r < rows.to.length; r++) {
    const line = rows.lines[r]!;
    envelopes[r] = {
      to: rows.to[r]!,
      message: joinMessage(literals, valuesByLine, line * placeholders),
      line,
    };
  }
  return { ...rest, envelopes };
}

/**
 * renderEnvelopes without joining the messages: the rows that get one, with what each message is made of
 * (`pieces`) and its septets. A compose of 100,000 rows needs the messages only when they are sent, not to
 * count, check and confirm them; joined here they were a fifth of the memory the collector copies.
 */
export function addressRows(template: string, csv: TableOf, defaultCountry: CountryCode): AddressedRows {
  const columnOf = resolveColumns(templatePlaceholders(template), csv.columns);
  const missingColumns = [...columnOf].filter(([, column]) => column === undefined).map(([name]) => name);

  // Sized once and cut to length: 100,000 numbers pushed one by one are copied through a dozen ever larger
  // arrays, about 2.7 MB of fresh memory where this is 0.8 MB (counted in page faults, which cost 3-4 µs each
  // on this project's machines).
  const to: string[] = new Array(csv.rows.length);
  let count = 0;
  const lines = new Int32Array(csv.rows.length);
  const errors: CsvError[] = [];
  // The template compiled once into literal text and column names: a 100,000-row send renders each
  // row by concatenation, not by a regular expression.
  const parts = compileTemplate(String(template), columnOf);
  const used = [...new Set([...columnOf.values()].filter((c): c is string => c !== undefined))];
  // Rows read from a file hold their cells by position: the template's columns as indexes, once.
  const indexOf = new Map(csv.columns.map((c, i) => [c, i] as const));
  const usedIndex = used.map((c) => indexOf.get(c) ?? -1);
  const partIndex = parts.map((p, i) => (i % 2 === 1 ? (indexOf.get(p) ?? -1) : -1));
  const blankTemplate = parts.join('').trim() === '';
  const piece = new Int32Array(4);
  let literalGsm = 0;
  let literalTurkish = 0;
  let literalSurrogates = 0;
  let literalUnits = 0;
  for (let i = 0; i < parts.length; i += 2) {
    countPiece(parts[i] as string, piece);
    literalGsm = literalGsm < 0 || piece[0]! < 0 ? -1 : literalGsm + piece[0]!;
    literalTurkish = literalTurkish < 0 || piece[1]! < 0 ? -1 : literalTurkish + piece[1]!;
    literalSurrogates |= piece[3]!;
    literalUnits += (parts[i] as string).length;
  }
  const tableRows = csv.rows;
  let lastLine = 0;
  // Indexed loops, here and below: no iterator result per row while the function is not yet optimised.
  for (let r = 0; r < tableRows.length; r++) if (tableRows[r]!.line > lastLine) lastLine = tableRows[r]!.line;
  const septets = {
    gsm7: new Int32Array(lastLine + 1),
    turkish: new Int32Array(lastLine + 1),
    units: new Int32Array(lastLine + 1),
    surrogates: new Uint8Array(lastLine + 1),
    unsure: new Uint8Array(lastLine + 1),
  };
  const literals = parts.filter((_, i) => i % 2 === 0);
  const placeholders = literals.length - 1;
  // Packed as they come (PackedStringsBuilder): what crosses from a reading thread, and what a draft keeps.
  const valuesByLine = new PackedStringsBuilder((lastLine + 1) * placeholders);
  const numberIndex = csv.numberIndex ?? 0;
  // Every row's number first (or why it has none), so that the repeats are found in one sort (repeats.ts).
  const numbers: (string | undefined)[] = new Array(tableRows.length);
  const unusable = new Map<number, string>();
  for (let r = 0; r < tableRows.length; r++) {
    const row = tableRows[r]!;
    const raw = ('fields' in row ? row.fields[numberIndex] : row.number) ?? '';
    // The common number first, without the result object readPhoneCell makes; anything else through it.
    let msisdn = msisdnOf(raw, defaultCountry);
    if (msisdn === undefined) {
      const to = numberOf(raw, defaultCountry);
      if (to.ok) msisdn = to.msisdn;
      else unusable.set(r, to.reason);
    }
    numbers[r] = msisdn;
  }
  const repeats = new Repeats(numbers);
  for (let r = 0; r < tableRows.length; r++) {
    const row = tableRows[r]!;
    // Cells by position (a table's rows) or by name (parseCsv's), read without a closure per row.
    const fields = 'fields' in row ? row.fields : undefined;
    const values = fields === undefined ? (row as CsvRow).values : undefined;
    const msisdn = numbers[r];
    if (msisdn === undefined) {
      errors.push({ line: row.line, reason: unusable.get(r)! });
      continue;
    }
    const first = repeats.firstOrAdd(r, row.line);
    if (first !== undefined) {
      errors.push({ line: row.line, reason: `same number as line ${first}` });
      continue;
    }
    let empty: string | undefined;
    for (let u = 0; u < used.length; u++) {
      const value = (fields ? fields[usedIndex[u]!] : values![used[u]!]) ?? '';
      if (trimmed(value) === '') {
        empty = used[u];
        break;
      }
    }
    if (empty !== undefined) {
      errors.push({ line: row.line, reason: `column "${empty}" is empty` });
      continue;
    }
    let gsm = literalGsm;
    let turkish = literalTurkish;
    let unsure = 0;
    let surrogates = literalSurrogates;
    let units = literalUnits;
    for (let i = 1; i < parts.length; i += 2) {
      const value = (fields ? fields[partIndex[i]!] : values![parts[i] as string]) ?? '';
      valuesByLine.set(row.line * placeholders + (i - 1) / 2, value);
      countPiece(value, piece);
      gsm = gsm < 0 || piece[0]! < 0 ? -1 : gsm + piece[0]!;
      turkish = turkish < 0 || piece[1]! < 0 ? -1 : turkish + piece[1]!;
      if (piece[2] === 0) unsure = 1;
      surrogates |= piece[3]!;
      units += value.length;
    }
    // With a placeholder, its value is not blank, so neither is the message; without one, it is the template.
    if (used.length === 0 && blankTemplate) {
      errors.push({ line: row.line, reason: 'the message is empty' });
      continue;
    }
    lines[count] = row.line;
    to[count++] = msisdn;
    septets.gsm7[row.line] = gsm;
    septets.turkish[row.line] = turkish;
    septets.units[row.line] = units;
    septets.surrogates[row.line] = surrogates;
    septets.unsure[row.line] = unsure;
  }
  to.length = count;
  return {
    rows: missingColumns.length > 0 ? noAddressees() : { to, lines: lines.subarray(0, count) },
    errors,
    missingColumns,
    septets,
    pieces: { literals, valuesByLine: valuesByLine.done() },
  };
}

/** [literal, column, literal, column, …, literal]; a placeholder with no column stays as written. */
function compileTemplate(template: string, columnOf: ReadonlyMap<string, string | undefined>): string[] {
  const parts: string[] = [];
  let literal = '';
  let last = 0;
  for (const match of template.matchAll(PLACEHOLDER)) {
    literal += template.slice(last, match.index);
    last = match.index + match[0].length;
    const column = match[1] ? columnOf.get(match[1]) : undefined;
    if (column === undefined) {
      literal += match[0];
      continue;
    }
    parts.push(literal, column);
    literal = '';
  }
  parts.push(literal + template.slice(last));
  return parts;
}

function numberOf(raw: string, defaultCountry: CountryCode) {
  if (raw.trim() === '') return { ok: false as const, reason: 'no phone number' };
  const read = readPhoneCell(raw, defaultCountry);
  // Shown without the invisible marks a phone left in it: an override would turn the reason around.
  return read.ok ? read : { ok: false as const, reason: `"${plainNumberText(raw).trim()}": ${read.reason}` };
}

// Exact name first; otherwise ignore case, Turkish I's included, so {{Name}} finds "name".
export function resolveColumns(placeholders: readonly string[], columns: readonly string[]) {
  const byFolded = new Map<string, string>();
  for (const column of columns) {
    if (column !== '' && !byFolded.has(foldCase(column))) byFolded.set(foldCase(column), column);
  }
  const columnOf = new Map<string, string | undefined>();
  for (const name of placeholders) {
    columnOf.set(name, columns.includes(name) ? name : byFolded.get(foldCase(name)));
  }
  return columnOf;
}
