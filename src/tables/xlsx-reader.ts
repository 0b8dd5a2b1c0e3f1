import { inflateRawSync } from 'node:zlib';
import { type ColumnsWanted, cellText, HEAD_RECORDS, type TableRecord } from './table-file.js';

/**
 * The first sheet of a workbook as Excel, LibreOffice and exceljs write it, read for its cells alone. For a
 * sheet of 100,000 rows (12.6 MB of XML, 2.4 MB of shared strings) exceljs' streaming reader took about 0.8 s
 * where the whole compose has about 0.2 s; a general XML parser alone (saxes, which exceljs uses, or
 * htmlparser2) takes 0.15 s, and unzipping in JavaScript (fflate, or yauzl's streams) about 0.1 s. Here the
 * parts needed are inflated by Node's zlib and the sheet's <c> elements found by position in the text: about
 * 0.1 s in all. Anything this does not know (a zip it cannot open, no part where the workbook says, a cell
 * without its reference, prefixed element names) gives undefined, and the caller reads the file with exceljs:
 * a workbook is never read wrong, at worst slowly. test/tables/xlsx-reader.test.ts holds it equal to exceljs.
 */
export interface FastSheet {
  sheet: string | undefined;
  records: TableRecord[];
}

/** The most the parts read may inflate to: a zip bomb is refused, not unpacked. */
export const MAX_XLSX_INFLATED_BYTES = 200 * 1024 * 1024;

export class XlsxTooLargeError extends Error {
  override name = 'XlsxTooLargeError';
}

export function readFirstSheet(
  bytes: Uint8Array,
  options: { maxInflatedBytes?: number; columnsWanted?: ColumnsWanted } = {},
): FastSheet | undefined {
  try {
    return readSheet(bytes, options.maxInflatedBytes ?? MAX_XLSX_INFLATED_BYTES, options.columnsWanted);
  } catch (error) {
    // A damaged or truncated zip (an offset past its end) is exceljs' to judge, and to refuse with a reason.
    if (error instanceof XlsxTooLargeError) throw error;
    return undefined;
  }
}

function readSheet(
  bytes: Uint8Array,
  maxInflatedBytes: number,
  columnsWanted: ColumnsWanted | undefined,
): FastSheet | undefined {
  const zip = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const entries = zipEntries(zip);
  if (!entries) return undefined;
  const budget = { left: maxInflatedBytes };
  const text = (name: string, encoding: 'utf8' | 'latin1') => {
    const entry = entries.get(name);
    const data = entry && inflate(zip, entry, budget);
    return data?.toString(encoding);
  };
  const workbook = text('xl/workbook.xml', 'utf8');
  const rels = text('xl/_rels/workbook.xml.rels', 'utf8');
  const first = workbook && rels ? firstSheetOf(workbook, rels) : undefined;
  if (!first) return undefined;
  const sheetEntry = entries.get(first.path);
  const sheetBytes = sheetEntry && inflate(zip, sheetEntry, budget);
  if (!sheetBytes) return undefined;
  const sharedEntry = entries.get('xl/sharedStrings.xml');
  let strings: SharedStrings = NO_STRINGS;
  if (sharedEntry) {
    const shared = inflate(zip, sharedEntry, budget)?.toString('utf8');
    const read = shared === undefined ? undefined : sharedStrings(shared);
    if (!read) return undefined;
    strings = read;
  }
  const records = sheetRecords(sheetBytes, strings, columnsWanted);
  return records ? { sheet: first.name, records } : undefined;
}

interface ZipEntry {
  method: number;
  compressedSize: number;
  size: number;
  localHeader: number;
}

