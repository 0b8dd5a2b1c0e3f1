import type { CsvError } from '../../sms/csv.js';
import type { CountryCode } from '../../sms/numbers.js';
import { type AddressedRows, addressRows } from '../../sms/personalise.js';
import {
  type ColumnChoice,
  type FileRecipients,
  type PhoneColumnOptions,
  personalisedTable,
  type RejectedRow,
  recipientColumns,
  recipientsFromTable,
} from '../file-recipients.js';
import { personalisedColumns } from '../personalised-columns.js';
import {
  type ColumnsWanted,
  readTableFile,
  type Table,
  TableFileError,
  type TableRecord,
} from '../table-file.js';
import { withoutUnsendableRows } from '../unsendable-rows.js';

/**
 * What is asked of an uploaded file, in a form that crosses to the reading thread (a ColumnsWanted is a
 * function, which cannot): the numbers of a same-text send or a saved list (`recipients`), or the table of a
 * personalised send with its template. The reading thread builds the same ColumnsWanted from it.
 */
export interface ReadRequest {
  purpose: 'recipients' | 'personalised';
  /** The personalised send's template: its placeholders name the columns read. */
  template?: string;
  country: CountryCode;
  /** A worksheet by name; else the reader's own choice. */
  sheet?: string;
  /** The column to read the numbers from (a ColumnChoice's index), as the person picked it; else the reader's choice. */
  phoneColumn?: number;
}

/** The request's forced column, as file-recipients.ts takes it: the same for the head and the whole table. */
function columnOptionsOf(request: ReadRequest): PhoneColumnOptions {
  return request.phoneColumn === undefined ? {} : { phoneColumn: request.phoneColumn };
}

/** How a file was read, without its rows: what the confirmation says of it. */
export type TableMeta = Omit<Table, 'records'>;

/**
 * A personalised table read from a file, as far as the file alone decides it: its header, the rows that get a
 * message and what each message is made of, and the rows refused by line. What stops the whole send is in
 * `headerError` or `missingColumns`.
 */
export interface PersonalisedFile {
  columns: string[];
  numberColumn: string;
  /** Where the number column is in each record (0-based): what ReadRequest.phoneColumn takes to keep it. */
  numberColumnIndex: number;
  /** The close candidates for the number column, the chosen one first; empty when the choice was clear. */
  columnChoices: ColumnChoice[];
  /** The file's line (or sheet row) of the header. */
  headerLine?: number;
  /** The rows under the header (a title or notes above it not counted). */
  rowsRead: number;
  /** No header, a number in it, a column twice: nothing else is read. */
  headerError?: CsvError;
  /** Placeholders of the template with no column (then `addressed` is absent). */
  missingColumns: string[];
  /** The rows that get a message; its `errors` are emptied into `rejected` and `duplicates`. */
  addressed?: AddressedRows;
  /** Rows with no usable number or an empty value, in line order, with the number cell as written. */
  rejected: RejectedRow[];
  /** Rows whose number an earlier row already had. */
  duplicates: number;
  /** The number cell of each line where a value may hold a character no SMS carries (checked by the draft). */
  unsureInputs: { line: number; input: string }[];
}

export type FileReading =
  | { purpose: 'recipients'; meta: TableMeta; recipients: FileRecipients }
  | { purpose: 'personalised'; meta: TableMeta; personalised: PersonalisedFile };

/**
 * More columns than any list of people has: a file over this is one long line (a list saved with commas for
 * line ends, a stream of numbers), and finding its phone column or header would cost seconds for nothing.
 */
export const MAX_COLUMNS = 1_000;

const count = (n: number) => n.toLocaleString('en-US');

function tooWide(filename: string, records: readonly TableRecord[]): TableFileError | undefined {
  for (let r = 0; r < records.length; r++) {
    const record = records[r]!;
    if (record.fields.length <= MAX_COLUMNS) continue;
    return new TableFileError(
      `“${filename}”, line ${count(record.line)} has ${count(record.fields.length)} columns: is it one long line? A list has one person per line (at most ${count(MAX_COLUMNS)} columns): save it with one row per person and upload it again.`,
    );
  }
  return undefined;
}

