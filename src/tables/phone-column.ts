import type { CountryCode } from '../sms/numbers.js';
import { isMobileCell, isTcIdentityNumber, looksLikeNumber } from './cell-kinds.js';
import { columnNameKind, nameRank } from './column-names.js';
import { COLUMNS_LOOKED_AT, findHeaderRow } from './header-row.js';
import { HEAD_RECORDS, type TableRecord } from './table-file.js';

/** Data rows under the header that the phone column is chosen from. */
export const CHOICE_ROWS = 50;

/**
 * A column the person may pick instead, when the numbers could come from more than one column. `index` is
 * the column's place in each record's fields (0-based, blank leading columns counted), what a forced choice
 * (`PhoneColumnOptions.phoneColumn`) takes; `name` its header, or "column N" (1-based) without one;
 * `mobileShare` the share (0 to 1) of the first 50 data rows whose cell there is a number that can receive
 * SMS (for TR a 5xx mobile).
 */
export interface ColumnChoice {
  index: number;
  name: string;
  mobileShare: number;
}

/** How the person steers the choice of column. */
export interface PhoneColumnOptions {
  /**
   * The column to read the numbers from, by its index in the fields (a ColumnChoice's `index`): what the
   * person picked in the confirmation. Taken as given, whatever the content and the name say.
   */
  phoneColumn?: number;
}

export interface PhoneColumn {
  /** The column the numbers are read from. */
  index: number;
  /** The close candidates, the chosen one first; empty when one column was clearly best. */
  choices: ColumnChoice[];
}

// Two columns are a close call when both are mostly mobiles, or their shares are this near.
const CLOSE_SHARE = 0.1;
const MOSTLY_MOBILE = 0.8;

interface ColumnScore {
  index: number;
  name: string;
  mobileShare: number;
  rank: number;
  numbers: number;
}

export function columnLabel(index: number): string {
  return `column ${index + 1}`;
}

/**
 * The column of recipients' numbers, decided by content first, then by name:
 * - never an identity column: one named so (TC Kimlik No, TCKN, Vergi No, IBAN, Müşteri No...) or one where
 *   at least half the filled cells are valid TC identity numbers (11 digits that can pass for a foreign number);
 * - the highest share of numbers that can receive SMS (a landline "Telefon" of 0212 numbers loses to a
 *   "Cep Telefonu" of 05xx numbers);
 * - among columns close to the best (see CLOSE_SHARE, MOSTLY_MOBILE), the name decides (Cep, GSM, Mobil over
 *   Telefon, Tel over no name over Sabit, Ev, İş, Fax), and the close ones are returned as choices;
 * - with no such number anywhere, the name alone, else the column with the most phone-shaped cells.
 */
export function choosePhoneColumn(
  header: TableRecord | undefined,
  rows: readonly TableRecord[],
  country: CountryCode,
  options: PhoneColumnOptions = {},
): PhoneColumn {
  const scores = scoreColumns(header, rows.slice(0, CHOICE_ROWS), country);
  const eligible = scores.filter((s) => s.rank >= 0);
  let top = 0;
  for (const s of eligible) if (s.mobileShare > top) top = s.mobileShare;
  let index = 0;
  let choices: ColumnChoice[] = [];
  if (top > 0) {
    const close = eligible
      .filter(
        (s) =>
          s.mobileShare > 0 &&
          (s.mobileShare >= top - CLOSE_SHARE - 1e-9 ||
            (top >= MOSTLY_MOBILE && s.mobileShare >= MOSTLY_MOBILE)),
      )
      .sort((a, b) => b.rank - a.rank || b.mobileShare - a.mobileShare || a.index - b.index);
    index = close[0]!.index;
    if (close.length > 1) {
      choices = close.map(({ index, name, mobileShare }) => ({ index, name, mobileShare }));
    }
  } else {
    const named = eligible.filter((s) => s.rank !== 1).sort((a, b) => b.rank - a.rank || a.index - b.index);
    const byNumbers = [...eligible].sort((a, b) => b.numbers - a.numbers || a.index - b.index);
    // Column 0 only when every column is an identity column (a forced choice aside, nothing else is left).
    index = named[0]?.index ?? byNumbers[0]?.index ?? 0;
  }
  const forced = options.phoneColumn;
  if (forced !== undefined && Number.isInteger(forced) && forced >= 0) index = forced;
  return { index, choices };
}

function scoreColumns(
  header: TableRecord | undefined,
  rows: readonly TableRecord[],
  country: CountryCode,
): ColumnScore[] {
  let width = header?.fields.length ?? 0;
  for (const row of rows) width = Math.max(width, row.fields.length);
  width = Math.min(width, COLUMNS_LOOKED_AT);
  const scores: ColumnScore[] = [];
  for (let c = 0; c < width; c++) {
    let filled = 0;
    let mobiles = 0;
    let identities = 0;
    let numbers = 0;
    for (const row of rows) {
      const cell = row.fields[c] ?? '';
      if (cell === '') continue;
      filled++;
      // Each cell parsed once: a TC number and a mobile are phone-shaped too.
      if (isTcIdentityNumber(cell)) identities++;
      else if (isMobileCell(cell, country)) mobiles++;
      else if (!looksLikeNumber(cell, country)) continue;
      numbers++;
    }
    const name = header?.fields[c]?.trim() ?? '';
    const named = name === '' ? 1 : nameRank(name);
    const identity = columnNameKind(name) === 'identity' || (identities > 0 && identities * 2 >= filled);
    scores.push({
      index: c,
      name: name || columnLabel(c),
      mobileShare: rows.length === 0 ? 0 : mobiles / rows.length,
      rank: identity ? -1 : named,
      numbers,
    });
  }
  return scores;
}

/** Where a file's header, data and phone column are, decided from its first records alone. */
export interface LocatedColumns extends PhoneColumn {
  /** Index of the header among the records, or -1 when the file has none. */
  headerIndex: number;
  /** Index of the first record of data; the records above it (title, notes, header) are not rows. */
  dataIndex: number;
}

/**
 * The header and the phone column of a file, from its first HEAD_RECORDS records only: the same answer from
 * those records as from the whole file, which is what lets a ColumnsWanted read only the chosen columns.
 */
export function locatePhoneColumn(
  records: readonly TableRecord[],
  country: CountryCode,
  options: PhoneColumnOptions = {},
): LocatedColumns {
  const head = records.length > HEAD_RECORDS ? records.slice(0, HEAD_RECORDS) : records;
  const { header, data } = findHeaderRow(head, country);
  return {
    headerIndex: header,
    dataIndex: data,
    ...choosePhoneColumn(head[header], head.slice(data, data + CHOICE_ROWS), country, options),
  };
}
