import { describe, expect, it } from 'vitest';
import { readTableFile } from '../../src/tables/table-file.js';
import { whyRefused } from './refusal.js';
import { packageOf } from './xlsx-fixtures.js';

const sst = (strings: string[]) =>
  `<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">${strings.map((s) => `<si><t>${s}</t></si>`).join('')}</sst>`;

describe('cells longer than Excel holds', () => {
  it('a shared string over 32,767 characters is refused, naming the row', async () => {
    const bytes = await packageOf({
      sheets: [
        {
          name: 'Liste',
          data:
            '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c></row>' +
            '<row r="2"><c r="A2"><v>5321000001</v></c><c r="B2" t="s"><v>2</v></c></row>' +
            '<row r="5"><c r="A5"><v>5321000002</v></c><c r="B5" t="s"><v>3</v></c></row>',
        },
      ],
      sharedStrings: sst(['Telefon', 'Ad', 'Ayşe', 'ş'.repeat(99_500)]),
    });
    expect(await whyRefused('liste.xlsx', bytes)).toBe(
      '“liste.xlsx” row 5 has a cell of 99,500 characters; Excel cells hold at most 32,767: this is not a list of recipients.',
    );
  });

  it('an inline string over 32,767 characters too; 32,767 itself is read', async () => {
    const sheet = (length: number) => ({
      sheets: [
        {
          name: 'Liste',
          data:
            '<row r="1"><c r="A1" t="inlineStr"><is><t>Telefon</t></is></c><c r="B1" t="inlineStr"><is><t>Ad</t></is></c></row>' +
            `<row r="3"><c r="A3"><v>5321000001</v></c><c r="B3" t="inlineStr"><is><t>${'a'.repeat(length)}</t></is></c></row>`,
        },
      ],
    });
    expect(await whyRefused('l.xlsx', await packageOf(sheet(32_768)))).toBe(
      '“l.xlsx” row 3 has a cell of 32,768 characters; Excel cells hold at most 32,767: this is not a list of recipients.',
    );
    const table = await readTableFile('l.xlsx', await packageOf(sheet(32_767)));
    expect(table.records[1]!.fields[1]).toHaveLength(32_767);
  });
});

describe('numbers in a sheet’s markup are read exactly or not at all', () => {
  const names = sst(['Telefon', 'Ad', ...Array.from({ length: 120 }, (_, i) => `Kişi ${i}`)]);
  const sheetWith = (nameCell: string, tag = '<c r="B2" t="s">') =>
    packageOf({
      sheets: [
        {
          name: 'Liste',
          data:
            '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c></row>' +
            `<row r="2"><c r="A2"><v>5321000001</v></c>${tag}${nameCell}</c></row>`,
        },
      ],
      sharedStrings: names,
    });

  it('a shared-string index with blanks around it is that index', async () => {
    for (const v of ['<v>12 </v>', '<v>12\n</v>', '<v> 12</v>', '<v>\r\n\t12 </v>']) {
      const table = await readTableFile('l.xlsx', await sheetWith(v));
      expect(table.records[1]!.fields, v).toEqual(['5321000001', 'Kişi 10']);
    }
  });

  it('a shared-string index, style or row number holding anything but digits is a damaged sheet', async () => {
    const damaged =
      '“l.xlsx” cannot be read as an Excel workbook: it is damaged or not a real workbook. Open it in Excel and save it again as .xlsx.';
    for (const [v, tag] of [
      ['<v>1x2</v>', undefined],
      ['<v>-1</v>', undefined],
      ['<v>1 2</v>', undefined],
      ['<v>2</v>', '<c r="B2" t="s" s="1x">'],
      ['<v>2</v>', '<c t="s" s="-1" r="B2">'],
    ] as const) {
      expect(await whyRefused('l.xlsx', await sheetWith(v, tag)), `${v} ${tag}`).toBe(damaged);
    }
    const rowNumber = await packageOf({
      sheets: [
        { name: 'L', data: '<row spans="1:1" r="2x"><c t="inlineStr"><is><t>0532</t></is></c></row>' },
      ],
    });
    expect(await whyRefused('l.xlsx', rowNumber)).toBe(damaged);
  });

  it('lower-case cell references are read as Excel reads them', async () => {
    const bytes = await packageOf({
      sheets: [
        {
          name: 'Liste',
          data:
            '<row r="1"><c r="a1" t="inlineStr"><is><t>Telefon</t></is></c><c r="c1" t="inlineStr"><is><t>Ad</t></is></c></row>' +
            '<row r="2"><c r="a2"><v>5321000001</v></c><c r="c2" t="inlineStr"><is><t>Ayşe</t></is></c></row>' +
            '<row r="3"><c r="aa3"><v>1</v></c><c r="a3"><v>5321000002</v></c></row>',
        },
      ],
    });
    const table = await readTableFile('l.xlsx', bytes);
    expect(table.records.map((r) => r.fields)).toEqual([
      ['Telefon', '', 'Ad'],
      ['5321000001', '', 'Ayşe'],
      ['5321000002', ...Array(25).fill(''), '1'],
    ]);
  });
});
