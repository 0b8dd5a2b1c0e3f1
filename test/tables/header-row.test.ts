import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { renderEnvelopes } from '../../src/sms/personalise.js';
import {
  personalisedTable,
  recipientColumns,
  recipientsFromTable,
} from '../../src/tables/file-recipients.js';
import { personalisedColumns } from '../../src/tables/personalised-columns.js';
import { readTableFile, type TableRecord } from '../../src/tables/table-file.js';

const utf8 = (text: string) => new Uint8Array(Buffer.from(text, 'utf8'));
/** A valid Turkish mobile number for row i, as people type it. */
const mobile = (i: number) =>
  `0532 ${String(i)
    .padStart(7, '0')
    .replace(/^(\d{3})(\d{2})(\d{2})$/, '$1 $2 $3')}`;
const msisdn = (i: number) => `90532${String(i).padStart(7, '0')}`;
const names = ['Ayşe', 'Ali', 'Çağrı', 'Oğuz', 'Şule', 'İpek', 'Ümit'];
const nameOf = (i: number) => `${names[i % names.length]} ${i}`;

async function workbook(build: (ws: ExcelJS.Worksheet) => void): Promise<Uint8Array> {
  const book = new ExcelJS.Workbook();
  build(book.addWorksheet('Kampanya'));
  return new Uint8Array((await book.xlsx.writeBuffer()) as ArrayBuffer);
}

describe('the header row is found as a person finds it', () => {
  it('skips a title row and a blank row above the header of a CSV; lines stay the file’s', async () => {
    const data = Array.from({ length: 5 }, (_, i) => `${nameOf(i)};${mobile(i + 1)};İstanbul`);
    const text = [
      '2024 Mart Kampanya Listesi;;',
      ';;',
      'Ad Soyad;Cep Telefonu;Şehir',
      ...data,
      'Veli;0532 12;İzmir',
    ];
    const table = await readTableFile('kampanya.csv', utf8(`${text.join('\r\n')}\r\n`));
    const got = recipientsFromTable(table, 'TR');
    expect(got).toMatchObject({
      hasHeader: true,
      headerLine: 3,
      numberColumn: 'Cep Telefonu',
      numberColumnIndex: 1,
    });
    expect(got.rowsRead).toBe(6);
    expect(got.recipients).toEqual([1, 2, 3, 4, 5].map(msisdn));
    // Only the bad row is rejected, on its own line: neither the title nor the header is.
    expect(got.rejected).toEqual([{ line: 9, input: '0532 12', reason: expect.any(String) }]);
  });

  it('skips a merged title, blank rows and blank leading columns of a sheet, reading only the phone column past the head', async () => {
    const bytes = await workbook((ws) => {
      ws.getCell('B1').value = '2024 Mart Kampanya Listesi';
      ws.mergeCells('B1:E1');
      // Row 2 and 3 blank; the table starts in column B, row 4.
      ws.getRow(4).values = [null, 'Müşteri', 'Cep Telefonu', 'Şehir', 'Not'];
      for (let i = 0; i < 80; i++) {
        ws.getRow(5 + i).values = [null, nameOf(i), i === 70 ? 'yok' : 5320000000 + i + 1, 'Ankara', 'x'];
      }
    });
    const table = await readTableFile('kampanya.xlsx', bytes, { columnsWanted: recipientColumns('TR') });
    const got = recipientsFromTable(table, 'TR');
    expect(got).toMatchObject({
      hasHeader: true,
      headerLine: 4,
      numberColumn: 'Cep Telefonu',
      numberColumnIndex: 2,
    });
    expect(got.rowsRead).toBe(80);
    expect(got.recipients).toHaveLength(79);
    expect(got.recipients[0]).toBe('905320000001');
    // Reported by the sheet's own row number (75), not by its place among the records.
    expect(got.rejected).toEqual([{ line: 75, input: 'yok', reason: 'not a phone number' }]);
  });

  it('skips notes lines, blank rows and blank leading columns given as records', () => {
    const records: TableRecord[] = [
      { line: 1, fields: ['Hazırlayan: Satış Ekibi'] },
      { line: 2, fields: ['Tarih', '01.03.2024'] },
      { line: 5, fields: ['', '', 'Ad', 'GSM', 'Tutar'] },
      ...Array.from({ length: 4 }, (_, i) => ({
        line: 6 + i,
        fields: ['', '', nameOf(i), mobile(i + 1), '100'],
      })),
    ];
    const got = recipientsFromTable({ kind: 'csv', records }, 'TR');
    expect(got).toMatchObject({
      headerLine: 5,
      numberColumn: 'GSM',
      numberColumnIndex: 3,
      rowsRead: 4,
      rejected: [],
    });
    expect(got.recipients).toEqual([1, 2, 3, 4].map(msisdn));
  });

  it('ignores a title above a file with no header, still reads a file whose first row is data, and a header over sparse numbers', async () => {
    const titled = await readTableFile('t.csv', utf8(`Mart listesi;\n${mobile(1)};Ayşe\n${mobile(2)};Ali\n`));
    const got = recipientsFromTable(titled, 'TR');
    expect(got).toMatchObject({ hasHeader: false, rowsRead: 2, rejected: [], numberColumn: 'column 1' });
    expect(got.headerLine).toBeUndefined();
    expect(got.recipients).toEqual([msisdn(1), msisdn(2)]);
    const plain = recipientsFromTable(
      await readTableFile('p.csv', utf8(`${mobile(1)};Ayşe\nhello;Ali\n`)),
      'TR',
    );
    expect(plain).toMatchObject({ hasHeader: false, rowsRead: 2, recipients: [msisdn(1)] });
    expect(plain.rejected.map((r) => r.line)).toEqual([2]);
    // Numbers on too few rows to mark where the data starts: the first row of words is still the header.
    const sparse = recipientsFromTable(
      {
        kind: 'csv',
        records: [
          { line: 1, fields: ['Ad', 'İletişim'] },
          ...Array.from({ length: 6 }, (_, i) => ({
            line: i + 2,
            fields: [nameOf(i), i % 3 ? '' : mobile(i + 1)],
          })),
        ],
      },
      'TR',
    );
    expect(sparse).toMatchObject({
      headerLine: 1,
      numberColumn: 'İletişim',
      rowsRead: 6,
      recipients: [msisdn(1), msisdn(4)],
    });
  });

  it('takes a one-column header over one column of numbers, and a row with a missing number is data, not the header', () => {
    const single = recipientsFromTable(
      {
        kind: 'csv',
        records: [
          { line: 1, fields: ['Telefon'] },
          { line: 2, fields: [mobile(1)] },
        ],
      },
      'TR',
    );
    expect(single).toMatchObject({ headerLine: 1, numberColumn: 'Telefon', rowsRead: 1, rejected: [] });
    const missing = recipientsFromTable(
      {
        kind: 'csv',
        records: [
          { line: 1, fields: ['Kampanya'] },
          { line: 2, fields: ['Ad', 'Cep', 'Şehir'] },
          { line: 3, fields: ['Ayşe', 'yok', 'İzmir'] },
          { line: 4, fields: ['Ali', mobile(1), 'Bursa'] },
          { line: 5, fields: ['Can', mobile(2), 'Bursa'] },
        ],
      },
      'TR',
    );
    expect(missing).toMatchObject({ headerLine: 2, numberColumn: 'Cep', rowsRead: 3 });
    expect(missing.rejected).toEqual([{ line: 3, input: 'yok', reason: 'not a phone number' }]);
  });
});

