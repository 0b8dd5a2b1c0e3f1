import { describe, expect, it } from 'vitest';
import { readTableFile } from '../../src/tables/table-file.js';
import { packageOf } from './xlsx-fixtures.js';

describe('logical and error values as a Turkish Excel shows them', () => {
  it('DOĞRU and YANLIŞ, and each error by its Turkish name', async () => {
    const stored = ['#N/A', '#VALUE!', '#REF!', '#DIV/0!', '#NUM!', '#NAME?', '#NULL!', '#GETTING_DATA'];
    const cells = [
      '<c r="A1" t="b"><v>1</v></c>',
      '<c r="B1" t="b"><v>0</v></c>',
      ...stored.map((error, i) => `<c r="${String.fromCharCode(67 + i)}1" t="e"><v>${error}</v></c>`),
    ];
    const bytes = await packageOf({ sheets: [{ name: 'L', data: `<row r="1">${cells.join('')}</row>` }] });
    const table = await readTableFile('l.xlsx', bytes);
    expect(table.records[0]!.fields).toEqual([
      'DOĞRU',
      'YANLIŞ',
      '#YOK',
      '#DEĞER!',
      '#BAŞV!',
      '#SAYI/0!',
      '#SAYI!',
      '#AD?',
      '#BOŞ!',
      // No Turkish name known: as stored.
      '#GETTING_DATA',
    ]);
  });
});