/** The entries of the zip's central directory by name; undefined for what this does not read (zip64, split). */
function zipEntries(zip: Buffer): Map<string, ZipEntry> | undefined {
  // The end-of-central-directory record: 22 bytes and a comment of up to 65,535 after it.
  let end = zip.length - 22;
  const lowest = Math.max(0, zip.length - 22 - 0xffff);
  while (end >= lowest && zip.readUInt32LE(end) !== 0x06054b50) end--;
  if (end < lowest) return undefined;
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  if (count === 0xffff || at === 0xffffffff) return undefined;
  const entries = new Map<string, ZipEntry>();
  for (let i = 0; i < count; i++) {
    if (at + 46 > zip.length || zip.readUInt32LE(at) !== 0x02014b50) return undefined;
    const nameLength = zip.readUInt16LE(at + 28);
    const skip = nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
    entries.set(zip.toString('utf8', at + 46, at + 46 + nameLength), {
      method: zip.readUInt16LE(at + 10),
      compressedSize: zip.readUInt32LE(at + 20),
      size: zip.readUInt32LE(at + 24),
      localHeader: zip.readUInt32LE(at + 42),
    });
    at += 46 + skip;
  }
  return entries;
}

function inflate(zip: Buffer, entry: ZipEntry, budget: { left: number }): Buffer | undefined {
  if (entry.size > budget.left) throw new XlsxTooLargeError('the workbook unpacks to more than the limit');
  const header = entry.localHeader;
  if (header + 30 > zip.length || zip.readUInt32LE(header) !== 0x04034b50) return undefined;
  const start = header + 30 + zip.readUInt16LE(header + 26) + zip.readUInt16LE(header + 28);
  const data = zip.subarray(start, start + entry.compressedSize);
  try {
    const out =
      entry.method === 0
        ? data
        : entry.method === 8
          ? // One output chunk of the known size: no list of chunks to copy into one buffer at the end.
            inflateRawSync(data, {
              maxOutputLength: entry.size + 1,
              chunkSize: Math.max(64 * 1024, entry.size + 1),
            })
          : undefined;
    if (!out || out.length !== entry.size) return undefined;
    budget.left -= out.length;
    return out;
  } catch {
    return undefined;
  }
}

/** The first sheet in the workbook's order, its name and the part that holds it. */
function firstSheetOf(workbook: string, rels: string): { name: string; path: string } | undefined {
  const sheet = /<sheet\s[^>]*>/.exec(workbook)?.[0];
  const name = sheet && /\sname="([^"]*)"/.exec(sheet)?.[1];
  const id = sheet && /\sr:id="([^"]*)"/.exec(sheet)?.[1];
  if (name === undefined || id === undefined) return undefined;
  for (const relation of rels.match(/<Relationship\s[^>]*>/g) ?? []) {
    if (/\sId="([^"]*)"/.exec(relation)?.[1] !== id) continue;
    const target = /\sTarget="([^"]*)"/.exec(relation)?.[1];
    if (!target) return undefined;
    const path = target.startsWith('/') ? target.slice(1) : `xl/${target.replace(/^\.\//, '')}`;
    return { name: decodeXml(name), path };
  }
  return undefined;
}

/** A workbook's shared strings by index ('' past the last). */
interface SharedStrings {
  at(index: number): string;
}

const NO_STRINGS: SharedStrings = { at: () => '' };

/**
 * Shared strings by index: each <si>'s <t> texts joined (rich text runs), phonetic <rPh> runs left out.
 * Decoded when first asked for, in order, up to the one asked: a send that reads the phone column of a sheet
 * whose other columns are 100,000 names decodes the few in its first rows, not the names. Excel and exceljs
 * write a workbook's strings in the order they first appear, so the strings a column needs come early.
 */
function sharedStrings(xml: string): SharedStrings | undefined {
  if (xml.indexOf('<sst') < 0) return undefined;
  // A string never closed is a damaged part, which exceljs is to judge whatever the send reads of it (a string
  // never asked for would otherwise hide it). Read in order, a part is broken exactly when its last <si> has no
  // </si> after it: two searches from the end, not a pass over every string.
  if (xml.lastIndexOf('<si>') > xml.lastIndexOf('</si>')) return undefined;
  const strings: string[] = [];
  const phonetic = phoneticRuns(xml);
  let at = 0;
  let ended = false;
  return {
    at(index) {
      while (strings.length <= index && !ended) {
        const start = xml.indexOf('<si>', at);
        if (start < 0) {
          ended = true;
          break;
        }
        const end = xml.indexOf('</si>', start);
        // Not reached (checked above); thrown to readFirstSheet, which would leave the workbook to exceljs.
        if (end < 0) throw new Error('a shared string is never closed');
        strings.push(textsIn(xml, start + 4, end, phonetic));
        at = end + 5;
      }
      return strings[index] ?? '';
    },
  };
}

