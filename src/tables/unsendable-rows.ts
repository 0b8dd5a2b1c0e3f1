import type { TableRow } from '../sms/csv.js';
import { resolveColumns, templatePlaceholders, withoutPlaceholders } from '../sms/personalise.js';
import type { RejectedRow } from './file-recipients.js';

/**
 * The most characters any send can carry in one message: MAX_SEGMENTS is at most 10 (config.ts), and the
 * longest segment is GSM-7's 153 characters in a concatenated message. A row whose message would be longer can
 * never be sent, whatever the settings.
 */
export const MOST_MESSAGE_CHARACTERS = 10 * 153;

const count = (n: number) => n.toLocaleString('en-US');

/**
 * The rows of a personalised send split into those whose message may fit in a send and those that cannot: the
 * template's own text plus each of its columns' values once is already longer than MOST_MESSAGE_CHARACTERS.
 * Refused here, in the reading thread, a row's long values are neither made into a message nor sent across to
 * the bot (a workbook of 900 names of 95,000 characters each made 170 MB of messages).
 */
export function withoutUnsendableRows(
  template: string,
  columns: readonly string[],
  rows: readonly TableRow[],
  numberIndex: number,
): { rows: readonly TableRow[]; rejected: RejectedRow[] } {
  const literal = withoutPlaceholders(template).length;
  const used = new Set<number>();
  for (const column of resolveColumns(templatePlaceholders(template), columns).values()) {
    if (column !== undefined) used.add(columns.indexOf(column));
  }
  const indexes = [...used];
  const rejected: RejectedRow[] = [];
  let kept: TableRow[] | undefined;
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r]!;
    let length = literal;
    for (let i = 0; i < indexes.length; i++) length += row.fields[indexes[i]!]?.length ?? 0;
    if (length <= MOST_MESSAGE_CHARACTERS) {
      kept?.push(row);
      continue;
    }
    // Copied only from the first row refused: a file without one keeps its own array.
    kept ??= rows.slice(0, r);
    rejected.push({
      line: row.line,
      input: row.fields[numberIndex] ?? '',
      reason: `message too long: at least ${count(length)} characters, and no SMS send carries more than ${count(MOST_MESSAGE_CHARACTERS)} (10 parts of 153)`,
    });
  }
  return { rows: kept ?? rows, rejected };
}
