import { foldCase } from './fold.js';
import { trimmed } from './trim.js';

export interface CsvRow {
  /** 1-based line the row starts on (a quoted value may span several lines). */
  line: number;
  /** The raw text of the number column. */
  number: string;
  /** Values by column name. */
  values: Record<string, string>;
}

/**
 * A row of a table read from a file or pasted: its cells by position (`columns[i]` names `fields[i]`, the
 * number is `fields[numberIndex]`). The record the reader made, not a copy: no second object per row, and none
 * keyed by name, which for 100,000 rows is most of the memory and the garbage.
 */
export interface TableRow {
  line: number;
  fields: readonly string[];
}

export interface CsvError {
  line: number;
  reason: string;
}

export interface ParsedCsv {
  columns: string[];
  /** Name of the column read as the phone number. */
  numberColumn: string;
  /** Rows without errors. */
  rows: CsvRow[];
  errors: CsvError[];
}

export interface RawRecord {
  line: number;
  fields: string[];
  error?: string;
}

// Header names (folded, without blanks and punctuation) that mark the number column; Turkish
// ones too, since the default country is TR.
const NUMBER_HEADERS = new Set(
  [
    'number',
    'phone phonenumber phoneno',
    'msisdn',
    'mobile mobileno mobilenumber',
    'gsm gsmno',
    'tel telno telefon telefonno telefonnumarasi',
    'numara',
    'cep cepno ceptel ceptelefonu',
  ].flatMap((names) => names.split(' ')),
);

// A first row whose number cell is a phone number means the header was forgotten.
const LOOKS_LIKE_NUMBER = /^\+?[\d\s\-().]{7,}$/;

/** A pasted table with its rows' cells by position, as a file's rows are (`columns[i]` names `fields[i]`). */
export interface ParsedCsvTable {
  columns: string[];
  numberColumn: string;
  /** Where the number is in each row's fields. */
  numberIndex: number;
  rows: TableRow[];
  errors: CsvError[];
}

/**
 * Parses CSV text whose first row names the columns. The number is in the column named
 * number/phone/msisdn (or a Turkish equivalent), else the first column. Commas are the usual
 * separator; a header with more semicolons or tabs than commas selects those (Excel in Turkish
 * locales writes semicolons, spreadsheets pasted as text give tabs).
 */
export function parseCsv(text: string): ParsedCsv {
  const table = parseCsvTable(text);
  const { columns } = table;
  // Plain objects with the same keys in the same order share one shape; a column named like an
  // Object.prototype member needs a prototype-less object instead.
  const plain = !columns.some((c) => c in Object.prototype);
  const width = columns.length;
  const rows: CsvRow[] = table.rows.map(({ line, fields }) => {
    const number = fields[table.numberIndex] ?? '';
    const values: Record<string, string> = plain ? {} : Object.create(null);
    for (let i = 0; i < width; i++) {
      const column = columns[i]!;
      if (column !== '') values[column] = fields[i] ?? '';
    }
    return { line, number, values };
  });
  return { columns, numberColumn: table.numberColumn, rows, errors: table.errors };
}

/**
 * Excel's first line naming the separator (`sep=;`), which it writes and reads in place of the locale's list
 * separator: in a file, and in what a person pastes from one. Some tools quote it or pad it with separators (or
 * an editor with spaces); a second byte order mark may precede it.
 */
const SEPARATOR_LINE = /^\uFEFF?"?sep=([^\r\n])"?[,;\t ]*(?:\r\n|\r|\n|$)/i;
const SEPARATORS = [',', ';', '\t'] as const;
export type Separator = (typeof SEPARATORS)[number];

/**
 * What a `sep=` first line declares: a separator this app reads and the line's length with its line end (the
 * rows start after it), or one it cannot read. Undefined when the text has no such line.
 */
export function declaredSeparator(
  text: string,
): { separator: Separator; lineLength: number } | { unreadable: string } | undefined {
  const named = SEPARATOR_LINE.exec(text);
  if (!named) return undefined;
  const char = named[1]!;
  const separator = SEPARATORS.find((s) => s === char);
  return separator ? { separator, lineLength: named[0].length } : { unreadable: char };
}
/** Text with no line that is not blank: nothing to tell by line, only to ask for a table. */
export const NO_HEADER = 'no header row: the CSV is empty';

/**
 * parseCsv's table with each row's cells by position: the same columns, rows, lines and errors, without an
 * object per row keyed by name (what a 10,000-row personalised send renders from).
 */