/**
 * Where the next phonetic run (<rPh>) starts at or after a position, found going forward only: asked once per
 * string of a part that may hold 100,000, each search starts where the last one found its run.
 */
function phoneticRuns(xml: string): (from: number) => number {
  // Looked for when first asked (a string with runs), not when made: most parts have no <rPh> at all, and a
  // search of 2 MB of strings for one is not free.
  let next = -2;
  return (from) => {
    if (next === -2 || (next >= 0 && next < from)) next = xml.indexOf('<rPh', from);
    return next;
  };
}

/** The <t> texts between `from` and `to` (a <si> or an <is>), outside <rPh>, decoded and joined. */
function textsIn(xml: string, from: number, to: number, phoneticFrom: (from: number) => number): string {
  // The common <si><t>text</t></si>, without a search for runs.
  if (
    xml.startsWith('<t>', from) &&
    xml.startsWith('</t>', to - 4) &&
    xml.lastIndexOf('<', to - 5) === from
  ) {
    return decodeXml(xml.slice(from + 3, to - 4));
  }
  let text = '';
  let at = from;
  for (;;) {
    const open = xml.indexOf('<t', at);
    if (open < 0 || open >= to) return text;
    const after = xml.charCodeAt(open + 2);
    if (after !== 0x3e && after !== 0x20 && after !== 0x2f) {
      at = open + 2;
      continue;
    }
    const phonetic = phoneticFrom(at);
    if (phonetic >= 0 && phonetic < open) {
      at = xml.indexOf('</rPh>', phonetic);
      if (at < 0 || at > to) return text;
      continue;
    }
    const close = xml.indexOf('>', open);
    if (xml.charCodeAt(close - 1) === 0x2f) {
      at = close + 1;
      continue;
    }
    const end = xml.indexOf('</t>', close);
    if (end < 0 || end > to) return text;
    text += decodeXml(xml.slice(close + 1, end));
    at = end + 4;
  }
}

const needle = (text: string) => Buffer.from(text, 'latin1');
const SHEET_DATA = needle('<sheetData');
const PREFIXED_SHEET_DATA = needle(':sheetData');
const SHEET_DATA_END = needle('</sheetData>');
const INLINE = needle('<is>');

/**
 * The rows of <sheetData>, read in the sheet's bytes (its markup is ASCII; values are decoded where they are):
 * each cell by its reference (`B12`: row 12, column 2), so that gaps stay gaps, as cellText writes exceljs'
 * values. Undefined for what this does not read (a cell without a reference).
 */
