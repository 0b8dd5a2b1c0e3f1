/**
 * Excel's own limit on a cell ("Total number of characters that a cell can contain: 32,767", Excel
 * specifications and limits). A workbook with a longer cell was not written by Excel for people to read: it is
 * refused as soon as such a cell is decoded, before its text is kept, copied to a message or sent across threads.
 */
export const MAX_CELL_CHARACTERS = 32_767;

/** A cell's text longer than MAX_CELL_CHARACTERS; sheetRecords turns it into a refusal naming the row. */
export class CellTooLong extends Error {
  override name = 'CellTooLong';
  constructor(readonly characters: number) {
    super(`a cell of ${characters} characters`);
  }
}

export function checkedCellText(text: string): string {
  if (text.length > MAX_CELL_CHARACTERS) throw new CellTooLong(text.length);
  return text;
}

const count = (n: number) => n.toLocaleString('en-US');

export function cellTooLongRefusal(row: number, characters: number): string {
  return `row ${count(row)} has a cell of ${count(characters)} characters; Excel cells hold at most ${count(MAX_CELL_CHARACTERS)}: this is not a list of recipients.`;
}