export function parseCsvTable(text: string): ParsedCsvTable {
  let source = String(text).replace(/^\uFEFF/, '');
  let delimiter: string | undefined;
  const declared = declaredSeparator(source);
  if (declared && 'unreadable' in declared) {
    return {
      columns: [],
      numberColumn: '',
      numberIndex: 0,
      rows: [],
      errors: [
        {
          line: 1,
          reason: `it says the separator is “${declared.unreadable}”: use commas, semicolons or tabs between the values`,
        },
      ],
    };
  }
  if (declared) {
    delimiter = declared.separator;
    // Not a row: blanked, so that the rows after it keep their own line numbers.
    const line = source.slice(0, declared.lineLength);
    source = (/(?:\r\n|\r|\n)$/.exec(line)?.[0] ?? '') + source.slice(declared.lineLength);
  }
  delimiter ??= detectDelimiter(source);
  const records = readRecords(source, delimiter);
  const errors: CsvError[] = [];
  // Blank lines are skipped; the first line that is not blank names the columns.
  let next = 0;
  while (next < records.length && isBlank(records[next]!)) next++;
  const header = records[next++];
  if (header === undefined) {
    return {
      columns: [],
      numberColumn: '',
      numberIndex: 0,
      rows: [],
      errors: [{ line: 1, reason: NO_HEADER }],
    };
  }
  const columns = header.fields.map((f) => f.trim());
  const numberIndex = Math.max(
    0,
    columns.findIndex((c) => NUMBER_HEADERS.has(foldCase(c).replace(/[\s_.\-/]/gu, ''))),
  );
  const numberColumn = columns[numberIndex] ?? '';
  errors.push(...headerErrors(header, columns, numberIndex));
  if (errors.length > 0) return { columns, numberColumn, numberIndex, rows: [], errors };

  const rows: TableRow[] = [];
  const width = columns.length;
  for (let r = next; r < records.length; r++) {
    const record = records[r]!;
    if (isBlank(record)) continue;
    const reason = record.error ?? shapeError(record.fields, width);
    if (reason) {
      errors.push({ line: record.line, reason });
      continue;
    }
    rows.push(record);
  }
  return { columns, numberColumn, numberIndex, rows, errors };
}

function isBlank(record: RawRecord): boolean {
  if (record.error) return false;
  const { fields } = record;
  for (let i = 0; i < fields.length; i++) if (fields[i] !== '') return false;
  return true;
}

function headerErrors(header: RawRecord, columns: readonly string[], numberIndex: number): CsvError[] {
  if (header.error) return [{ line: header.line, reason: header.error }];
  const errors: CsvError[] = [];
  const line = header.line;
  if (LOOKS_LIKE_NUMBER.test(columns[numberIndex] ?? '')) {
    errors.push({
      line,
      reason: `"${columns[numberIndex]}" looks like a phone number: the first row must name the columns, e.g. number,name`,
    });
  }
  const seen = new Map<string, string>();
  for (const column of columns) {
    if (column === '') continue;
    const key = foldCase(column);
    const earlier = seen.get(key);
    if (earlier !== undefined) {
      const same =
        earlier === column
          ? `column "${column}" appears twice`
          : `columns "${earlier}" and "${column}" differ only in case`;
      errors.push({ line, reason: `${same} in the header` });
    } else {
      seen.set(key, column);
    }
  }
  return errors;
}

function shapeError(fields: readonly string[], expected: number): string | undefined {
  // Spreadsheets sometimes add empty trailing cells; those are harmless.
  const meaningful =
    fields.length > expected && fields.slice(expected).every((f) => f === '') ? expected : fields.length;
  if (meaningful === expected) return undefined;
  const values = meaningful === 1 ? '1 value' : `${meaningful} values`;
  return `${values}, but the header has ${expected} columns`;
}

function detectDelimiter(text: string): string {
  const firstLine = text.split(/\r\n|\r|\n/, 1)[0] ?? '';
  const unquoted = firstLine.replace(/"[^"]*"/g, '');
  let best = ',';
  let bestCount = count(unquoted, ',');
  for (const candidate of [';', '\t']) {
    const n = count(unquoted, candidate);
    if (n > bestCount) {
      best = candidate;
      bestCount = n;
    }
  }
  return best;
}

function count(text: string, char: string): number {
  return text.split(char).length - 1;
}

// A CR not followed by LF: an old Mac line end, which the general reader handles.
const LONE_CR = /\r(?!\n)/;

/**
 * The records of the text. Text without a quote and with CR only before LF (nearly every pasted table) is cut
 * at its line ends and delimiters found with indexOf: the same records as the general reader. Until 2026-11-27 it
 * split the text by lines and each line by the delimiter, and each split is a call into V8's runtime where indexOf
 * and slice stay in its builtins: the 10,000 rows of the compose bench in ~3 ms against ~5, 100,000 short rows in
 * ~52 against ~98 (2026-11-27). Exported for the test that compares the two readers (`general` forces the
 * character-by-character one).
 */
