import type { CsvError, TableRow } from '../sms/csv.js';
import { foldCase } from '../sms/fold.js';
import { type CountryCode, msisdnOf } from '../sms/numbers.js';
import { type PackedNumbers, withRecipientsOf } from '../sms/packed-numbers.js';
import { readPhoneCell } from '../sms/phone-cell.js';
import { Repeats } from '../sms/repeats.js';
import { looksLikeNumber } from './cell-kinds.js';
import { findHeaderRow } from './header-row.js';
import {
  CHOICE_ROWS,
  type ColumnChoice,
  choosePhoneColumn,
  columnLabel,
  locatePhoneColumn,
  type PhoneColumnOptions,
} from './phone-column.js';
import { type ColumnsWanted, HEAD_RECORDS, type Table, type TableRecord } from './table-file.js';

/** A row of a file that gives no recipient, with the line it is on and why. */
export interface RejectedRow {
  line: number;
  /** The cell (or row) as it was in the file. */
  input: string;
  reason: string;
}

export interface FileRecipients {
  /** Rows of data read: the records under the header (or all of them without one); rows above it not counted. */
  rowsRead: number;
  /** Unique numbers in gateway form, in file order. */
  recipients: string[];
  /**
   * The same numbers packed, as a reading from the reading thread has them (worker/wire.ts): there
   * `recipients` is made of these when first read, and a draft keeps them packed (src/sms/packed-numbers.ts).
   */
  packed?: PackedNumbers;
  /** Rows whose number an earlier row already had. */
  duplicates: number;
  rejected: RejectedRow[];
  /** The column the numbers were read from: its header, or its position ("column 3"). */
  numberColumn: string;
  /** Where that column is in each record's fields (0-based): what `{ phoneColumn }` takes to keep it. */
  numberColumnIndex: number;
  /**
   * When more than one column could hold the numbers (close shares of mobile numbers), every such column, the
   * chosen one first, for the person to pick another in the confirmation: pass its `index` back as
   * `{ phoneColumn }` to recipientColumns and recipientsFromTable. Empty when the choice was clear.
   */
  columnChoices: ColumnChoice[];
  hasHeader: boolean;
  /** The file's line (or sheet row) of the header; records above it (a title, notes) are skipped. */
  headerLine?: number;
}

/** `recipients` with its numbers packed: `recipients` made of them when first read (and kept from then on). */
export function withPackedNumbers(
  recipients: Omit<FileRecipients, 'recipients' | 'packed'>,
  packed: PackedNumbers,
): FileRecipients {
  return withRecipientsOf({ ...recipients, packed } as FileRecipients, packed, 'packed');
}

export { phoneColumnByName } from './column-names.js';
export type { ColumnChoice, PhoneColumnOptions } from './phone-column.js';

/**
 * What recipientsFromTable reads of a file: its phone column, found in the first records. `options` must be
 * the ones recipientsFromTable is given, so that both read the same column.
 */
export function recipientColumns(country: CountryCode, options: PhoneColumnOptions = {}): ColumnsWanted {
  return (head) => [locatePhoneColumn(head, country, options).index];
}

/** Recipients of a file for a same-text send or a saved list: one number a row, from the phone column. */
export function recipientsFromTable(
  table: Table,
  country: CountryCode,
  options: PhoneColumnOptions = {},
): FileRecipients {
  const { headerIndex, dataIndex, index, choices } = locatePhoneColumn(table.records, country, options);
  const header = table.records[headerIndex];
  // The rows of data, read in place: no copy of a list of 100,000.
  const rows = table.records;
  const first = dataIndex;
  const numberColumn = header?.fields[index]?.trim() || columnLabel(index);

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
          input: cell === '' ? row.fields.filter((f) => f !== '').join(' ') : cell,
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
  return {
    rowsRead: rows.length - first,
    recipients,
    duplicates,
    rejected,
    numberColumn,
    numberColumnIndex: index,
    columnChoices: choices,
    hasHeader: header !== undefined,
    ...(header ? { headerLine: header.line } : {}),
  };
}

/**
 * A personalised table from a file: a header row must name the columns (the template refers to them). The
 * header and the phone column are found as for a same-text send (header-row.ts, phone-column.ts); with no
 * header found, a first record without a number is taken as one, as before. Rows are checked later by
 * renderEnvelopes.
 */
export interface FileTable {
  columns: string[];
  numberColumn: string;
  /** Where the number is in each row's fields. */
  numberIndex: number;
  /** The same as numberIndex, named as in FileRecipients: what `{ phoneColumn }` takes to keep the column. */
  numberColumnIndex: number;
  /** The close candidates for the phone column, the chosen one first; empty when clear (see FileRecipients). */
  columnChoices: ColumnChoice[];
  /** The file's line (or sheet row) of the header; the records above it are not rows. */
  headerLine?: number;
  /** The records under the header. */
  rows: readonly TableRow[];
  errors: CsvError[];
}

function tableError(line: number, reason: string, columns: string[] = []): FileTable {
  return {
    columns,
    numberColumn: '',
    numberIndex: 0,
    numberColumnIndex: 0,
    columnChoices: [],
    rows: [],
    errors: [{ line, reason }],
  };
}

/** `options` must be the ones personalisedColumns is given, so that both read the same column. */
export function personalisedTable(
  table: { records: readonly TableRecord[] },
  country: CountryCode,
  options: PhoneColumnOptions = {},
): FileTable {
  const { records } = table;
  const first = records[0];
  if (!first) return tableError(1, 'the file has no rows');
  const head = records.length > HEAD_RECORDS ? records.slice(0, HEAD_RECORDS) : records;
  const found = findHeaderRow(head, country);
  let headerIndex = found.header;
  if (headerIndex < 0) {
    if (found.data > 0) {
      return tableError(
        records[found.data]!.line,
        'the data starts here with no row above it naming the columns: for a personalised send a header row must name them, e.g. Telefon;Ad',
      );
    }
    if (first.fields.some((f) => looksLikeNumber(f, country))) {
      return tableError(
        first.line,
        'the first row has a phone number: for a personalised send the first row must name the columns, e.g. Telefon;Ad',
      );
    }
    // No number anywhere to find the data by: the first record names the columns, as it always did.
    headerIndex = 0;
  }
  const header = records[headerIndex]!;
  const below = head.slice(headerIndex + 1, headerIndex + 1 + CHOICE_ROWS);
  const { index, choices } = choosePhoneColumn(header, below, country, options);
  const columns = header.fields.map((f, i) => f.trim() || columnLabel(i));
  // A number found under a column the header left blank still gets a name to show.
  while (columns.length <= index) columns.push(columnLabel(columns.length));
  const seen = new Set<string>();
  for (const column of columns) {
    const key = foldCase(column);
    if (seen.has(key)) {
      return tableError(header.line, `the column “${column}” appears twice in the header row`, columns);
    }
    seen.add(key);
  }
  return {
    columns,
    numberColumn: columns[index]!,
    numberIndex: index,
    numberColumnIndex: index,
    columnChoices: choices,
    headerLine: header.line,
    // The file's records themselves, the number found by index: no copy of 100,000 rows.
    rows: records.slice(headerIndex + 1),
    errors: [],
  };
}
