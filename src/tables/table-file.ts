import { Readable } from 'node:stream';
import type ExcelJS from 'exceljs';
import { trimmed } from '../sms/trim.js';

/**
 * Files of recipients as offices export them: .csv (comma, semicolon or tab, as Excel writes in a Turkish
 * locale), .tsv, .txt (one number per line) and .xlsx (the first sheet). Text is UTF-8 with or without a BOM,
 * UTF-16 with a BOM, or else Windows-1254 (Turkish Windows' "ANSI"). What comes out is rows of cells with the
 * line (or sheet row) each came from; finding the phone column and reading numbers is in file-recipients.ts.
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

/**
 * iconv-lite (its code-page tables are half a megabyte) and Papa Parse are loaded when the first file is read,
 * not at start: most processes never read one.
 */
const loadIconv = async () => (await import('iconv-lite')).default;
const loadPapa = async () => (await import('papaparse')).default;

/** Text of a file: a BOM says the encoding; else UTF-8 when the bytes are valid UTF-8, else Windows-1254. */
export async function decodeText(bytes: Uint8Array): Promise<{ text: string; encoding: string }> {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    return { text: buffer.toString('utf8', 3), encoding: 'UTF-8 with BOM' };
  }
  if (bytes[0] === 0xff && bytes[1] === 0xfe)
    return { text: (await loadIconv()).decode(buffer.subarray(2), 'utf16le'), encoding: 'UTF-16' };
  if (bytes[0] === 0xfe && bytes[1] === 0xff)
    return { text: (await loadIconv()).decode(buffer.subarray(2), 'utf16be'), encoding: 'UTF-16' };
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(buffer), encoding: 'UTF-8' };
  } catch {
    // Not UTF-8: what Excel and Notepad write on a Turkish Windows ("ANSI"), a superset of Latin-5.
    return { text: (await loadIconv()).decode(buffer, 'win1254'), encoding: 'Windows-1254' };
  }
}

const DELIMITERS = [
  { char: ',', name: 'comma' },
  { char: ';', name: 'semicolon' },
  { char: '\t', name: 'tab' },
] as const;

/**
 * The separator that splits the first lines most consistently: Excel in a Turkish locale writes `;`
 * because `,` is the decimal mark. Counted outside quotes over the first 20 non-empty lines.
 */
