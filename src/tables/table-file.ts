import { Readable } from 'node:stream';
import type ExcelJS from 'exceljs';
import { readTextTable } from './text-file.js';

/**
 * Files of recipients as offices export them: .csv (comma, semicolon or tab, as Excel writes in a Turkish
 * locale), .tsv, .txt (one number per line) and .xlsx. Text files are read in text-file.ts, their encoding found
 * in text-encoding.ts. What comes out is rows of cells with the line (or sheet row) each came from; finding the
 * phone column and reading numbers is in file-recipients.ts.
 */
export type TableFileKind = 'csv' | 'tsv' | 'txt' | 'xlsx';

/** Slack takes files of at most 10 MB in a file_input; a file the bot downloads is refused beyond that. */
export const MAX_TABLE_FILE_BYTES = 10 * 1024 * 1024;

/** A file that cannot be read as a table, with what to do about it, for the person who uploaded it. */
export class TableFileError extends Error {
  override name = 'TableFileError';
}

export interface TableRecord {
  /** 1-based line of the file (text) or row of the sheet (xlsx) the record starts on. */
  line: number;
  fields: string[];
}

/**
 * The columns a reader is asked for, decided from the file's first records (at most HEAD_RECORDS of them, every
 * cell read): the field indexes to read in the records after those, or undefined for every column. A reader
 * may then leave the other cells of a later record empty (''), except in a record where a wanted cell is
 * empty or missing, which it reads whole (a row without a number is shown as it stands). A send from a
 * sheet of ten columns reads two; what it shows and sends is the same as from the whole sheet.
 */
export type ColumnsWanted = (head: readonly TableRecord[]) => readonly number[] | undefined;

/** How many records a ColumnsWanted is shown: the header and more than the 50 rows a phone column is found in. */
export const HEAD_RECORDS = 64;

export interface ReadOptions {
  /** Read only these columns past the first records; so far the .xlsx reader does (text is split whole). */
  columnsWanted?: ColumnsWanted;
  /** The worksheet to read by name; else the active tab when it is a visible worksheet, else the first visible one. */
  sheet?: string;
}

export interface Table {
  kind: TableFileKind;
  records: TableRecord[];
  /** How text was decoded, e.g. "UTF-8", "Windows-1254"; undefined for xlsx. */
  encoding?: string;
  /** The separator of a text file, as people name it. */
  delimiter?: 'comma' | 'semicolon' | 'tab' | 'none';
  /** The sheet read, for xlsx. */
  sheet?: string;
  /** A workbook's visible worksheets in tab order, so that the person can pick another than `sheet`. */
  sheets?: string[];
}

const EXTENSIONS: Record<string, TableFileKind> = { csv: 'csv', tsv: 'tsv', txt: 'txt', xlsx: 'xlsx' };
const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];

function startsWith(bytes: Uint8Array, magic: readonly number[]): boolean {
  return magic.every((b, i) => bytes[i] === b);
}

/**
 * The kind of a file by its name, checked against its bytes: Slack's `filetypes` is only a hint to the
 * picker, so a renamed .xls, a PDF or an image is refused here with a reason.
 */
export function tableFileKindOf(filename: string, bytes: Uint8Array): TableFileKind {
  const extension = /\.([A-Za-z0-9]+)$/.exec(filename)?.[1]?.toLowerCase() ?? '';
  const kind = EXTENSIONS[extension];
  if (!kind) {
    const hint = extension === 'xls' ? ' Save it from Excel as .xlsx or CSV.' : '';
    throw new TableFileError(
      `“${filename}” is not a file of recipients this app reads: use .csv, .tsv, .txt (one number per line) or .xlsx.${hint}`,
    );
  }
  if (bytes.length === 0) throw new TableFileError(`“${filename}” is empty.`);
  if (bytes.length > MAX_TABLE_FILE_BYTES) {
    throw new TableFileError(`“${filename}” is larger than 10 MB, the most a Slack file input takes.`);
  }
  const zip = startsWith(bytes, ZIP_MAGIC);
  if (kind === 'xlsx' && !zip) {
    throw new TableFileError(
      `“${filename}” is not an Excel workbook (.xlsx) inside: save it again from Excel.`,
    );
  }
  if (kind !== 'xlsx' && (zip || looksBinary(bytes))) {
    throw new TableFileError(
      `“${filename}” is not text inside${zip ? ' (it looks like an Excel workbook: name it .xlsx)' : ''}. Export the sheet as CSV.`,
    );
  }
  return kind;
}

