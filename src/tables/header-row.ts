import type { CountryCode } from '../sms/numbers.js';
import { looksLikeNumber } from './cell-kinds.js';
import { columnNameKind } from './column-names.js';
import type { TableRecord } from './table-file.js';

/** Rows looked at below a possible start of the data, as the phone column is chosen from 50 rows. */
const DATA_WINDOW = 50;

/**
 * Columns looked at for the header and the phone column: a table of people has far fewer, and a file of one
 * line and 800,000 fields (numbers pasted in a row) costs no more than a sheet of normal width.
 */
export const COLUMNS_LOOKED_AT = 1024;

/**
 * Where the header is among a file's first records (see HEAD_RECORDS), found as a person finds it: above the
 * block of data, not at the top of the file. A spreadsheet often starts with a title (one cell, often merged
 * across the table), notes, blank rows, or leaves its first columns empty; all of that is above the header
 * and is neither the header nor data.
 *
 * 1. The data starts at the first record with a phone-shaped cell in a column where at least half of the next
 *    50 records have one too (one stray number in the notes does not start it).
 * 2. The header is a record above it that has no phone-shaped cell and fills the columns the data fills (at
 *    least three in four of them, and two cells or more when the data has two columns or more: a title does
 *    not). Of the run of such records directly above the data, the nearest that names a phone or identity
 *    column; else the topmost (the rest of the run are data rows whose number is missing, e.g. "yok").
 * 3. With no column phone-shaped enough, the first record that names a phone column; else the first record
 *    when it has no number and some record below it has one (the rule before this search).
 *
 * Records above the header (or, with no header, above the data) are a title or notes: neither header nor data.
 */
export interface HeaderRow {
  /** The header's index in the records, or -1 when the file has none. */
  header: number;
  /** Index of the first record of data: the one under the header, else where the data starts. */
  data: number;
}

export function findHeaderRow(records: readonly TableRecord[], country: CountryCode): HeaderRow {
  const head = records.map((r) =>
    r.fields.length > COLUMNS_LOOKED_AT ? { line: r.line, fields: r.fields.slice(0, COLUMNS_LOOKED_AT) } : r,
  );
  const phoneShaped = head.map((r) => r.fields.map((f) => looksLikeNumber(f, country)));
  const start = dataStart(phoneShaped);
  if (start < 0) {
    let header = head.findIndex((r, i) => !phoneShaped[i]!.includes(true) && r.fields.some(isPhoneName));
    // Numbers too sparse to mark the data (most rows without one): a first row of words above them names the
    // columns, as it always did.
    if (header < 0 && phoneShaped.length > 1 && !phoneShaped[0]!.includes(true)) {
      if (phoneShaped.some((row) => row.includes(true))) header = 0;
    }
    return { header, data: header + 1 };
  }
  const dataColumns = filledColumns(head.slice(start, start + DATA_WINDOW));
  const run: number[] = [];
  for (let r = start - 1; r >= 0; r--) {
    if (phoneShaped[r]!.includes(true) || !fillsColumns(head[r]!, dataColumns)) break;
    run.push(r);
  }
  if (run.length === 0) return { header: -1, data: start };
  const named = run.find((r) => head[r]!.fields.some(namesColumnOfNumbers));
  const header = named ?? run[run.length - 1]!;
  return { header, data: header + 1 };
}

function dataStart(phoneShaped: readonly (readonly boolean[])[]): number {
  for (let d = 0; d < phoneShaped.length; d++) {
    const row = phoneShaped[d]!;
    const end = Math.min(phoneShaped.length, d + DATA_WINDOW);
    for (let j = 0; j < row.length; j++) {
      if (!row[j]) continue;
      let count = 0;
      for (let r = d; r < end; r++) if (phoneShaped[r]![j]) count++;
      if (count * 2 >= end - d) return d;
    }
  }
  return -1;
}

/** The columns filled in at least half of the records. */
function filledColumns(records: readonly TableRecord[]): number[] {
  const counts: number[] = [];
  for (const record of records) {
    record.fields.forEach((f, i) => {
      if (f !== '') counts[i] = (counts[i] ?? 0) + 1;
    });
  }
  const columns: number[] = [];
  for (let i = 0; i < counts.length; i++) if ((counts[i] ?? 0) * 2 >= records.length) columns.push(i);
  return columns;
}

function fillsColumns(record: TableRecord, columns: readonly number[]): boolean {
  let filled = 0;
  for (const f of record.fields) if (f !== '') filled++;
  if (columns.length >= 2 && filled < 2) return false;
  let over = 0;
  for (const c of columns) if ((record.fields[c] ?? '') !== '') over++;
  return over * 4 >= columns.length * 3;
}

function isPhoneName(cell: string): boolean {
  const kind = columnNameKind(cell);
  return kind === 'mobile' || kind === 'phone' || kind === 'landline';
}

function namesColumnOfNumbers(cell: string): boolean {
  return isPhoneName(cell) || columnNameKind(cell) === 'identity';
}
