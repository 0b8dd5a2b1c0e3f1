import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import {
  personalisedTable,
  phoneColumnByName,
  recipientColumns,
  recipientsFromTable,
} from '../../src/tables/file-recipients.js';
import { readTableFile, type TableRecord } from '../../src/tables/table-file.js';

const utf8 = (text: string) => new Uint8Array(Buffer.from(text, 'utf8'));
const seven = (i: number) => String(i).padStart(7, '0');
/** A Turkish mobile (5xx) number for row i, and its gateway form. */
const mobile = (i: number, operator = '532') =>
  `0${operator} ${seven(i).replace(/^(\d{3})(\d{2})(\d{2})$/, '$1 $2 $3')}`;
const msisdn = (i: number, operator = '532') => `90${operator}${seven(i)}`;
/** An Istanbul landline: a valid number that cannot receive SMS. */
const landline = (i: number) => `0212 ${seven(3_000_000 + i).replace(/^(\d{3})(\d{2})(\d{2})$/, '$1 $2 $3')}`;

/** A valid TC identity number from nine digits: the two check digits of the official algorithm appended. */
function tcKimlik(nine: string): string {
  const d = [...nine].map(Number);
  const odd = d[0]! + d[2]! + d[4]! + d[6]! + d[8]!;
  const even = d[1]! + d[3]! + d[5]! + d[7]!;
  const tenth = (((odd * 7 - even) % 10) + 10) % 10;
  return `${nine}${tenth}${(odd + even + tenth) % 10}`;
}
// Starting with 1, such a number also parses as a North American one: +1 234 567 8950.
const tc = (i: number) => tcKimlik(`1${String(23_456_789 + i * 7919).slice(-8)}`);

function csv(header: string[], rows: number, row: (i: number) => string[]): string {
  return [header, ...Array.from({ length: rows }, (_, i) => row(i))].map((r) => r.join(';')).join('\r\n');
}

describe('the phone column is chosen by content first, then by name', () => {
  it('takes “Cep Telefonu” of mobiles over a “Telefon” of landlines', async () => {
    const text = csv(['Ad', 'Telefon', 'Cep Telefonu'], 80, (i) => [`Kişi ${i}`, landline(i), mobile(i + 1)]);
    const table = await readTableFile('liste.csv', utf8(text));
    const got = recipientsFromTable(table, 'TR');
    expect(got).toMatchObject({ numberColumn: 'Cep Telefonu', numberColumnIndex: 2, columnChoices: [] });
    expect(got.rejected).toEqual([]);
    expect(got.recipients).toHaveLength(80);
    expect(personalisedTable(table, 'TR')).toMatchObject({ numberColumn: 'Cep Telefonu', numberIndex: 2 });
  });

  it('recognises “Mobil No”, by name and over a column of order numbers named “Sipariş Numarası”', async () => {
    expect(phoneColumnByName(['Ad', 'Mobil No'])).toBe(1);
    expect(phoneColumnByName(['Telefon', 'Mobil No'])).toBe(1);
    expect(phoneColumnByName(['Sabit Tel', 'Telefon'])).toBe(1);
    const text = csv(['Müşteri', 'Sipariş Numarası', 'Mobil No'], 20, (i) => [
      `Kişi ${i}`,
      `2024${String(i).padStart(4, '0')}`,
      mobile(i + 1),
    ]);
    const got = recipientsFromTable(await readTableFile('siparis.csv', utf8(text)), 'TR');
    expect(got).toMatchObject({ numberColumn: 'Mobil No', numberColumnIndex: 2, rejected: [] });
    expect(got.recipients).toEqual(Array.from({ length: 20 }, (_, i) => msisdn(i + 1)));
  });

  it('never takes a “TC Kimlik No” column, though its valid numbers parse as foreign phone numbers', async () => {
    const text = csv(['Ad', 'TC Kimlik No', 'İletişim'], 30, (i) => [`Kişi ${i}`, tc(i), mobile(i + 1)]);
    const got = recipientsFromTable(await readTableFile('tc.csv', utf8(text)), 'TR');
    expect(got).toMatchObject({
      numberColumn: 'İletişim',
      numberColumnIndex: 2,
      rejected: [],
      columnChoices: [],
    });
    expect(got.recipients[0]).toBe(msisdn(1));
  });

  it('knows TC identity numbers by their check digits in a file without a header', () => {
    const records: TableRecord[] = Array.from({ length: 10 }, (_, i) => ({
      line: i + 1,
      fields: [tc(i), mobile(i + 1)],
    }));
    const got = recipientsFromTable({ kind: 'csv', records }, 'TR');
    expect(got).toMatchObject({
      hasHeader: false,
      numberColumnIndex: 1,
      numberColumn: 'column 2',
      rejected: [],
    });
    expect(got.recipients).toHaveLength(10);
  });

  it('never takes a column named as an identity number, even one of 10 digits that read as mobiles', () => {
    const header = { line: 1, fields: ['Vergi No', 'Ad', 'İletişim'] };
    const rows = Array.from({ length: 10 }, (_, i) => ({
      line: i + 2,
      fields: [`5${seven(4_000_000 + i)}12`, `Firma ${i}`, mobile(i + 1)],
    }));
    const got = recipientsFromTable({ kind: 'csv', records: [header, ...rows] }, 'TR');
    expect(got).toMatchObject({ numberColumn: 'İletişim', columnChoices: [] });
    for (const name of ['TCKN', 'T.C. No', 'Kimlik', 'VKN', 'IBAN', 'Müşteri No', 'Sicil']) {
      const named = recipientsFromTable(
        {
          kind: 'csv',
          records: [
            { line: 1, fields: [name, 'Bilgi'] },
            ...rows.map((r) => ({ ...r, fields: [r.fields[0]!, r.fields[2]!] })),
          ],
        },
        'TR',
      );
      expect(named.numberColumn, name).toBe('Bilgi');
    }
  });

  it('reads “Numarası” as the number of what the header names: a phone only beside a phone word', () => {
    const rows = Array.from({ length: 10 }, (_, i) => ({
      line: i + 2,
      fields: [`5${seven(4_000_000 + i)}12`, mobile(i + 1)],
    }));
    for (const name of ['TC Kimlik Numarası', 'Müşteri Numarası']) {
      const named = recipientsFromTable(
        { kind: 'csv', records: [{ line: 1, fields: [name, 'Bilgi'] }, ...rows] },
        'TR',
      );
      expect(named.numberColumn, name).toBe('Bilgi');
    }
    for (const name of ['Sipariş Numarası', 'Abone Numarası', 'TC Kimlik Numarası', 'Müşteri Numarası']) {
      expect(phoneColumnByName(['Ad', name]), name).toBe(-1);
    }
    for (const name of ['Numara', 'Numarası', 'Telefon Numarası', 'Cep Numarası', 'GSM Numarası']) {
      expect(phoneColumnByName(['Sipariş Numarası', name]), name).toBe(1);
    }
  });
});

