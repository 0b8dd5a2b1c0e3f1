import { Readable } from 'node:stream';
import type ExcelJS from 'exceljs';
import fc from 'fast-check';
import { format as numfmt } from 'numfmt';
import { describe, expect, it } from 'vitest';
import {
  HEAD_RECORDS,
  readTableFile,
  TableFileError,
  type TableRecord,
} from '../../src/tables/table-file.js';
import { readXlsx as readWorkbook, type XlsxReadOptions } from '../../src/tables/xlsx/read-xlsx.js';
import { WorkbookRefusal } from '../../src/tables/xlsx/refusal.js';
import { withPart, workbookOf } from './xlsx-fixtures.js';

/** What our reader gives, in the shape the reference gives. */
function readFirstSheet(bytes: Uint8Array, options: XlsxReadOptions = {}) {
  const { sheet, records } = readWorkbook(bytes, options);
  return { sheet, records };
}

const withSheetXml = (
  bytes: Uint8Array,
  change: (xml: string) => string,
  part = 'xl/worksheets/sheet1.xml',
) => withPart(bytes, part, change);

/**
 * exceljs' streaming reader, styles ignored, the first sheet: an outside reader our own is held equal to on
 * ordinary workbooks (numbers, text, gaps). It refuses about one valid workbook in a hundred to four hundred at
 * random (a race in its reader: "Cannot read properties of undefined (reading 'sheets')"), so a refusal is tried
 * up to twice more.
 */
async function viaExceljs(bytes: Uint8Array): Promise<{ sheet: string | undefined; records: TableRecord[] }> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await exceljsFirstSheet(bytes);
    } catch (error) {
      if (attempt === 3) throw error;
    }
  }
}

async function exceljsFirstSheet(bytes: Uint8Array) {
  const { default: excel } = await import('exceljs');
  const records: TableRecord[] = [];
  let sheet: string | undefined;
  const reader = new excel.stream.xlsx.WorkbookReader(Readable.from([Buffer.from(bytes)]), {
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    styles: 'ignore',
    worksheets: 'emit',
    entries: 'emit',
  });
  for await (const worksheet of reader) {
    sheet = (worksheet as unknown as { name?: string }).name;
    for await (const row of worksheet as AsyncIterable<ExcelJS.Row>) {
      const values = row.values as unknown[];
      const fields: string[] = [];
      for (let c = 1; c < values.length; c++) fields.push(exceljsText(values[c]));
      while (fields.length > 0 && fields[fields.length - 1] === '') fields.pop();
      if (fields.length > 0) records.push({ line: row.number, fields });
    }
    break;
  }
  return { sheet, records };
}

/**
 * An exceljs value as the product reads a cell: whole numbers as their digits, other numbers in General as Turkish
 * Excel shows them (12,5), formulas by their result.
 */
function exceljsText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number') {
    if (Number.isInteger(value) && Math.abs(value) < 1e21) return value.toFixed(0);
    return numfmt('General', value, { locale: 'tr' });
  }
  if (typeof value === 'boolean') return value ? 'DOĞRU' : 'YANLIŞ';
  if (typeof value === 'object') {
    const v = value as { result?: unknown; text?: unknown; richText?: { text: string }[]; error?: string };
    if ('result' in v) return exceljsText(v.result);
    if (Array.isArray(v.richText))
      return v.richText
        .map((r) => r.text)
        .join('')
        .trim();
    if (typeof v.text === 'string') return v.text.trim();
    // exceljs gives an error as stored (in English); Turkish Excel shows #N/A as #YOK.
    if (typeof v.error === 'string') return v.error === '#N/A' ? '#YOK' : v.error;
  }
  return String(value).trim();
}

/**
 * What a reader asked for `wanted` must give, from the whole sheet: the first records whole; past them, the
 * wanted cells, the others empty, except a record with a wanted cell empty or missing, which stays whole.
 */