describe('a personalised send from a file with a title above its header', () => {
  const template = 'Sayın {{Ad}}, {{Tutar}} TL borcunuz var.';

  it('names the columns from the real header and renders every row', async () => {
    // Excel writes a title row's empty cells as separators.
    const text =
      'Mart 2024 Borç Listesi;;\n;;\nAd;Telefon;Tutar\nAyşe;0532 000 00 01;150\nAli;0532 000 00 02;75\n';
    const table = personalisedTable(await readTableFile('borc.csv', utf8(text)), 'TR');
    expect(table.errors).toEqual([]);
    expect(table).toMatchObject({
      columns: ['Ad', 'Telefon', 'Tutar'],
      headerLine: 3,
      numberColumn: 'Telefon',
    });
    const rendered = renderEnvelopes(template, table, 'TR');
    expect(rendered.missingColumns).toEqual([]);
    expect(rendered.envelopes).toEqual([
      { to: msisdn(1), message: 'Sayın Ayşe, 150 TL borcunuz var.', line: 4 },
      { to: msisdn(2), message: 'Sayın Ali, 75 TL borcunuz var.', line: 5 },
    ]);
  });

  it('reads the template’s columns of a long sheet with a merged title, past the first records', async () => {
    const bytes = await workbook((ws) => {
      ws.getCell('A1').value = 'Mart 2024 Borç Listesi';
      ws.mergeCells('A1:D1');
      ws.getRow(3).values = ['Ad', 'Şehir', 'Telefon', 'Tutar'];
      for (let i = 0; i < 100; i++) ws.getRow(4 + i).values = [nameOf(i), 'Van', 5320000000 + i + 1, 10 + i];
    });
    const read = await readTableFile('borc.xlsx', bytes, {
      columnsWanted: personalisedColumns(template, 'TR'),
    });
    const table = personalisedTable(read, 'TR');
    expect(table).toMatchObject({ headerLine: 3, numberColumn: 'Telefon', numberIndex: 2, errors: [] });
    const { envelopes, missingColumns } = renderEnvelopes(template, table, 'TR');
    expect(missingColumns).toEqual([]);
    expect(envelopes).toHaveLength(100);
    expect(envelopes[99]).toEqual({
      to: msisdn(100),
      message: `Sayın ${nameOf(99)}, 109 TL borcunuz var.`,
      line: 103,
    });
  });

  it('refuses data with no header above it, naming the line the data starts on', () => {
    const table = personalisedTable(
      {
        records: [
          { line: 1, fields: ['Mart listesi'] },
          { line: 2, fields: [mobile(1), 'Ayşe'] },
        ],
      },
      'TR',
    );
    expect(table.errors).toEqual([
      { line: 2, reason: expect.stringMatching(/no row above it naming the columns/) },
    ]);
  });
});
