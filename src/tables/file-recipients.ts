import type { CsvError, TableRow } from '../sms/csv.js';
import { foldCase } from '../sms/fold.js';
import { type CountryCode, msisdnOf } from '../sms/numbers.js';
import { readPhoneCell, SCIENTIFIC } from '../sms/phone-cell.js';
import { Repeats } from '../sms/repeats.js';
import type { ColumnsWanted, Table, TableRecord } from './table-file.js';

/** A row of a file that gives no recipient, with the line it is on and why. */
export interface RejectedRow {
  line: number;
  /** The cell (or row) as it was in the file. */
  input: string;
  reason: string;
}

export interface FileRecipients {
  /** Rows of data read (the header row not counted). */
  rowsRead: number;
  /** Unique numbers in gateway form, in file order. */
  recipients: string[];
  /** Rows whose number an earlier row already had. */
  duplicates: number;
  rejected: RejectedRow[];
  /** The column the numbers were read from: its header, or its position. */
  numberColumn: string;
  hasHeader: boolean;
}

// Header names that mark the phone column, folded (Turkish I's to i, lower case) and without blanks and
// punctuation: "Cep Telefonu", "GSM NO", "TELEFON", "Tel.", "MSİSDN".
const NUMBER_HEADERS = new Set(
  [
    'number phonenumber phoneno phone',
    'msisdn',
    'mobile mobileno mobilenumber mobilephone',
    'gsm gsmno gsmnumarasi',
    'tel telno telefon telefonno telefonnumarasi',
    'numara',
    'cep cepno ceptel ceptelefonu ceptelefonno ceptelno',
  ].flatMap((names) => names.split(' ')),
);
// A header containing one of these ("Müşteri Telefonu", "Veli Cep Tel") names a phone column too.
const NUMBER_STEMS = ['telefon', 'gsm', 'phone', 'mobile', 'msisdn', 'numara', 'ceptel'];