function sheetRecords(
  xml: Buffer,
  strings: SharedStrings,
  columnsWanted: ColumnsWanted | undefined,
): TableRecord[] | undefined {
  const begin = xml.indexOf(SHEET_DATA);
  if (begin < 0) return xml.indexOf(PREFIXED_SHEET_DATA) >= 0 ? undefined : [];
  // Looked for from the end, where it is: a search from the start read the whole sheet for it (12 MB: ~7 ms). A
  // sheet holds one <sheetData>, and what follows it (merges, formats) cannot hold its end tag.
  const last = xml.lastIndexOf(SHEET_DATA_END);
  const stop = last > begin ? last : -1;
  const end = stop < 0 ? xml.length : stop;
  const records: TableRecord[] = [];
  let line = 0;
  // A row's cells are gathered in one scratch array (the first `width` of it) and copied at their exact length:
  // an array grown by push keeps room for 17, and a row of two cells held ~120 bytes more (a 100,000-row sheet,
  // 12 MB more for the collector to copy).
  const cells: string[] = [];
  let width = 0;
  // Past the first records, the columns asked for (by 1-based column, 1 where read), when they were asked for;
  // a row with one of them empty is read again whole from `rowStart`, once (`whole` is its line).
  let kept: Uint8Array | undefined;
  let wanted = columnsWanted;
  let rowStart = 0;
  let whole = 0;
  // Whether rows may still be skipped past their last wanted cell: no longer once a skip was refused.
  let skipping = true;
  let at = begin;
  const lacksKept = () => {
    if (!kept) return false;
    for (let c = 1; c < kept.length; c++)
      if (kept[c] === 1 && (c > width || cells[c - 1] === '')) return true;
    return false;
  };
  /** Ends the row being read; true when it is to be read again whole (and `at` is set to its start). */
  const endRow = (): boolean => {
    if (line > 0 && whole !== line && lacksKept()) {
      whole = line;
      width = 0;
      at = rowStart;
      return true;
    }
    while (width > 0 && cells[width - 1] === '') width--;
    // A row of one or two cells (a list of numbers, a number and a name) as a literal: made in place, where a
    // slice is a call for each of 100,000 rows.
    if (width > 0) {
      const fields = width === 1 ? [cells[0]!] : width === 2 ? [cells[0]!, cells[1]!] : cells.slice(0, width);
      records.push({ line, fields });
    }
    width = 0;
    if (wanted && records.length >= HEAD_RECORDS) {
      kept = keptColumns(wanted(records));
      wanted = undefined;
    }
    return false;
  };
  const tag = new Int32Array(TAG_FIELDS);
  for (;;) {
    // Scanned in JavaScript: a loop over the bytes costs less than a call into Buffer#indexOf per cell.
    const open = find(xml, at, end, 0x3c, 0x63);
    if (open < 0) {
      if (endRow()) continue;
      break;
    }
    const next = xml[open + 2];
    if (next !== 0x3e && next !== 0x2f && !isBlank(next)) {
      at = open + 2;
      continue;
    }
    // The tag read once, left to right: where it ends, its reference and its type.
    if (!readCellTag(xml, open + 2, end, tag)) return undefined;
    const tagEnd = tag[TAG_END]!;
    const column = tag[TAG_COLUMN]!;
    const row = tag[TAG_ROW]!;
    if (column === 0 || row === 0) return undefined;
    if (row !== line) {
      if (row < line) return undefined;
      if (endRow()) continue;
      line = row;
      rowStart = open;
    }
    const read = kept === undefined || kept[column] === 1 || whole === line;
    let value = '';
    if (tag[TAG_SELF_CLOSING] === 1) at = tagEnd + 1;
    else {
      const type = tag[TAG_TYPE]!;
      const second = tag[TAG_TYPE_SECOND]!;
      // The common cell, `<v>…</v></c>` right after the tag, read in the one pass; anything else (a formula
      // before its value, an inline string, blanks between elements) by looking for the cell's end first.
      const vEnd = type === 0x69 ? -1 : simpleValueEnd(xml, tagEnd + 1, end);
      if (vEnd >= 0) {
        if (read) value = valueText(xml, tagEnd + 4, vEnd, type, second, strings);
        at = vEnd + 8;
      } else {
        const close = findCellEnd(xml, tagEnd, end);
        if (close < 0) return undefined;
        if (read) value = cellValue(xml, tagEnd + 1, close, type, second, strings);
        at = close + 4;
      }
    }
    while (width < column - 1) cells[width++] = '';
    cells[column - 1] = value;
    if (width < column) width = column;
    // Past the last column asked for, the rest of the row is not read: on to its end. (A wanted cell written out of
    // column order after it is then missing, and the row is read again whole, as a row with an empty one is.)
    if (skipping && kept !== undefined && column >= kept.length - 1 && whole !== line) {
      const rowEnd = endOfRowCells(xml, at, end, line);
      if (rowEnd >= 0) at = rowEnd;
      else skipping = false;
    }
  }
  return records;
}

