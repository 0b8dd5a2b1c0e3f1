import ExcelJS from 'exceljs';
import fc from 'fast-check';
import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { readTableFile, readXlsxWithExceljs, TableFileError } from '../../src/sms/table-file.js';
import { readFirstSheet, XlsxTooLargeError } from '../../src/sms/xlsx-reader.js';

async function workbookOf(
  sheets: { name: string; rows: (ExcelJS.CellValue | undefined)[][] }[],
): Promise<Uint8Array> {
  const workbook = new ExcelJS.Workbook();
  for (const { name, rows } of sheets) {
    const ws = workbook.addWorksheet(name);
    rows.forEach((row, r) => {
      row.forEach((value, c) => {
        if (value !== undefined) ws.getCell(r + 1, c + 1).value = value;
      });
    });
  }
  return new Uint8Array((await workbook.xlsx.writeBuffer()) as ArrayBuffer);
}

/** What exceljs' reader gives (it tries twice: see readXlsxWithExceljs): the reference the fast reader is held to. */
async function viaExceljs(bytes: Uint8Array) {
  const table = await readXlsxWithExceljs('list.xlsx', bytes);
  return { sheet: table.sheet, records: table.records };
}

/** The workbook with its first sheet's XML changed: what other writers than exceljs put there. */
async function withSheetXml(bytes: Uint8Array, change: (xml: string) => string): Promise<Uint8Array> {
  const zip = await JSZip.loadAsync(bytes);
  const xml = await zip.file('xl/worksheets/sheet1.xml')!.async('string');
  zip.file('xl/worksheets/sheet1.xml', change(xml));
  return zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE' });
}

const cell = fc.oneof(
  fc.constant(undefined),
  fc.integer({ min: -1_000_000, max: 1_000_000 }),
  fc.integer({ min: 5_000_000_000, max: 5_999_999_999 }),
  fc.constantFrom(905321234567, 0, 1e21, 12.5, -0.25, 1e-7),
  fc.boolean(),
  fc.string({ maxLength: 12 }),
  fc.constantFrom(
    'Ayşe Yılmaz',
    'İĞÜŞÖÇ ığüşöç',
    'a & b <c> "d" \'e\'',
    '  padded  ',
    '05321234567',
    '5,32E+09',
    '',
  ),
);

describe('the fast .xlsx reader', () => {
  it('reads what exceljs reads: numbers, text, gaps, empty rows, booleans; the first sheet only', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(cell, { maxLength: 6 }), { maxLength: 12 }),
        fc.array(fc.array(cell, { maxLength: 3 }), { maxLength: 3 }),
        async (rows, other) => {
          const bytes = await workbookOf([
            { name: 'Müşteriler & Co', rows },
            { name: 'Notlar', rows: other },
          ]);
          expect(readFirstSheet(bytes)).toEqual(await viaExceljs(bytes));
        },
      ),
      { numRuns: Number(process.env.XLSX_RUNS ?? 25) },
    );
    // Each run writes and reads a workbook twice: seconds on two busy cores.
  }, 180_000);

  it('reads rich text, formulas by their result, errors and dates as exceljs does', async () => {
    const bytes = await workbookOf([
      {
        name: 'Liste',
        rows: [
          [
            { richText: [{ text: 'Ay' }, { font: { bold: true }, text: 'şe ' }] },
            { formula: 'B2*2', result: 5321234567 },
            { formula: 'CONCAT("a","b")', result: 'ab' },
            { error: '#N/A' },
            new Date(Date.UTC(2026, 10, 23)),
          ],
        ],
      },
    ]);
    const fast = readFirstSheet(bytes);
    expect(fast).toEqual(await viaExceljs(bytes));
    // Styles are not read, so a date is its serial number, as exceljs gives it with styles ignored.
    expect(fast?.records[0]?.fields).toEqual(['Ayşe', '5321234567', 'ab', '#N/A', '46349']);
  });

  it('reads inline strings, with runs and phonetic runs left out, as other writers store text', async () => {
    const base = await workbookOf([{ name: 'Liste', rows: [['x', 1]] }]);
    const bytes = await withSheetXml(base, (xml) =>
      xml.replace(
        /<sheetData>.*<\/sheetData>/s,
        '<sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>GSM</t></is></c><c r="C1" t="inlineStr"><is><r><t>Ad</t></r><r><t xml:space="preserve"> Soyad</t></r><rPh><t>ふりがな</t></rPh></is></c></row>' +
          '<row r="3"><c r="A3"><v>5321234567</v></c><c r="C3" t="inlineStr"><is><t>Çağrı &amp; Işık</t></is></c></row></sheetData>',
      ),
    );
    expect(readFirstSheet(bytes)?.records).toEqual([
      { line: 1, fields: ['GSM', '', 'Ad Soyad'] },
      { line: 3, fields: ['5321234567', '', 'Çağrı & Işık'] },
    ]);
  });

  it('leaves what it does not read to exceljs, and the file is still read', async () => {
    const base = await workbookOf([{ name: 'Liste', rows: [['GSM'], [5321234567]] }]);
    // Rows out of order, which a hand-edited or generated sheet may have: exceljs reads them as they stand.
    const swapped = await withSheetXml(base, (xml) =>
      xml.replace(/(<row r="1".*?<\/row>)(<row r="2".*?<\/row>)/s, '$2$1'),
    );
    expect(swapped).not.toEqual(base);
    expect(readFirstSheet(swapped)).toBeUndefined();
    const table = await readTableFile('list.xlsx', swapped);
    expect(table.records).toEqual([
      { line: 2, fields: ['5321234567'] },
      { line: 1, fields: ['GSM'] },
    ]);
  });

  it('refuses a workbook that unpacks to more than the limit, before unpacking it', async () => {
    const bytes = await workbookOf([
      { name: 'Liste', rows: [['GSM'], ...Array.from({ length: 500 }, (_, i) => [5321000000 + i])] },
    ]);
    expect(() => readFirstSheet(bytes, { maxInflatedBytes: 10_000 })).toThrow(XlsxTooLargeError);
    expect(readFirstSheet(bytes)?.records).toHaveLength(501);
  });

  it('gives a reason a person can act on for a damaged workbook', async () => {
    const bytes = await workbookOf([{ name: 'Liste', rows: [['GSM'], [5321234567]] }]);
    const damaged = bytes.slice(0, Math.floor(bytes.length / 2));
    await expect(readTableFile('list.xlsx', damaged)).rejects.toThrow(TableFileError);
    // Shorter than a zip's smallest record: no offset may be read past the end.
    const stub = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]);
    expect(readFirstSheet(stub)).toBeUndefined();
    await expect(readTableFile('list.xlsx', stub)).rejects.toThrow(TableFileError);
  });
});
