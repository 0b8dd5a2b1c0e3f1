import { describe, expect, it } from 'vitest';
import { readTableFile, TableFileError } from '../../src/tables/table-file.js';
import { packageOf, rowsXml, workbookOf } from './xlsx-fixtures.js';

const list = (name: string) => rowsXml([['GSM'], [`${name} 5321234567`]]);

describe('which sheet of a workbook is read', () => {
  it('reads the active tab when it is a visible worksheet, and names the visible worksheets', async () => {
    const bytes = await packageOf({
      sheets: [
        { name: 'Notlar', data: list('Notlar') },
        { name: 'Liste', data: list('Liste') },
        { name: 'Özet', data: list('Özet') },
      ],
      activeTab: 1,
    });
    const table = await readTableFile('book.xlsx', bytes);
    expect(table.sheet).toBe('Liste');
    expect(table.sheets).toEqual(['Notlar', 'Liste', 'Özet']);
    expect(table.records[1]!.fields).toEqual(['Liste 5321234567']);
  });

  it('never reads a hidden or very hidden sheet unasked, nor a chart sheet', async () => {
    const bytes = await packageOf({
      sheets: [
        { name: 'Gizli', data: list('Gizli'), state: 'hidden' },
        { name: 'Grafik', kind: 'chartsheet' },
        { name: 'Çok gizli', data: list('Çok gizli'), state: 'veryHidden' },
        { name: 'Müşteriler', data: list('Müşteriler') },
        { name: 'Arşiv', data: list('Arşiv') },
      ],
      // The active tab a hidden sheet (a workbook saved by a macro): the first visible worksheet instead.
      activeTab: 0,
    });
    const table = await readTableFile('book.xlsx', bytes);
    expect(table.sheet).toBe('Müşteriler');
    expect(table.sheets).toEqual(['Müşteriler', 'Arşiv']);
    expect(table.records[1]!.fields).toEqual(['Müşteriler 5321234567']);
    // A chart sheet active: the first visible worksheet.
    const chartActive = await packageOf({
      sheets: [
        { name: 'Grafik', kind: 'chartsheet' },
        { name: 'Veri', data: list('Veri') },
      ],
      activeTab: 0,
    });
    expect((await readTableFile('book.xlsx', chartActive)).sheet).toBe('Veri');
  });

  it('reads a sheet asked for by name, and names the sheets there are when there is none by that name', async () => {
    const bytes = await workbookOf([
      { name: 'Liste', rows: [['GSM'], [5321234567]] },
      { name: 'Yedek', rows: [['GSM'], [5331234567]] },
      { name: 'Eski', rows: [['GSM'], [5341234567]], state: 'hidden' },
    ]);
    const table = await readTableFile('book.xlsx', bytes, { sheet: 'Yedek' });
    expect(table.sheet).toBe('Yedek');
    expect(table.records).toEqual([
      { line: 1, fields: ['GSM'] },
      { line: 2, fields: ['5331234567'] },
    ]);
    const unknown = readTableFile('book.xlsx', bytes, { sheet: 'Eski' });
    await expect(unknown).rejects.toThrow(TableFileError);
    await expect(unknown).rejects.toThrow(
      '“book.xlsx” has no worksheet named “Eski”: its worksheets are “Liste”, “Yedek”.',
    );
  });

  it('refuses a workbook with no visible worksheet, saying so', async () => {
    const bytes = await packageOf({
      sheets: [
        { name: 'Grafik', kind: 'chartsheet' },
        { name: 'Gizli', data: list('Gizli'), state: 'hidden' },
      ],
    });
    await expect(readTableFile('book.xlsx', bytes)).rejects.toThrow(/has no visible worksheet/);
  });
});