/** The most cells a row's skip passes over: a sheet wider than this is read cell by cell. */
const MOST_CELLS_SKIPPED = 256;

/**
 * Where the row element being read ends (past its `</row>`, blanks allowed before the `>`), when every cell from
 * `from` to there is plainly of row `line` (its reference is its first attribute), or -1: the row is then read
 * cell by cell, and the caller skips no more rows of the sheet. A sheet whose row holds the cells of other rows,
 * or with no rows around its cells, loses no cell to a skip, and none of its rows costs a search to the sheet's end.
 */
function endOfRowCells(xml: Buffer, from: number, to: number, line: number): number {
  let cells = 0;
  for (let i = find(xml, from, to, 0x3c, -1); i >= 0; i = find(xml, i + 1, to, 0x3c, -1)) {
    const next = xml[i + 1];
    if (next === 0x63 && (isBlank(xml[i + 2]) || xml[i + 2] === 0x3e || xml[i + 2] === 0x2f)) {
      if (++cells > MOST_CELLS_SKIPPED || rowOfReference(xml, i + 2, to) !== line) return -1;
    } else if (next === 0x2f && xml[i + 2] === 0x72 && xml[i + 3] === 0x6f && xml[i + 4] === 0x77) {
      let close = i + 5;
      while (close < to && isBlank(xml[close])) close++;
      return xml[close] === 0x3e ? close + 1 : -1;
    } else if (next === 0x72 && xml[i + 2] === 0x6f && xml[i + 3] === 0x77) return -1;
  }
  return -1;
}

/** The row of a cell tag's reference when it is the tag's first attribute (` r="B12"`), else -1. */
function rowOfReference(xml: Buffer, from: number, to: number): number {
  let i = from;
  if (!isBlank(xml[i])) return -1;
  while (i < to && isBlank(xml[i])) i++;
  const quote = xml[i + 2];
  if (xml[i] !== 0x72 || xml[i + 1] !== 0x3d || (quote !== 0x22 && quote !== 0x27)) return -1;
  i += 3;
  while (i < to && xml[i]! >= 0x41 && xml[i]! <= 0x5a) i++;
  let row = 0;
  const digits = i;
  while (i < to && xml[i]! >= 0x30 && xml[i]! <= 0x39) row = row * 10 + (xml[i++]! - 0x30);
  return i > digits && xml[i] === quote ? row : -1;
}

/** The 0-based field indexes asked for as 1 by 1-based column; undefined (every column) when not asked. */
function keptColumns(indexes: readonly number[] | undefined): Uint8Array | undefined {
  if (!indexes) return undefined;
  let last = 0;
  for (const index of indexes) if (index + 1 > last) last = index + 1;
  const kept = new Uint8Array(last + 1);
  for (const index of indexes) if (index >= 0) kept[index + 1] = 1;
  return kept;
}

// What readCellTag writes, by position in its Int32Array.
const TAG_END = 0;
const TAG_COLUMN = 1;
const TAG_ROW = 2;
const TAG_TYPE = 3;
const TAG_TYPE_SECOND = 4;
const TAG_SELF_CLOSING = 5;
const TAG_FIELDS = 6;

function isBlank(byte: number | undefined): boolean {
  return byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d;
}

/**
 * A <c> tag's attributes from `from` (after `<c`) to its `>`, in one pass: `r` as column and row (0 when
 * absent), `t`'s first two bytes (`n` when absent; a one-letter type's second is `"`), where the tag ends and
 * whether it closes itself. False for a tag that is not well formed, or a reference that is not `A1` style.
 */
