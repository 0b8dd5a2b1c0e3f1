import { type ColumnsWanted, HEAD_RECORDS, type TableRecord } from '../table-file.js';
import { CellTooLong, cellTooLongRefusal, checkedCellText, MAX_CELL_CHARACTERS } from './cell-length.js';
import type { CellValues } from './cell-values.js';
import { WorkbookRefusal } from './refusal.js';
import { phoneticRuns, textsIn } from './shared-strings.js';

const needle = (text: string) => Buffer.from(text, 'latin1');
const SHEET_DATA = needle('<sheetData');
const SHEET_DATA_END = needle('</sheetData>');
const INLINE = needle('<is>');
const CDATA_START = needle('<![CDATA[');
const CDATA_END = needle(']]>');

/** A sheet whose rows are not in order: read again by sheetRecords with `unordered`. */
export const ROWS_OUT_OF_ORDER = Symbol('rows out of order');

/**
 * The rows of <sheetData> (a sheet without namespace prefixes), read in the sheet's bytes (its markup is ASCII;
 * values are decoded where they are). A cell stands where its reference says (`B12`: row 12, column 2), so that
 * gaps stay gaps; a cell without one (streaming exporters write none) is the next column of its row, and a row
 * without one the next row. Rows out of order give ROWS_OUT_OF_ORDER, unless `unordered` asks for them to be put
 * in order (every column read, then).
 */