export function readRecords(text: string, delimiter: string, general = false): RawRecord[] {
  // indexOf first: a scan for a character is far cheaper than the regular expression's, and most text has no CR.
  if (general || text.indexOf('"') >= 0 || (text.indexOf('\r') >= 0 && LONE_CR.test(text))) {
    return readGeneral(text, delimiter);
  }
  const records: RawRecord[] = [];
  const n = text.length;
  // The next delimiter, found once and looked for again only when passed: a line without one (a single column)
  // must not send each search on to the text's end.
  let next = text.indexOf(delimiter);
  let at = 0;
  // A line's fields are gathered here and copied at their exact length: an array grown by push from empty keeps
  // room for 17 (10,000 rows: 1.4 MB more for the collector to copy).
  const cells: string[] = [];
  // Text ending in a line end has no record after it.
  while (at < n) {
    let end = text.indexOf('\n', at);
    if (end < 0) end = n;
    const bodyEnd = end > at && text.charCodeAt(end - 1) === 13 ? end - 1 : end;
    let width = 0;
    for (;;) {
      if (next >= 0 && next < at) next = text.indexOf(delimiter, at);
      if (next < 0 || next >= bodyEnd) {
        cells[width++] = trimmed(text.slice(at, bodyEnd));
        break;
      }
      cells[width++] = trimmed(text.slice(at, next));
      at = next + 1;
    }
    records.push({ line: records.length + 1, fields: cells.slice(0, width) });
    at = end + 1;
  }
  return records;
}

// RFC 4180 with the leniency people need: blanks around quoted values, CR, LF or CRLF line
// ends, and a lone quote inside an unquoted value kept as text (5'10" is not an error).
function readGeneral(text: string, delimiter: string): RawRecord[] {
  const records: RawRecord[] = [];
  const n = text.length;
  const isBlank = (c: string | undefined) => (c === ' ' || c === '\t') && c !== delimiter;
  const endsField = (c: string | undefined) => c === undefined || c === delimiter || c === '\n' || c === '\r';
  let i = 0;
  let line = 1;
  // Where the next quote and CR are, found once and moved forward only when passed (never a rescan per line).
  let nextQuote = text.indexOf('"');
  let nextCr = text.indexOf('\r');
  while (i < n) {
    // The common line, without a quote: split it whole instead of reading it character by character.
    const end = text.indexOf('\n', i);
    const lineEnd = end < 0 ? n : end;
    if (nextQuote >= 0 && nextQuote < i) nextQuote = text.indexOf('"', i);
    if (nextCr >= 0 && nextCr < i) nextCr = text.indexOf('\r', i);
    const quote = nextQuote;
    const cr = nextCr;
    if ((quote < 0 || quote > lineEnd) && (cr < 0 || cr >= lineEnd - 1)) {
      const body = text.slice(i, cr === lineEnd - 1 && cr >= i ? cr : lineEnd);
      const fields = body.split(delimiter);
      for (let f = 0; f < fields.length; f++) fields[f] = fields[f]!.trim();
      records.push({ line, fields });
      i = lineEnd + 1;
      line += 1;
      continue;
    }
    const record: RawRecord = { line, fields: [] };
    for (;;) {
      let j = i;
      while (isBlank(text[j])) j += 1;
      let value: string;
      if (text[j] === '"') {
        const quoteLine = line;
        i = j + 1;
        value = '';
        let closed = false;
        while (i < n) {
          const c = text[i]!;
          if (c === '"') {
            if (text[i + 1] === '"') {
              value += '"';
              i += 2;
              continue;
            }
            i += 1;
            closed = true;
            break;
          }
          if (c === '\r' || c === '\n') {
            // Any line end inside a value becomes \n: that is what the SMS will carry.
            if (c === '\r' && text[i + 1] === '\n') i += 1;
            line += 1;
            value += '\n';
          } else {
            value += c;
          }
          i += 1;
        }
        if (!closed) record.error ??= `the quote opened on line ${quoteLine} is never closed`;
        while (isBlank(text[i])) i += 1;
        if (!endsField(text[i])) {
          record.error ??=
            'text after a closing quote: quote the whole value and write "" for a quote inside it';
          while (!endsField(text[i])) i += 1;
        }
      } else {
        const start = i;
        while (!endsField(text[i])) i += 1;
        value = text.slice(start, i).trim();
      }
      record.fields.push(value);
      if (i < n && text[i] === delimiter) {
        i += 1;
        continue;
      }
      break;
    }
    if (text[i] === '\r') i += text[i + 1] === '\n' ? 2 : 1;
    else if (text[i] === '\n') i += 1;
    line += 1;
    records.push(record);
  }
  return records;
}