function headerKey(name: string): string {
  return foldCase(name).replace(/[\s_.\-/:#()]/gu, '');
}

/** Index of the column whose name says it holds phone numbers, or -1. */
export function phoneColumnByName(names: readonly string[]): number {
  const keys = names.map(headerKey);
  const exact = keys.findIndex((k) => NUMBER_HEADERS.has(k));
  if (exact >= 0) return exact;
  return keys.findIndex((k) => NUMBER_STEMS.some((stem) => k.includes(stem)));
}

function looksLikeNumber(cell: string, country: CountryCode): boolean {
  return (
    msisdnOf(cell, country) !== undefined || SCIENTIFIC.test(cell.trim()) || /^\+?[\d\s\-().]{7,}$/.test(cell)
  );
}

/**
 * Whether the first record names the columns: none of its cells is a number, and either a cell names the
 * phone column or the rows below have numbers where it has words.
 */
function hasHeaderRow(records: readonly TableRecord[], country: CountryCode): boolean {
  const first = records[0];
  if (!first) return false;
  if (first.fields.some((f) => looksLikeNumber(f, country))) return false;
  if (phoneColumnByName(first.fields) >= 0) return true;
  return records.slice(1, 20).some((r) => r.fields.some((f) => looksLikeNumber(f, country)));
}

/** The column with the most numbers in the first rows: a file whose header says nothing about phones. */
function phoneColumnByContent(records: readonly TableRecord[], country: CountryCode): number {
  const hits: number[] = [];
  for (const record of records.slice(0, 50)) {
    record.fields.forEach((f, i) => {
      if (looksLikeNumber(f, country)) hits[i] = (hits[i] ?? 0) + 1;
    });
  }
  let best = 0;
  for (let i = 0; i < hits.length; i++) if ((hits[i] ?? 0) > (hits[best] ?? 0)) best = i;
  return best;
}

function columnLabel(index: number): string {
  return `column ${index + 1}`;
}

/**
 * Whether a file's first record names its columns, and which column holds the numbers: by its name, else by
 * the most numbers in the first 50 rows. Decided by the first records alone (see HEAD_RECORDS).
 */
function phoneColumnOf(
  records: readonly TableRecord[],
  country: CountryCode,
): { header: TableRecord | undefined; index: number } {
  const header = hasHeaderRow(records, country) ? records[0] : undefined;
  let index = header ? phoneColumnByName(header.fields) : -1;
  if (index < 0) index = phoneColumnByContent(header ? records.slice(1, 51) : records, country);
  return { header, index };
}

/** What recipientsFromTable reads of a file: its phone column, found in the first records. */
export function recipientColumns(country: CountryCode): ColumnsWanted {
  return (head) => [phoneColumnOf(head, country).index];
}

/** Recipients of a file for a same-text send or a saved list: one number a row, from the phone column. */
export function recipientsFromTable(table: Table, country: CountryCode): FileRecipients {
  const { header, index } = phoneColumnOf(table.records, country);
  const hasHeader = header !== undefined;
  // The rows under the header, read in place: no copy of a list of 100,000.
  const rows = table.records;
  const first = hasHeader ? 1 : 0;
  const numberColumn = header?.fields[index] || columnLabel(index);

  // Every row's number first, so that the repeats are found in one sort (repeats.ts). Sized once and cut to
  // length, as addressRows' lists (personalise.ts).
  const numbers: string[] = new Array(rows.length - first);
  let count = 0;
  const rejected: RejectedRow[] = [];
  // Indexed: no iterator result per row before the loop is optimised.
  for (let r = first; r < rows.length; r++) {
    const row = rows[r]!;
    const cell = row.fields[index] ?? '';
    // The common cell first, without a result object per row; readPhoneCell says why for the rest.
    let msisdn = msisdnOf(cell, country);
    if (msisdn === undefined) {
      const read = readPhoneCell(cell, country);
      if (!read.ok) {
        rejected.push({
          line: row.line,
          input: cell === '' ? row.fields.join(' ') : cell,
          reason: read.reason,
        });
        continue;
      }
      msisdn = read.msisdn;
    }
    numbers[count++] = msisdn;
  }
  numbers.length = count;
  // Without a repeat, the numbers are the recipients as they stand.
  const repeats = new Repeats(numbers);
  let recipients = numbers;
  if (repeats.any) {
    recipients = new Array(count);
    let unique = 0;
    for (let i = 0; i < count; i++) if (!repeats.askedBefore(i)) recipients[unique++] = numbers[i]!;
    recipients.length = unique;
  }
  const duplicates = count - recipients.length;
  return { rowsRead: rows.length - first, recipients, duplicates, rejected, numberColumn, hasHeader };
}

/**
 * A personalised table from a file: the first row must name the columns (the template refers to them);
 * the phone column is found by name, else by content. Rows are checked later by renderEnvelopes.
 */
export interface FileTable {
  columns: string[];
  numberColumn: string;
  /** Where the number is in each row's fields. */
  numberIndex: number;
  rows: readonly TableRow[];
  errors: CsvError[];
}

export function personalisedTable(
  table: { records: readonly TableRecord[] },
  country: CountryCode,
): FileTable {
  const header = table.records[0];
  if (!header) {
    return {
      columns: [],
      numberColumn: '',
      numberIndex: 0,
      rows: [],
      errors: [{ line: 1, reason: 'the file has no rows' }],
    };
  }
  if (header.fields.some((f) => looksLikeNumber(f, country))) {
    return {
      columns: [],
      numberColumn: '',
      numberIndex: 0,
      rows: [],
      errors: [
        {
          line: header.line,
          reason:
            'the first row has a phone number: for a personalised send the first row must name the columns, e.g. Telefon;Ad',
        },
      ],
    };
  }
  const columns = header.fields.map((f, i) => f.trim() || columnLabel(i));
  const seen = new Map<string, string>();
  for (const column of columns) {
    const key = foldCase(column);
    const earlier = seen.get(key);
    if (earlier !== undefined) {
      return {
        columns,
        numberColumn: '',
        numberIndex: 0,
        rows: [],
        errors: [{ line: header.line, reason: `the column “${column}” appears twice in the first row` }],
      };
    }
    seen.set(key, column);
  }
  const records = table.records.slice(1);
  let index = phoneColumnByName(columns);
  if (index < 0) index = phoneColumnByContent(records, country);
  const numberColumn = columns[index] ?? '';
  // The file's records themselves, the number found by index: no copy of 100,000 rows.
  return { columns, numberColumn, numberIndex: Math.max(0, index), rows: records, errors: [] };
}