function looksBinary(bytes: Uint8Array): boolean {
  // UTF-16 text has NULs in every other byte, but it starts with its BOM.
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) return false;
  const end = Math.min(bytes.length, 8192);
  for (let i = 0; i < end; i++) if (bytes[i] === 0) return true;
  return false;
}

/** Reads a file into records; throws TableFileError with a reason a person can act on. */
export async function readTableFile(
  filename: string,
  bytes: Uint8Array,
  options: ReadOptions = {},
): Promise<Table> {
  const kind = tableFileKindOf(filename, bytes);
  if (kind === 'xlsx') return readXlsx(filename, bytes, options.columnsWanted);
  return readTextTable(kind, bytes);
}

async function readXlsx(
  filename: string,
  bytes: Uint8Array,
  columnsWanted: ColumnsWanted | undefined,
): Promise<Table> {
  // The cells alone, found in the sheet's bytes (xlsx-reader.ts); exceljs for anything that reader does not know.
  const { readFirstSheet, XlsxTooLargeError } = await import('./xlsx-reader.js');
  try {
    const fast = readFirstSheet(bytes, { columnsWanted });
    if (fast) return { kind: 'xlsx', records: fast.records, sheet: fast.sheet };
  } catch (error) {
    if (error instanceof XlsxTooLargeError) {
      throw new TableFileError(`“${filename}” unpacks to more than 200 MB: it is not a list of recipients.`);
    }
    throw error;
  }
  return readXlsxWithExceljs(filename, bytes);
}

/**
 * exceljs' streaming reader: rows as they are unzipped, shared strings cached, styles skipped. It refuses about one
 * valid workbook in a hundred to four hundred at random (seen: 5 of 400 fresh workbooks, each read at the second
 * attempt; 1 of 400 on 2026-11-27, "Cannot read properties of undefined (reading 'sheets')": a sheet reached
 * before the workbook's own part was read, a race in its reader), so a refusal is tried up to twice more before
 * the file is called unreadable. Twice in a row, under a full test run's load, was seen once (2026-11-27).
 */
export async function readXlsxWithExceljs(filename: string, bytes: Uint8Array): Promise<Table> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await readXlsxOnce(filename, bytes);
    } catch (error) {
      if (!(error instanceof TableFileError) || attempt === EXCELJS_ATTEMPTS) throw error;
    }
  }
}

const EXCELJS_ATTEMPTS = 3;

async function readXlsxOnce(filename: string, bytes: Uint8Array): Promise<Table> {
  const records: TableRecord[] = [];
  let sheet: string | undefined;
  // exceljs is large: it is loaded when the first spreadsheet is read, not at start.
  const { default: excel } = await import('exceljs');
  try {
    // The streaming reader: rows as they are unzipped, shared strings cached, styles skipped.
    const reader = new excel.stream.xlsx.WorkbookReader(Readable.from([Buffer.from(bytes)]), {
      sharedStrings: 'cache',
      hyperlinks: 'ignore',
      styles: 'ignore',
      worksheets: 'emit',
      entries: 'emit',
    });
    for await (const worksheet of reader) {
      sheet = (worksheet as unknown as { name?: string }).name;
      for await (const row of worksheet as AsyncIterable<ExcelJS.Row>) {
        const values = row.values as unknown[];
        const fields: string[] = [];
        for (let c = 1; c < values.length; c++) fields.push(cellText(values[c]));
        while (fields.length > 0 && fields[fields.length - 1] === '') fields.pop();
        if (fields.length > 0) records.push({ line: row.number, fields });
      }
      // The first sheet only: a workbook's other sheets are notes, totals, pivots.
      break;
    }
  } catch (error) {
    if (error instanceof TableFileError) throw error;
    throw new TableFileError(
      `“${filename}” cannot be read as an Excel workbook: save it again from Excel as .xlsx.`,
    );
  }
  return { kind: 'xlsx', records, sheet };
}

/** A cell as text: numbers as their digits (5321234567, never 5.32E+09), formulas by their result. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number') {
    if (Number.isInteger(value) && Math.abs(value) < 1e21) return value.toFixed(0);
    return String(value);
  }
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value === 'object') {
    const v = value as {
      result?: unknown;
      text?: unknown;
      richText?: { text: string }[];
      error?: string;
    };
    if ('result' in v) return cellText(v.result);
    if (Array.isArray(v.richText))
      return v.richText
        .map((r) => r.text)
        .join('')
        .trim();
    if (typeof v.text === 'string') return v.text.trim();
    if (typeof v.error === 'string') return v.error;
  }
  return String(value).trim();
}
