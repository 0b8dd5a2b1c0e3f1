import type { CountryCode } from '../sms/numbers.js';
import { resolveColumns, templatePlaceholders } from '../sms/personalise.js';
import { type PhoneColumnOptions, personalisedTable } from './file-recipients.js';
import type { ColumnsWanted } from './table-file.js';

/**
 * What a personalised send reads of a file: the phone column and the template's columns, found in the first
 * records as personalisedTable and addressRows find them (the header need not be the first record); every
 * column when the header or the template has a problem (the draft then reports it from the whole file).
 * `options` must be the ones personalisedTable is given, so that both read the same phone column.
 */
export function personalisedColumns(
  template: string,
  country: CountryCode,
  options: PhoneColumnOptions = {},
): ColumnsWanted {
  return (head) => {
    const table = personalisedTable({ records: head }, country, options);
    if (table.errors.length > 0) return undefined;
    const indexes = [table.numberIndex];
    for (const column of resolveColumns(templatePlaceholders(template), table.columns).values()) {
      if (column === undefined) return undefined;
      indexes.push(table.columns.indexOf(column));
    }
    return indexes;
  };
}