function readCellTag(xml: Buffer, from: number, to: number, out: Int32Array): boolean {
  out[TAG_COLUMN] = 0;
  out[TAG_ROW] = 0;
  out[TAG_TYPE] = 0x6e;
  out[TAG_TYPE_SECOND] = 0;
  let i = from;
  for (;;) {
    while (i < to && isBlank(xml[i])) i++;
    if (i >= to) return false;
    const byte = xml[i]!;
    if (byte === 0x3e || (byte === 0x2f && xml[i + 1] === 0x3e)) {
      out[TAG_SELF_CLOSING] = byte === 0x2f ? 1 : 0;
      out[TAG_END] = byte === 0x2f ? i + 1 : i;
      return true;
    }
    const name = i;
    while (i < to && xml[i] !== 0x3d && !isBlank(xml[i]) && xml[i] !== 0x3e) i++;
    const oneLetter = i - name === 1 ? xml[name]! : 0;
    while (i < to && isBlank(xml[i])) i++;
    if (xml[i] !== 0x3d) return false;
    i++;
    while (i < to && isBlank(xml[i])) i++;
    const quote = xml[i];
    if (quote !== 0x22 && quote !== 0x27) return false;
    const value = ++i;
    if (oneLetter === 0x72) {
      // r="B12": column letters, then the row's digits, and nothing else, read as the value is passed.
      let column = 0;
      let row = 0;
      for (; i < to && xml[i]! >= 65 && xml[i]! <= 90; i++) column = column * 26 + (xml[i]! - 64);
      for (; i < to && xml[i]! >= 48 && xml[i]! <= 57; i++) row = row * 10 + (xml[i]! - 48);
      if (i >= to || xml[i] !== quote) return false;
      out[TAG_COLUMN] = column;
      out[TAG_ROW] = row;
    } else {
      while (i < to && xml[i] !== quote) i++;
      if (i >= to) return false;
      if (oneLetter === 0x74 && i > value) {
        out[TAG_TYPE] = xml[value]!;
        out[TAG_TYPE_SECOND] = i - value > 1 ? xml[value + 1]! : 0x22;
      }
    }
    i++;
  }
}

/** Where `</v>` stands when `from` starts `<v>`, the value holds no markup and `</c>` follows; else -1. */
function simpleValueEnd(xml: Buffer, from: number, to: number): number {
  if (xml[from] !== 0x3c || xml[from + 1] !== 0x76 || xml[from + 2] !== 0x3e) return -1;
  const vEnd = find(xml, from + 3, to, 0x3c, -1);
  if (
    vEnd < 0 ||
    xml[vEnd + 1] !== 0x2f ||
    xml[vEnd + 2] !== 0x76 ||
    xml[vEnd + 3] !== 0x3e ||
    xml[vEnd + 4] !== 0x3c ||
    xml[vEnd + 5] !== 0x2f ||
    xml[vEnd + 6] !== 0x63 ||
    xml[vEnd + 7] !== 0x3e
  ) {
    return -1;
  }
  return vEnd;
}

/** A cell's value as cellText writes exceljs' value for it; `type` and `second` are t="…"'s first two bytes. */
function cellValue(
  xml: Buffer,
  from: number,
  to: number,
  type: number,
  second: number,
  strings: SharedStrings,
): string {
  // inlineStr: the <is> element's texts, decoded as the shared strings are.
  if (type === 0x69) {
    const is = xml.indexOf(INLINE, from);
    if (is < 0 || is >= to) return '';
    const part = xml.toString('utf8', is + 4, to);
    return textsIn(part, 0, part.length, phoneticRuns(part)).trim();
  }
  const v = valueStart(xml, from, to);
  const vEnd = v < 0 ? -1 : find(xml, v, to, 0x3c, 0x2f);
  if (vEnd < 0) return '';
  return valueText(xml, v, vEnd, type, second, strings);
}

/**
 * Where the text of the cell's <v> starts (past its `>`), between `from` and `to`, or -1 without one. The <v> may
 * have attributes: some writers keep a value's blanks with `<v xml:space="preserve">`, and exceljs reads it.
 */
function valueStart(xml: Buffer, from: number, to: number): number {
  for (let v = find(xml, from, to, 0x3c, 0x76); v >= 0; v = find(xml, v + 2, to, 0x3c, 0x76)) {
    const next = xml[v + 2];
    if (next === 0x3e) return v + 3;
    if (!isBlank(next)) continue;
    const close = find(xml, v + 3, to, 0x3e, -1);
    return close < 0 || xml[close - 1] === 0x2f ? -1 : close + 1;
  }
  return -1;
}