/** The ColumnsWanted a request stands for: the phone column, or the phone and the template's columns. */
export function columnsWantedOf(request: ReadRequest, filename = 'The file'): ColumnsWanted {
  const wanted =
    request.purpose === 'recipients'
      ? recipientColumns(request.country, columnOptionsOf(request))
      : personalisedColumns(request.template ?? '', request.country, columnOptionsOf(request));
  return (head) => {
    // Refused before the phone column is looked for across a row of 800,000 cells.
    const wide = tooWide(filename, head);
    if (wide) throw wide;
    return wanted(head);
  };
}

/** Reads a file and makes of it what the request asks; throws TableFileError with the reason a person can act on. */
export async function readFileFor(
  filename: string,
  bytes: Uint8Array,
  request: ReadRequest,
): Promise<FileReading> {
  const table = await readTableFile(filename, bytes, {
    columnsWanted: columnsWantedOf(request, filename),
    ...(request.sheet ? { sheet: request.sheet } : {}),
  });
  return interpretTable(filename, table, request);
}

/** What the request asks of a table already read (the heavy part after reading: numbers, repeats, messages). */
export function interpretTable(filename: string, table: Table, request: ReadRequest): FileReading {
  const wide = tooWide(filename, table.records);
  if (wide) throw wide;
  const { records, ...meta } = table;
  if (request.purpose === 'recipients') {
    return {
      purpose: 'recipients',
      meta,
      recipients: recipientsFromTable(table, request.country, columnOptionsOf(request)),
    };
  }
  return {
    purpose: 'personalised',
    meta,
    personalised: personalisedFile(table, request.template ?? '', request.country, columnOptionsOf(request)),
  };
}

function personalisedFile(
  table: Table,
  template: string,
  country: CountryCode,
  options: PhoneColumnOptions,
): PersonalisedFile {
  const csv = personalisedTable(table, country, options);
  const file: PersonalisedFile = {
    columns: csv.columns,
    numberColumn: csv.numberColumn,
    numberColumnIndex: csv.numberColumnIndex,
    columnChoices: csv.columnChoices,
    ...(csv.headerLine === undefined ? {} : { headerLine: csv.headerLine }),
    // Only the rows under the header: a title or notes above it are not data. Without a header, every record
    // but the first, as the person reads the file.
    rowsRead: csv.errors.length > 0 ? Math.max(0, table.records.length - 1) : csv.rows.length,
    missingColumns: [],
    rejected: [],
    duplicates: 0,
    unsureInputs: [],
  };
  if (csv.errors.length > 0) return { ...file, headerError: csv.errors[0]! };
  const sendable = withoutUnsendableRows(template, csv.columns, csv.rows, csv.numberIndex);
  const addressed = addressRows(template, { ...csv, rows: sendable.rows }, country);
  if (addressed.missingColumns.length > 0) return { ...file, missingColumns: addressed.missingColumns };
  // Rows are in line order: the few refused ones are found by bisection, without a map of every row.
  const records = csv.rows;
  const numberAt = (line: number) => {
    let lo = 0;
    let hi = records.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const at = records[mid]!.line;
      if (at === line) return records[mid]!.fields[csv.numberIndex] ?? '';
      if (at < line) lo = mid + 1;
      else hi = mid - 1;
    }
    return '';
  };
  for (const e of addressed.errors) {
    if (e.reason.startsWith('same number as line')) file.duplicates++;
    else
      file.rejected.push({
        line: e.line,
        input: numberAt(e.line),
        reason: e.reason.replace(/^"[^"]*": /, ''),
      });
  }
  if (sendable.rejected.length > 0) {
    file.rejected.push(...sendable.rejected);
    file.rejected.sort((a, b) => a.line - b.line);
  }
  const { unsure } = addressed.septets;
  if (unsure.includes(1)) {
    for (const line of addressed.rows.lines) {
      if (unsure[line] === 1) file.unsureInputs.push({ line, input: numberAt(line) });
    }
  }
  // The errors are in `rejected` and `duplicates` now: not carried a second time.
  return { ...file, addressed: { ...addressed, errors: [] } };
}
