import { readTextTable } from './text-file.js';
import { spreadsheetRefusalOf, WorkbookRefusal } from './xlsx/refusal.js';

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
  // A spreadsheet this app does not read says so by its bytes, whatever its name: an .xls, an .xlsx locked with a
  // password (both Office compound files), an OpenDocument spreadsheet.
  const spreadsheet = bytes.length <= MAX_TABLE_FILE_BYTES ? spreadsheetRefusalOf(bytes) : undefined;
  if (spreadsheet && (kind || extension === 'xls' || extension === 'ods')) {
    throw new TableFileError(`“${filename}” ${spreadsheet}`);
  }
  if (!kind) {
    const hint =
      extension === 'xls'
        ? ' Save it from Excel as .xlsx or CSV.'
        : extension === 'ods'
          ? ' Save it as .xlsx or CSV.'
          : '';
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
  if (kind === 'xlsx') return readXlsx(filename, bytes, options);
  return readTextTable(filename, kind, bytes);
}

async function readXlsx(filename: string, bytes: Uint8Array, options: ReadOptions): Promise<Table> {
  // Loaded with the first workbook read: most processes never read one.
  const { readXlsx: readSheet } = await import('./xlsx/read-xlsx.js');
  try {
    const read = readSheet(bytes, { columnsWanted: options.columnsWanted, sheet: options.sheet });
    return { kind: 'xlsx', records: read.records, sheet: read.sheet, sheets: read.sheets };
  } catch (error) {
    if (error instanceof WorkbookRefusal) throw new TableFileError(`“${filename}” ${error.why}`);
    throw error;
  }
}