describe('close calls between columns are left to the person', () => {
  // Anne Cep holds a mobile on every row, Baba Cep on 9 rows in 10.
  const parents = csv(['Öğrenci', 'Anne Cep', 'Baba Cep'], 70, (i) => [
    `Öğrenci ${i}`,
    mobile(i + 1, '532'),
    i % 10 === 9 ? '' : mobile(i + 1, '542'),
  ]);

  it('picks the best of two mobile columns and offers both, best first', async () => {
    const got = recipientsFromTable(await readTableFile('veli.csv', utf8(parents)), 'TR');
    expect(got).toMatchObject({ numberColumn: 'Anne Cep', numberColumnIndex: 1 });
    expect(got.columnChoices).toEqual([
      { index: 1, name: 'Anne Cep', mobileShare: 1 },
      { index: 2, name: 'Baba Cep', mobileShare: 0.9 },
    ]);
  });

  it('lets the name decide between columns both mostly of mobiles: “Cep” over “Telefon”', () => {
    const records: TableRecord[] = [
      { line: 1, fields: ['Telefon', 'Cep'] },
      ...Array.from({ length: 10 }, (_, i) => ({
        line: i + 2,
        fields: [mobile(i + 1, '533'), i === 0 ? landline(i) : mobile(i + 1, '555')],
      })),
    ];
    const got = recipientsFromTable({ kind: 'csv', records }, 'TR');
    expect(got).toMatchObject({ numberColumn: 'Cep', numberColumnIndex: 1 });
    expect(got.columnChoices.map((c) => [c.name, c.mobileShare])).toEqual([
      ['Cep', 0.9],
      ['Telefon', 1],
    ]);
  });

  it('reads the column the person picked, in a same-text send and a personalised one', async () => {
    const table = await readTableFile('veli.csv', utf8(parents));
    const got = recipientsFromTable(table, 'TR', { phoneColumn: 2 });
    expect(got).toMatchObject({ numberColumn: 'Baba Cep', numberColumnIndex: 2 });
    expect(got.recipients[0]).toBe(msisdn(1, '542'));
    expect(got.rejected).toHaveLength(7);
    // The choices stay as they were, so that the person can change their mind.
    expect(got.columnChoices.map((c) => c.index)).toEqual([1, 2]);
    const personal = personalisedTable(table, 'TR', { phoneColumn: 2 });
    expect(personal).toMatchObject({ numberColumn: 'Baba Cep', numberIndex: 2, numberColumnIndex: 2 });
  });

  it('reads the picked column of a sheet past its first records, where only wanted columns are read', async () => {
    const book = new ExcelJS.Workbook();
    const ws = book.addWorksheet('Veliler');
    ws.addRow(['Öğrenci', 'Anne Cep', 'Baba Cep']);
    for (let i = 0; i < 100; i++) ws.addRow([`Öğrenci ${i}`, 5320000000 + i + 1, 5420000000 + i + 1]);
    const bytes = new Uint8Array((await book.xlsx.writeBuffer()) as ArrayBuffer);
    const options = { phoneColumn: 2 };
    const table = await readTableFile('veli.xlsx', bytes, { columnsWanted: recipientColumns('TR', options) });
    const got = recipientsFromTable(table, 'TR', options);
    expect(got.rejected).toEqual([]);
    expect(got.recipients).toEqual(Array.from({ length: 100 }, (_, i) => msisdn(i + 1, '542')));
  });
});