/** The text of a <v> element (its bytes from `start` to `vEnd`) as cellText writes the value of its type. */
function valueText(
  xml: Buffer,
  start: number,
  vEnd: number,
  type: number,
  second: number,
  strings: SharedStrings,
): string {
  // s: a shared string by its index, read from the digits in place (no digits: no string, as exceljs reads it).
  if (type === 0x73 && second === 0x22) {
    if (start === vEnd) return '';
    let index = 0;
    for (let i = start; i < vEnd; i++) index = index * 10 + (xml[i]! - 48);
    return strings.at(index).trim();
  }
  // n (the default type): a whole number as Excel writes one, digits alone, is already what cellText would
  // write; read as latin1 (it is ASCII), checked on the bytes, without a regular expression or UTF-8 decoding.
  if (type === 0x6e && wholeNumberDigits(xml, start, vEnd)) return latin1(xml, start, vEnd);
  const raw = xml.toString('utf8', start, vEnd);
  if (type === 0x62) return raw === '1' || raw === 'true' ? 'TRUE' : 'FALSE'; // b
  if (type === 0x65) return decodeXml(raw); // e
  if (type === 0x73) return decodeXml(raw).trim(); // str
  if (type === 0x64) {
    // d: an ISO 8601 date (what the format stores) as the day it names, read from the text: a Date reads a time
    // without a zone in the server's zone, a day off east of UTC. Anything else as it is written (exceljs: "NaN").
    const text = decodeXml(raw).trim();
    return /^\d{4}-\d{2}-\d{2}/.exec(text)?.[0] ?? text;
  }
  // n, any other: a number as cellText writes it (a whole number with blanks around it comes out as its digits).
  const trimmed = raw.trim();
  const number = Number(trimmed);
  return trimmed === '' || Number.isNaN(number) ? trimmed : cellText(number);
}

type Latin1Slicing = Buffer & { latin1Slice?(start: number, end: number): string };

/**
 * The bytes as latin1 text. Buffer#latin1Slice is what toString('latin1') itself calls once it has looked the
 * encoding up (undici, bundled with Node, reads bodies with its sibling utf8Slice): called directly, half the time
 * for a cell of ten digits (100,000 cells: ~20 against ~10 ms, 2026-11-27). toString where a Node lacks it.
 */
function latin1(xml: Latin1Slicing, from: number, to: number): string {
  return xml.latin1Slice ? xml.latin1Slice(from, to) : xml.toString('latin1', from, to);
}

/** Whether the bytes from `from` to `to` are 0 or 1 to 15 digits without a leading zero. */
function wholeNumberDigits(xml: Buffer, from: number, to: number): boolean {
  const length = to - from;
  if (length < 1 || length > 15 || (xml[from] === 0x30 && length > 1)) return false;
  for (let i = from; i < to; i++) {
    const byte = xml[i]!;
    if (byte < 0x30 || byte > 0x39) return false;
  }
  return true;
}

/** Where bytes `a` then `b` (or `a` alone when `b` is -1) first stand between `from` and `to`, or -1. */
function find(xml: Buffer, from: number, to: number, a: number, b: number): number {
  for (let i = from; i < to; i++) {
    if (xml[i] === a && (b < 0 || xml[i + 1] === b)) return i;
  }
  return -1;
}

/** Where `</c>` closes the cell whose content starts at `from`, or -1. */
function findCellEnd(xml: Buffer, from: number, to: number): number {
  for (let i = find(xml, from, to, 0x3c, 0x2f); i >= 0; i = find(xml, i + 2, to, 0x3c, 0x2f)) {
    if (xml[i + 2] === 0x63 && xml[i + 3] === 0x3e) return i;
  }
  return -1;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeXml(text: string): string {
  if (text.indexOf('&') < 0) return text;
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-z]+);/g, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
      return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[name] ?? whole;
  });
}
