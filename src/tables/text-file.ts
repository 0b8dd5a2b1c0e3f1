import { declaredSeparator } from '../sms/csv.js';
import { trimmed } from '../sms/trim.js';
import { type Table, TableFileError, type TableFileKind, type TableRecord } from './table-file.js';
import { decodeText } from './text-encoding.js';

/**
 * A text file of recipients (.csv, .tsv, .txt) as rows of cells with the line each came from: decoded
 * (text-encoding.ts), its separator found, split with Papa Parse.
 */

/** Papa Parse is loaded when the first file is read, not at start: most processes never read one. */
const loadPapa = async () => (await import('papaparse')).default;

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
    // The count most lines share, not the first line's: a title line above the header ("Mart listesi") may
    // have no separator at all. A stray comma in a name scores little.
    const common = mostCommonNonZero(counts);
    if (common === 0) continue;
    const score = counts.filter((c) => c === common).length * 1000 + common;
    if (score > bestScore) {
      best = d;
      bestScore = score;
    }
  }
  return best;
}

function mostCommonNonZero(counts: readonly number[]): number {
  const tally = new Map<number, number>();
  let best = 0;
  let bestLines = 0;
  for (const c of counts) {
    if (c === 0) continue;
    const lines = (tally.get(c) ?? 0) + 1;
    tally.set(c, lines);
    // Ties go to the count seen first, the header's when it has one.
    if (lines > bestLines) {
      best = c;
      bestLines = lines;
    }
  }
  return best;
}

/** Reads a text file into records; throws TableFileError with a reason a person can act on. */
export async function readTextTable(
  filename: string,
  kind: Exclude<TableFileKind, 'xlsx'>,
  bytes: Uint8Array,
): Promise<Table> {
  const decoded = await decodeText(bytes, filename);
  const { encoding } = decoded;
  let text = decoded.text;
  let firstLine = 1;
  let detected: (typeof DELIMITERS)[number] | undefined;
  const declared = declaredSeparator(text);
  if (declared && 'unreadable' in declared) {
    throw new TableFileError(
      `“${filename}” says on its first line that its separator is “${declared.unreadable}”: this app reads commas, semicolons or tabs. Export the sheet as CSV again.`,
    );
  }
  if (declared) {
    detected = DELIMITERS.find((d) => d.char === declared.separator);
    // Not a row: the rows after it keep the file's own line numbers.
    text = text.slice(declared.lineLength);
    firstLine = 2;
  }
  detected ??= kind === 'tsv' ? DELIMITERS[2] : detectDelimiter(text);
  return {
    kind,
    encoding,
    delimiter: detected?.name ?? 'none',
    records: detected
      ? readDelimited(text, detected.char, await loadPapa(), firstLine)
      : readLines(text, firstLine),
  };
}

/** No separator at all (a .txt of one number per line): a line is a record, quotes and all. */
function readLines(text: string, firstLine: number): TableRecord[] {
  const records: TableRecord[] = [];
  const lines = text.split(/\r\n|\r|\n/);
  for (let i = 0; i < lines.length; i++) {
    const value = lines[i]!.trim();
    if (value !== '') records.push({ line: firstLine + i, fields: [value.replace(/^"(.*)"$/, '$1')] });
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

function readDelimited(
  text: string,
  delimiter: string,
  Papa: typeof import('papaparse'),
  firstLine: number,
): TableRecord[] {
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
  let line = firstLine;
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