export function detectDelimiter(text: string): (typeof DELIMITERS)[number] | undefined {
  const lines = text
    .slice(0, 64 * 1024)
    .split(/\r\n|\r|\n/)
    .filter((l) => l.trim() !== '')
    .slice(0, 20)
    .map((l) => l.replace(/"[^"]*"/g, ''));
  let best: (typeof DELIMITERS)[number] | undefined;
  let bestScore = 0;
  for (const d of DELIMITERS) {
    const counts = lines.map((l) => l.split(d.char).length - 1);
    const first = counts[0] ?? 0;
    if (first === 0) continue;
    // Lines with the header's count of separators; a stray comma in a name scores little.
    const score = counts.filter((c) => c === first).length * 1000 + first;
    if (score > bestScore) {
      best = d;
      bestScore = score;
    }
  }
  return best;
}

/** Reads a file into records; throws TableFileError with a reason a person can act on. */
export async function readTableFile(
  filename: string,
  bytes: Uint8Array,
  options: ReadOptions = {},
): Promise<Table> {
  const kind = tableFileKindOf(filename, bytes);
  if (kind === 'xlsx') return readXlsx(filename, bytes, options.columnsWanted);
  const { text, encoding } = await decodeText(bytes);
  const detected = kind === 'tsv' ? DELIMITERS[2] : detectDelimiter(text);
  return {
    kind,
    encoding,
    delimiter: detected?.name ?? 'none',
    records: detected ? readDelimited(text, detected.char, await loadPapa()) : readLines(text),
  };
}

/** No separator at all (a .txt of one number per line): a line is a record, quotes and all. */
function readLines(text: string): TableRecord[] {
  const records: TableRecord[] = [];
  const lines = text.split(/\r\n|\r|\n/);
  for (let i = 0; i < lines.length; i++) {
    const value = lines[i]!.trim();
    if (value !== '') records.push({ line: i + 1, fields: [value.replace(/^"(.*)"$/, '$1')] });
  }
  return records;
}

/** Papa Parse guesses line ends from the first megabyte of text, outside quotes. */
const GUESSED_FROM = 1024 * 1024;

/**
 * The line end Papa Parse would guess for text with no quote in its first megabyte, found by counting instead
 * of splitting that megabyte twice (two lists of 30,000 strings for a 100,000-row file, made to count them).
 * Papa's rule: LF when there is no CR or an LF comes first; else CRLF when at least half of the CRs are one.
 * Undefined when a quote is there: Papa then guesses itself, with quoted text left out.
 */
export function guessedLineEnd(text: string): '\n' | '\r\n' | '\r' | undefined {
  // Papa strips one byte order mark before it looks (a file with two; decodeText takes the first).
  const from = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const window = Math.min(text.length, from + GUESSED_FROM);
  const quote = text.indexOf('"', from);
  if (quote >= 0 && quote < window) return undefined;
  let cr = text.indexOf('\r', from);
  if (cr < 0 || cr >= window) return '\n';
  const lf = text.indexOf('\n', from);
  if (lf >= 0 && lf < cr) return '\n';
  let crs = 0;
  let crlfs = 0;
  while (cr >= 0 && cr < window) {
    crs++;
    if (cr + 1 < window && text.charCodeAt(cr + 1) === 10) crlfs++;
    cr = text.indexOf('\r', cr + 1);
  }
  // Papa splits on CR: crs + 1 pieces, and counts those that start with LF.
  return crlfs >= (crs + 1) / 2 ? '\r\n' : '\r';
}

function readDelimited(text: string, delimiter: string, Papa: typeof import('papaparse')): TableRecord[] {
  // Papa Parse: RFC 4180 quotes, and a fast path (split on line ends) when the file has no quote at all.
  const newline = guessedLineEnd(text);
  const parsed = Papa.parse<string[]>(text, {
    delimiter,
    skipEmptyLines: false,
    ...(newline ? { newline } : {}),
  });
  const unclosed = parsed.errors.find((e) => e.code === 'MissingQuotes');
  if (unclosed) {
    const row = typeof unclosed.row === 'number' ? unclosed.row : undefined;
    throw new TableFileError(
      `The file cannot be read: a quote is opened${row === undefined ? '' : ` in row ${row + 1}`} and never closed.`,
    );
  }
  // One row per line, except that a quoted value may hold line breaks: count them to keep lines exact. Without
  // a quote in the file, no value can hold one.
  const quoted = text.indexOf('"') >= 0;
  const rows = parsed.data;
  // Sized once and cut to length, as addressRows' list of numbers (personalise.ts).
  const records: TableRecord[] = new Array(rows.length);
  let kept = 0;
  let line = 1;
  // Indexed: no iterator result per row while the loop is not yet optimised (100,000 of them).
  for (let r = 0; r < rows.length; r++) {
    const fields = rows[r]!;
    let blank = true;
    for (let i = 0; i < fields.length; i++) {
      const f = fields[i]!;
      const cell = trimmed(f);
      if (cell !== f) fields[i] = cell;
      if (cell !== '') blank = false;
    }
    if (!blank) records[kept++] = { line, fields };
    line += quoted ? 1 + countBreaks(fields) : 1;
  }
  records.length = kept;
  return records;
}

function countBreaks(fields: readonly string[]): number {
  let n = 0;
  for (const f of fields) {
    if (f.length === 0 || (f.indexOf('\n') < 0 && f.indexOf('\r') < 0)) continue;
    n += f.split(/\r\n|\r|\n/).length - 1;
  }
  return n;
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