export function sheetRecords(
  xml: Buffer,
  values: CellValues,
  columnsWanted: ColumnsWanted | undefined,
  unordered = false,
): TableRecord[] | typeof ROWS_OUT_OF_ORDER {
  const begin = xml.indexOf(SHEET_DATA);
  if (begin < 0) return [];
  // Looked for from the end, where it is: a search from the start read the whole sheet for it (12 MB: ~7 ms). A
  // sheet holds one <sheetData>, and what follows it (merges, formats) cannot hold its end tag.
  const last = xml.lastIndexOf(SHEET_DATA_END);
  const end = last > begin ? last : xml.length;
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
  let wanted = unordered ? undefined : columnsWanted;
  let rowStart = 0;
  let whole = 0;
  // Where cells without a reference go: the row of the last <row> element, the column after the last cell.
  let elementRow = 0;
  let lastColumn = 0;
  // Those two as they stood when the row being read began, for a row read again.
  let rowStartElementRow = 0;
  let rowStartColumn = 0;
  // Whether rows may still be skipped past their last wanted cell: no longer once a skip was refused.
  let skipping = true;
  let at = begin + SHEET_DATA.length;
  const lacksKept = () => {
    if (!kept) return false;
    for (let c = 1; c < kept.length; c++)
      if (kept[c] === 1 && (c > width || cells[c - 1] === '')) return true;
    return false;
  };
  /** Ends the row being read; true when it is to be read again whole (and the reading set back to its start). */
  const endRow = (): boolean => {
    if (line > 0 && whole !== line && lacksKept()) {
      whole = line;
      width = 0;
      at = rowStart;
      elementRow = rowStartElementRow;
      lastColumn = rowStartColumn;
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
  // A cell longer than Excel allows stops the read where it is decoded (a shared string, an inline one): the row
  // being read is the one to name.
  try {
    for (;;) {
      // Scanned in JavaScript: a loop over the bytes costs less than a call into Buffer#indexOf per cell.
      const open = find(xml, at, end, 0x3c, -1);
      if (open < 0) {
        if (endRow()) continue;
        break;
      }
      const name = xml[open + 1];
      if (name === 0x72 && xml[open + 2] === 0x6f && xml[open + 3] === 0x77 && endsName(xml[open + 4])) {
        // <row>: its number, for the cells in it that have no reference. Its other attributes need not be read:
        // the scan goes on to the next `<`, which cannot stand in an attribute's value.
        lastColumn = 0;
        const quick = leadingRowNumber(xml, open + 4, end);
        if (quick > 0) {
          elementRow = quick;
          at = open + 8;
          continue;
        }
        const row = readRowTag(xml, open + 4, end, tag);
        if (row < 0) return unreadable();
        elementRow = row > 0 ? row : Math.max(elementRow, line) + 1;
        at = tag[TAG_END]! + 1;
        continue;
      }
      if (name !== 0x63 || !endsName(xml[open + 2])) {
        at = open + 1;
        continue;
      }
      // The tag read once, left to right: where it ends, its reference, type and style.
      if (!readCellTag(xml, open + 2, end, tag)) return unreadable();
      const tagEnd = tag[TAG_END]!;
      const column = tag[TAG_COLUMN]! || lastColumn + 1;
      const row = tag[TAG_ROW]! || Math.max(elementRow, 1);
      if (row !== line) {
        if (row < line && !unordered) return ROWS_OUT_OF_ORDER;
        if (endRow()) continue;
        line = row;
        rowStart = open;
        rowStartElementRow = elementRow;
        rowStartColumn = lastColumn;
      }
      lastColumn = column;
      const read = kept === undefined || kept[column] === 1 || whole === line;
      let value = '';
      if (tag[TAG_SELF_CLOSING] === 1) at = tagEnd + 1;
      else {
        const type = tag[TAG_TYPE]!;
        const second = tag[TAG_TYPE_SECOND]!;
        const style = tag[TAG_STYLE]!;
        // The common cell, `<v>…</v></c>` right after the tag, read in the one pass; anything else (a formula
        // before its value, an inline string, blanks between elements) by looking for the cell's end first.
        const vEnd = type === 0x69 ? -1 : simpleValueEnd(xml, tagEnd + 1, end);
        if (vEnd >= 0) {
          if (read) value = valueText(xml, tagEnd + 4, vEnd, type, second, style, values);
          at = vEnd + 8;
        } else {
          const close = findCellEnd(xml, tagEnd, end);
          if (close < 0) return unreadable();
          if (read) value = cellValue(xml, tagEnd + 1, close, type, second, style, values);
          at = close + 4;
        }
      }
      if (value.length > MAX_CELL_CHARACTERS) throw new CellTooLong(value.length);
      while (width < column - 1) cells[width++] = '';
      cells[column - 1] = value;
      if (width < column) width = column;
      // Past the last column asked for, the rest of the row is not read: on to its end. (A wanted cell written out of
      // column order after it is then missing, and the row is read again whole, as a row with an empty one is.)
      if (skipping && kept !== undefined && column >= kept.length - 1 && whole !== line) {
        const rowEnd = endOfRowCells(xml, at, end, line, elementRow);
        if (rowEnd >= 0) at = rowEnd;
        else skipping = false;
      }
    }
  } catch (error) {
    if (error instanceof CellTooLong) throw new WorkbookRefusal(cellTooLongRefusal(line, error.characters));
    throw error;
  }
  return unordered ? inOrder(records) : records;
}

/** A sheet whose markup this cannot follow (a tag never closed, a reference that is not `A1` style). */
function unreadable(): never {
  throw new SheetMarkupError();
}

export class SheetMarkupError extends Error {
  override name = 'SheetMarkupError';
}

/** Records sorted by row, those of one row (written in two places) made one, the later cell over the earlier. */
function inOrder(records: TableRecord[]): TableRecord[] {
  const sorted = records.map((r, i) => ({ r, i })).sort((a, b) => a.r.line - b.r.line || a.i - b.i);
  const merged: TableRecord[] = [];
  for (const { r } of sorted) {
    const previous = merged[merged.length - 1];
    if (previous?.line !== r.line) {
      merged.push(r);
      continue;
    }
    r.fields.forEach((field, i) => {
      if (field !== '' || previous.fields[i] === undefined) previous.fields[i] = field;
    });
    for (let i = 0; i < previous.fields.length; i++) previous.fields[i] ??= '';
  }
  return merged;
}

/** The most cells a row's skip passes over: a sheet wider than this is read cell by cell. */
const MOST_CELLS_SKIPPED = 256;

/**
 * Where the row element being read ends (past its `</row>`, blanks allowed before the `>`), when every cell from
 * `from` to there is plainly of row `line` (by its reference, or, without one, as a cell of the row element
 * `elementRow`), or -1: the row is then read cell by cell, and the caller skips no more rows of the sheet. A sheet
 * whose row holds the cells of other rows, or with no rows around its cells, loses no cell to a skip, and none of
 * its rows costs a search to the sheet's end.
 */
function endOfRowCells(xml: Buffer, from: number, to: number, line: number, elementRow: number): number {
  let cells = 0;
  for (let i = find(xml, from, to, 0x3c, -1); i >= 0; i = find(xml, i + 1, to, 0x3c, -1)) {
    const next = xml[i + 1];
    if (next === 0x63 && endsName(xml[i + 2])) {
      if (++cells > MOST_CELLS_SKIPPED) return -1;
      const row = rowOfReference(xml, i + 2, to);
      if (row === 0 ? elementRow !== line : row !== line) return -1;
    } else if (next === 0x2f && xml[i + 2] === 0x72 && xml[i + 3] === 0x6f && xml[i + 4] === 0x77) {
      let close = i + 5;
      while (close < to && isBlank(xml[close])) close++;
      return xml[close] === 0x3e ? close + 1 : -1;
    } else if (next === 0x72 && xml[i + 2] === 0x6f && xml[i + 3] === 0x77) return -1;
  }
  return -1;
}

/**
 * The row of a cell tag's reference (` r="B12"`): 0 when the tag has no `r` attribute, -1 when it is not plainly
 * read (then the row is read cell by cell).
 */
function rowOfReference(xml: Buffer, from: number, to: number): number {
  let i = from;
  for (;;) {
    while (i < to && isBlank(xml[i])) i++;
    const byte = xml[i];
    if (i >= to || byte === 0x3e || byte === 0x2f) return 0;
    const name = i;
    while (i < to && xml[i] !== 0x3d && !isBlank(xml[i]) && xml[i] !== 0x3e) i++;
    if (xml[i] !== 0x3d) return -1;
    const quote = xml[i + 1];
    if (quote !== 0x22 && quote !== 0x27) return -1;
    if (i - name === 1 && xml[name] === 0x72) {
      i += 2;
      while (i < to && columnLetter(xml[i]) > 0) i++;
      let row = 0;
      const digits = i;
      while (i < to && xml[i]! >= 0x30 && xml[i]! <= 0x39) row = row * 10 + (xml[i++]! - 0x30);
      return i > digits && xml[i] === quote ? row : -1;
    }
    i += 2;
    while (i < to && xml[i] !== quote) i++;
    i++;
  }
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

// What readCellTag and readRowTag write, by position in their Int32Array.
const TAG_END = 0;
const TAG_COLUMN = 1;
const TAG_ROW = 2;
const TAG_TYPE = 3;
const TAG_TYPE_SECOND = 4;
const TAG_SELF_CLOSING = 5;
const TAG_STYLE = 6;
const TAG_FIELDS = 7;

function isBlank(byte: number | undefined): boolean {
  return byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d;
}

/** Whether a byte ends an element's name: a blank, `>` or `/`. */
function endsName(byte: number | undefined): boolean {
  return byte === 0x3e || byte === 0x2f || isBlank(byte);
}

/**
 * A <c> tag's attributes from `from` (after `<c`) to its `>`, in one pass: `r` as column and row (0 when
 * absent), `t`'s first two bytes (`n` when absent; a one-letter type's second is `"`), `s` (the style, 0 when
 * absent), where the tag ends and whether it closes itself. False for a tag that is not well formed, or a
 * reference that is not `A1` style.
 */
function readCellTag(xml: Buffer, from: number, to: number, out: Int32Array): boolean {
  out[TAG_COLUMN] = 0;
  out[TAG_ROW] = 0;
  out[TAG_TYPE] = 0x6e;
  out[TAG_TYPE_SECOND] = 0;
  out[TAG_STYLE] = 0;
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
      for (let letter = columnLetter(xml[i]); i < to && letter > 0; letter = columnLetter(xml[++i]))
        column = column * 26 + letter;
      for (; i < to && xml[i]! >= 48 && xml[i]! <= 57; i++) row = row * 10 + (xml[i]! - 48);
      if (i >= to || xml[i] !== quote) return false;
      out[TAG_COLUMN] = column;
      out[TAG_ROW] = row;
    } else if (oneLetter === 0x73) {
      // The tag's end is written again once the tag is read: here it carries where the value ends. An empty
      // s="" is the default style, as an absent one.
      if (xml[i] !== quote) {
        const style = attributeNumber(xml, i, to, quote, out);
        if (style < 0) return false;
        i = out[TAG_END]!;
        out[TAG_STYLE] = style;
      }
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

/** The row number when a <row> tag's first attribute is ` r="N"` (as every writer that numbers rows puts it), else 0. */
function leadingRowNumber(xml: Buffer, from: number, to: number): number {
  if (xml[from] !== 0x20 || xml[from + 1] !== 0x72 || xml[from + 2] !== 0x3d || xml[from + 3] !== 0x22)
    return 0;
  let row = 0;
  let i = from + 4;
  for (; i < to && xml[i]! >= 48 && xml[i]! <= 57; i++) row = row * 10 + (xml[i]! - 48);
  return xml[i] === 0x22 ? row : 0;
}

/**
 * A <row> tag from `from` (after `<row`) to its `>`: its `r` (0 when absent), or -1 when it is not well formed;
 * where it ends goes to out[TAG_END].
 */
function readRowTag(xml: Buffer, from: number, to: number, out: Int32Array): number {
  let row = 0;
  let i = from;
  for (;;) {
    while (i < to && isBlank(xml[i])) i++;
    if (i >= to) return -1;
    const byte = xml[i]!;
    if (byte === 0x3e || (byte === 0x2f && xml[i + 1] === 0x3e)) {
      out[TAG_END] = byte === 0x2f ? i + 1 : i;
      return row;
    }
    const name = i;
    while (i < to && xml[i] !== 0x3d && !isBlank(xml[i]) && xml[i] !== 0x3e) i++;
    const isR = i - name === 1 && xml[name] === 0x72;
    while (i < to && isBlank(xml[i])) i++;
    if (xml[i] !== 0x3d) return -1;
    i++;
    while (i < to && isBlank(xml[i])) i++;
    const quote = xml[i];
    if (quote !== 0x22 && quote !== 0x27) return -1;
    i++;
    if (isR && xml[i] !== quote) {
      row = attributeNumber(xml, i, to, quote, out);
      if (row < 0) return -1;
      i = out[TAG_END]!;
    }
    while (i < to && xml[i] !== quote) i++;
    if (i >= to) return -1;
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

/** A cell's value as text; `type` and `second` are t="…"'s first two bytes, `style` its s="…". */
function cellValue(
  xml: Buffer,
  from: number,
  to: number,
  type: number,
  second: number,
  style: number,
  values: CellValues,
): string {
  // inlineStr: the <is> element's texts, decoded as the shared strings are.
  if (type === 0x69) {
    const is = xml.indexOf(INLINE, from);
    if (is < 0 || is >= to) return '';
    const part = xml.toString('utf8', is + 4, to);
    return checkedCellText(textsIn(part, 0, part.length, phoneticRuns(part))).trim();
  }
  const v = valueStart(xml, from, to);
  const vEnd = v < 0 ? -1 : find(xml, v, to, 0x3c, 0x2f);
  if (vEnd < 0) return '';
  return valueText(xml, v, vEnd, type, second, style, values);
}

/**
 * Where the text of the cell's <v> starts (past its `>`), between `from` and `to`, or -1 without one. The <v> may
 * have attributes: some writers keep a value's blanks with `<v xml:space="preserve">`.
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

/** The text of a <v> element (its bytes from `start` to `vEnd`) as the cell of its type and style shows it. */
function valueText(
  xml: Buffer,
  start: number,
  vEnd: number,
  type: number,
  second: number,
  style: number,
  values: CellValues,
): string {
  // s: a shared string by its index, read from the digits in place (no digits: no string).
  if (type === 0x73 && second === 0x22) {
    const index = sharedStringIndex(xml, start, vEnd);
    return index < 0 ? '' : values.strings.at(index).trim();
  }
  // n (the default type) in the General format: a whole number as Excel writes one, digits alone, is already its
  // text; read as latin1 (it is ASCII), checked on the bytes, without a regular expression or UTF-8 decoding.
  if (type === 0x6e && wholeNumberDigits(xml, start, vEnd) && values.isGeneral(style)) {
    return latin1(xml, start, vEnd);
  }
  const raw = xml.toString('utf8', start, vEnd);
  if (type === 0x6e) return values.number(raw, style);
  return values.typed(type, second, raw, style);
}

/**
 * A shared string's index from a <v>'s bytes: digits, blanks around them allowed (an unsignedInt in XML), no
 * digits -1 (an empty cell). Anything else is a damaged sheet: read as digits, `12 ` was
 * string 104 and `12\n` string 82, another person's name.
 */
function sharedStringIndex(xml: Buffer, from: number, to: number): number {
  let start = from;
  let end = to;
  while (start < end && isBlank(xml[start])) start++;
  while (end > start && isBlank(xml[end - 1])) end--;
  if (start === end) return -1;
  if (end - start > 15) unreadable();
  let index = 0;
  for (let i = start; i < end; i++) {
    const digit = xml[i]! - 0x30;
    if (digit < 0 || digit > 9) unreadable();
    index = index * 10 + digit;
  }
  return index;
}

/**
 * An unsigned number attribute's value from `from` (past its opening quote): its digits, blanks around them
 * allowed; where it ends (its closing quote) goes to out[TAG_END]. -1 when anything else stands in it.
 */
function attributeNumber(xml: Buffer, from: number, to: number, quote: number, out: Int32Array): number {
  let i = from;
  while (i < to && isBlank(xml[i])) i++;
  const digits = i;
  let value = 0;
  for (; i < to && xml[i]! >= 48 && xml[i]! <= 57 && i - digits < 10; i++)
    value = value * 10 + (xml[i]! - 48);
  if (i === digits) return -1;
  while (i < to && isBlank(xml[i])) i++;
  if (xml[i] !== quote) return -1;
  out[TAG_END] = i;
  return value;
}

/** A column letter's number (A or a: 1, Z or z: 26), 0 for any other byte: Excel reads `a1` as `A1`. */
function columnLetter(byte: number | undefined): number {
  if (byte === undefined) return 0;
  const upper = byte & 0xdf;
  return byte >= 0x41 && upper >= 0x41 && upper <= 0x5a && (byte <= 0x5a || byte >= 0x61) ? upper - 64 : 0;
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

/**
 * Where `</c>` closes the cell whose content starts at `from`, or -1. An inline string's CDATA section is passed
 * over: its text may hold `</c>`.
 */
function findCellEnd(xml: Buffer, from: number, to: number): number {
  for (let i = find(xml, from, to, 0x3c, -1); i >= 0; i = find(xml, i + 1, to, 0x3c, -1)) {
    const next = xml[i + 1];
    if (next === 0x2f && xml[i + 2] === 0x63 && xml[i + 3] === 0x3e) return i;
    if (next === 0x21 && isCdataStart(xml, i)) {
      const close = xml.indexOf(CDATA_END, i + 9);
      if (close < 0 || close >= to) return -1;
      i = close + 2;
    }
  }
  return -1;
}

function isCdataStart(xml: Buffer, at: number): boolean {
  return xml.compare(CDATA_START, 0, CDATA_START.length, at, at + CDATA_START.length) === 0;
}