function projected(whole: { line: number; fields: string[] }[], wanted: readonly number[]) {
  return whole.map((record, r) => {
    if (r < HEAD_RECORDS || wanted.some((i) => (record.fields[i] ?? '') === '')) return record;
    const fields = record.fields.map((f, i) => (wanted.includes(i) ? f : ''));
    while (fields.length > 0 && fields[fields.length - 1] === '') fields.pop();
    return { line: record.line, fields };
  });
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

  it('reads only the columns asked for past the first records, and a row whose wanted cell is empty whole', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(cell, { maxLength: 5 }), {
          minLength: HEAD_RECORDS - 2,
          maxLength: HEAD_RECORDS + 30,
        }),
        fc.uniqueArray(fc.integer({ min: 0, max: 5 }), { minLength: 1, maxLength: 3 }),
        async (rows, wanted) => {
          const bytes = await workbookOf([{ name: 'Liste', rows }]);
          const whole = readFirstSheet(bytes);
          let shown: number | undefined;
          const read = readFirstSheet(bytes, {
            columnsWanted: (head) => {
              shown = head.length;
              expect(head).toEqual(whole?.records.slice(0, HEAD_RECORDS));
              return wanted;
            },
          });
          expect(shown).toBe(whole!.records.length >= HEAD_RECORDS ? HEAD_RECORDS : undefined);
          expect(read?.records).toEqual(projected(whole!.records, wanted));
        },
      ),
      { numRuns: Number(process.env.XLSX_RUNS ?? 25) },
    );
  }, 180_000);

  it('reads the wanted cells of rows whose cells are not in column order, as other writers may leave them', async () => {
    const rows = Array.from({ length: HEAD_RECORDS + 20 }, (_, i) => [5_321_000_000 + i, `Ad ${i}`, `K${i}`]);
    const inOrder = await workbookOf([{ name: 'Liste', rows }]);
    // Past the first records, every other row's cells backwards: C, B, A.
    const bytes = await withSheetXml(inOrder, (xml) =>
      xml.replace(
        /<row r="(\d+)"([^>]*)>(.*?)<\/row>/g,
        (whole, r: string, attributes: string, cells: string) =>
          Number(r) > HEAD_RECORDS && Number(r) % 2 === 0
            ? `<row r="${r}"${attributes}>${(cells.match(/<c [^>]*?(?:\/>|>.*?<\/c>)/g) ?? []).reverse().join('')}</row>`
            : whole,
      ),
    );
    const whole = readFirstSheet(bytes)!.records;
    expect(whole).toEqual(readFirstSheet(inOrder)!.records);
    for (const wanted of [[0], [2], [0, 2], [1]]) {
      const read = readFirstSheet(bytes, { columnsWanted: () => wanted })!.records;
      expect(read.map((r) => r.line)).toEqual(whole.map((r) => r.line));
      read.forEach((record, r) => {
        const full = whole[r]!.fields;
        full.forEach((value, i) => {
          // A wanted cell as it is; another one empty, or as it is where the row was read whole.
          if (wanted.includes(i)) expect(record.fields[i]).toBe(value);
          else expect(['', value]).toContain(record.fields[i] ?? '');
        });
      });
    }
  });

  it('skips no cell of a row that is written oddly: blanks in its end tag, other rows’ cells in it, no rows at all', async () => {
    const base = await workbookOf([{ name: 'Liste', rows: [[1]] }]);
    const rows = 20_000;
    const cells = (r: number) =>
      `<c r="A${r}"><v>${5_320_000_000 + r}</v></c><c r="B${r}" t="inlineStr"><is><t>Ad ${r}</t></is></c>`;
    const all = (write: (r: number) => string) =>
      Array.from({ length: rows }, (_, i) => write(i + 1)).join('');
    /** The workbook with its sheetData written as `data`. */
    const sheet = (data: string) =>
      withSheetXml(base, (xml) =>
        xml.replace(/<sheetData>.*<\/sheetData>|<sheetData\/>/s, () => `<sheetData>${data}</sheetData>`),
      );
    const oddly = {
      // Valid XML: blanks before the `>` of an end tag.
      'end tags with blanks': await sheet(all((r) => `<row r="${r}">${cells(r)}</row >`)),
      'every cell in one row': await sheet(`<row r="1">${all(cells)}</row>`),
      'no rows around the cells': await sheet(all(cells)),
    };
    for (const [how, bytes] of Object.entries(oddly)) {
      const whole = readFirstSheet(bytes)!.records;
      expect(whole, how).toHaveLength(rows);
      // Read for the first column: every number, in a time that grows with the sheet (a search to the sheet's end
      // for each row took over a minute for the first of these; the test's timeout would end it).
      const read = readFirstSheet(bytes, { columnsWanted: () => [0] })!.records;
      expect(
        read.map((r) => [r.line, r.fields[0]]),
        how,
      ).toEqual(whole.map((r) => [r.line, r.fields[0]]));
    }
  });

  it('refuses a workbook with a broken shared string, even when the send reads no string past it', async () => {
    const rows = [['Ad', 'GSM'], ...Array.from({ length: 100 }, (_, i) => [`Ad ${i}`, 5321000000 + i])];
    const bytes = await workbookOf([{ name: 'Liste', rows }]);
    // The strings part cut short after the first 70 names, the last one never closed; the first records need 63.
    const broken = await withSheetXml(
      bytes,
      (xml) => xml.replace(/(<si><t>Ad 70<\/t><\/si>).*<\/sst>$/s, '$1<si><t>Ad 71</t></sst>'),
      'xl/sharedStrings.xml',
    );
    expect(readFirstSheet(bytes, { columnsWanted: () => [1] })?.records).toEqual(
      projected(readFirstSheet(bytes)!.records, [1]),
    );
    expect(() => readFirstSheet(broken)).toThrow(WorkbookRefusal);
    expect(() => readFirstSheet(broken, { columnsWanted: () => [1] })).toThrow(WorkbookRefusal);
    expect(() => readFirstSheet(broken, { columnsWanted: () => [0] })).toThrow(WorkbookRefusal);
    await expect(readTableFile('list.xlsx', broken)).rejects.toThrow(/damaged or not a real workbook/);
  });

  it('reads rich text, formulas by their result and errors as exceljs does, and a date as the sheet shows it', async () => {
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
    // The date as the sheet shows it (exceljs writes it in format 14, which Turkish Excel shows as dd.MM.yyyy);
    // exceljs, styles ignored, gives its serial number, 46349.
    expect(fast?.records[0]?.fields).toEqual(['Ayşe', '5321234567', 'ab', '#YOK', '23.11.2026']);
    const reference = await viaExceljs(bytes);
    expect(reference.records[0]?.fields.slice(0, 4)).toEqual(fast.records[0]?.fields.slice(0, 4));
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

  it('reads a shared-string cell with an empty value as empty, as exceljs does', async () => {
    const base = await workbookOf([
      {
        name: 'Liste',
        rows: [
          ['GSM', 'Ad'],
          [5321234567, 'Ayşe'],
        ],
      },
    ]);
    const empty = await withSheetXml(base, (xml) =>
      xml.replace(/(<c r="B2" t="s">)<v>\d+<\/v>/, '$1<v></v>'),
    );
    expect(empty).not.toEqual(base);
    expect(readFirstSheet(empty)).toEqual(await viaExceljs(empty));
    expect(readFirstSheet(empty)?.records[1]).toEqual({ line: 2, fields: ['5321234567'] });
  });

  it('reads cells written with other blanks and quotes, as exceljs reads them', async () => {
    const base = await workbookOf([
      {
        name: 'Liste',
        rows: [
          ['GSM', 'Ad'],
          [5321234567, 'Ayşe'],
          [5331234567, 'Can'],
        ],
      },
    ]);
    // Newlines and tabs between a cell's attributes, single quotes, a blank before the tag ends.
    const odd = await withSheetXml(base, (xml) =>
      xml
        .replace(/<c r="([A-Z]+\d+)" t="s">/g, "<c\n  r='$1'\tt='s' >")
        .replace(/<c r="([A-Z]+\d+)">/g, '<c\tr="$1"\n>'),
    );
    expect(odd).not.toEqual(base);
    const read = readFirstSheet(odd);
    expect(read).toEqual(await viaExceljs(odd));
    expect(read?.records).toEqual([
      { line: 1, fields: ['GSM', 'Ad'] },
      { line: 2, fields: ['5321234567', 'Ayşe'] },
      { line: 3, fields: ['5331234567', 'Can'] },
    ]);
  });

  it('reads a value element with attributes, as some writers keep a value’s blanks, as exceljs does', async () => {
    const base = await workbookOf([{ name: 'Liste', rows: [['GSM'], ['x'], ['y']] }]);
    const bytes = await withSheetXml(base, (xml) =>
      xml
        .replace(/<c r="A2"[^>]*?(?:\/>|>.*?<\/c>)/, '<c r="A2"><v xml:space="preserve">5321234567</v></c>')
        .replace(
          /<c r="A3"[^>]*?(?:\/>|>.*?<\/c>)/,
          '<c r="A3" t="str"><v xml:space="preserve"> Ayşe </v></c>',
        ),
    );
    expect(readFirstSheet(bytes)?.records).toEqual([
      { line: 1, fields: ['GSM'] },
      { line: 2, fields: ['5321234567'] },
      { line: 3, fields: ['Ayşe'] },
    ]);
    expect(readFirstSheet(bytes)).toEqual(await viaExceljs(bytes));
  });

  it('reads an ISO date cell as the day it names, whatever the server’s zone, and one that is not a date as written', async () => {
    const base = await workbookOf([{ name: 'Liste', rows: [['x'], ['y']] }]);
    const bytes = await withSheetXml(base, (xml) =>
      xml
        .replace(/<c r="A1"[^>]*?(?:\/>|>.*?<\/c>)/, '<c r="A1" t="d"><v>2024-03-05T00:30:00</v></c>')
        .replace(/<c r="A2"[^>]*?(?:\/>|>.*?<\/c>)/, '<c r="A2" t="d"><v>yarın</v></c>'),
    );
    // exceljs reads these as "2024" and "NaN".
    expect(readFirstSheet(bytes)?.records).toEqual([
      { line: 1, fields: ['2024-03-05'] },
      { line: 2, fields: ['yarın'] },
    ]);
  });

  it('reads rows written out of order in the order of their numbers, as Excel shows them', async () => {
    const base = await workbookOf([{ name: 'Liste', rows: [['GSM'], [5321234567]] }]);
    // Rows out of order, which a hand-edited or generated sheet may have.
    const swapped = await withSheetXml(base, (xml) =>
      xml.replace(/(<row r="1".*?<\/row>)(<row r="2".*?<\/row>)/s, '$2$1'),
    );
    expect(swapped).not.toEqual(base);
    const table = await readTableFile('list.xlsx', swapped);
    expect(table.records).toEqual([
      { line: 1, fields: ['GSM'] },
      { line: 2, fields: ['5321234567'] },
    ]);
  });

  it('refuses a workbook that unpacks to more than the limit, before unpacking it', async () => {
    const bytes = await workbookOf([
      { name: 'Liste', rows: [['GSM'], ...Array.from({ length: 500 }, (_, i) => [5321000000 + i])] },
    ]);
    expect(() => readFirstSheet(bytes, { maxInflatedBytes: 10_000 })).toThrow(/more than 200 MB/);
    expect(readFirstSheet(bytes)?.records).toHaveLength(501);
  });

  it('gives a reason a person can act on for a damaged workbook', async () => {
    const bytes = await workbookOf([{ name: 'Liste', rows: [['GSM'], [5321234567]] }]);
    const damaged = bytes.slice(0, Math.floor(bytes.length / 2));
    await expect(readTableFile('list.xlsx', damaged)).rejects.toThrow(TableFileError);
    // Shorter than a zip's smallest record: no offset may be read past the end.
    const stub = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]);
    expect(() => readFirstSheet(stub)).toThrow(WorkbookRefusal);
    await expect(readTableFile('list.xlsx', stub)).rejects.toThrow(TableFileError);
  });
});
