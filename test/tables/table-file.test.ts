import ExcelJS from 'exceljs';
import fc from 'fast-check';
import iconv from 'iconv-lite';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import {
  personalisedTable,
  phoneColumnByName,
  recipientsFromTable,
} from '../../src/tables/file-recipients.js';
import { readTableFile, TableFileError } from '../../src/tables/table-file.js';
import { decodeText } from '../../src/tables/text-encoding.js';
import { guessedLineEnd } from '../../src/tables/text-file.js';

const utf8 = (text: string) => new Uint8Array(Buffer.from(text, 'utf8'));

async function xlsx(rows: unknown[][], sheet = 'Liste'): Promise<Uint8Array> {
  const workbook = new ExcelJS.Workbook();
  const ws = workbook.addWorksheet(sheet);
  for (const row of rows) ws.addRow(row);
  workbook.addWorksheet('Notlar').addRow(['not a recipient', '05339999999']);
  return new Uint8Array((await workbook.xlsx.writeBuffer()) as ArrayBuffer);
}

describe('reading files of recipients as Turkish offices export them', () => {
  it('reads Excel’s semicolon CSV in Windows-1254, finds “Cep Telefonu”, and reports the E+09 row by line', async () => {
    const bytes = iconv.encode(
      'Adı Soyadı;Cep Telefonu;Şehir\r\nAyşe Yılmaz;0532 123 45 67;İstanbul\r\nÇağrı Işık;5,32E+09;İzmir\r\nOğuz;5321234568;Ankara\r\nAli;05321234567;Bursa\r\n',
      'win1254',
    );
    // The bytes really are not UTF-8: ş is 0xFE in Windows-1254.
    expect([...bytes]).toContain(0xfe);
    const table = await readTableFile('liste.csv', bytes);
    expect(table).toMatchObject({ encoding: 'Windows-1254', delimiter: 'semicolon' });
    expect(table.records[0]!.fields).toEqual(['Adı Soyadı', 'Cep Telefonu', 'Şehir']);
    const got = recipientsFromTable(table, 'TR');
    expect(got.numberColumn).toBe('Cep Telefonu');
    expect(got.rowsRead).toBe(4);
    // 5321234568 lost its leading zero and is still a valid number with DEFAULT_COUNTRY=TR.
    expect(got.recipients).toEqual(['905321234567', '905321234568']);
    expect(got.duplicates).toBe(1);
    expect(got.rejected).toHaveLength(1);
    expect(got.rejected[0]).toMatchObject({ line: 3, input: '5,32E+09' });
    expect(got.rejected[0]!.reason).toMatch(/lost its last digits.*format the column as Text/);
  });

  it('decodes UTF-8 with and without a BOM, and takes a header-less .txt of one number per line', async () => {
    expect(await decodeText(utf8('\uFEFFTELEFON\n05321234567\n'))).toEqual({
      text: 'TELEFON\n05321234567\n',
      encoding: 'UTF-8 with BOM',
    });
    expect((await decodeText(utf8('Şule'))).encoding).toBe('UTF-8');
    const txt = await readTableFile(
      'numbers.TXT',
      utf8('05321234567\n\n+90 533 123 45 67\n5.32E+09\nhello\n'),
    );
    const got = recipientsFromTable(txt, 'TR');
    expect(got.hasHeader).toBe(false);
    expect(got.recipients).toEqual(['905321234567', '905331234567']);
    expect(got.rejected.map((r) => r.line)).toEqual([4, 5]);
  });

  it('finds the phone column by name in any case and with Turkish letters, or by content', async () => {
    expect(phoneColumnByName(['Ad', 'TELEFON'])).toBe(1);
    expect(phoneColumnByName(['Ad', 'GSM NO'])).toBe(1);
    expect(phoneColumnByName(['İsim', 'Cep Telefonu'])).toBe(1);
    expect(phoneColumnByName(['MSİSDN'])).toBe(0);
    expect(phoneColumnByName(['name', 'Mobile'])).toBe(1);
    expect(phoneColumnByName(['Ad', 'Müşteri Telefon Numarası'])).toBe(1);
    expect(phoneColumnByName(['Ad', 'Şehir'])).toBe(-1);
    const table = await readTableFile(
      'x.csv',
      utf8('Ad,Kod,İletişim\nAyşe,12,0532 123 45 67\nAli,13,0533 123 45 67\n'),
    );
    const got = recipientsFromTable(table, 'TR');
    expect(got.numberColumn).toBe('İletişim');
    expect(got.recipients).toEqual(['905321234567', '905331234567']);
  });

  it('reads a .tsv, and keeps quoted values with separators and line breaks on the right lines', async () => {
    const tsv = await readTableFile('a.tsv', utf8('gsm\tad\n05321234567\tAyşe, Ali\n'));
    expect(tsv.records[1]!.fields).toEqual(['05321234567', 'Ayşe, Ali']);
    const csv = await readTableFile('b.csv', utf8('telefon,not\n05321234567,"iki\nsatır"\nxx,bad\n'));
    expect(csv.records.map((r) => r.line)).toEqual([1, 2, 4]);
    expect(recipientsFromTable(csv, 'TR').rejected[0]!.line).toBe(4);
  });

  it('reads the first sheet of an .xlsx, numbers stored as numbers included', async () => {
    const bytes = await xlsx([
      ['Ad', 'GSM NO'],
      ['Ayşe', 5321234567],
      ['Ali', 905331234567],
      ['Veli', { formula: '5321234569', result: 5321234569 }],
      ['Boş', null],
    ]);
    const table = await readTableFile('liste.xlsx', bytes);
    expect(table).toMatchObject({ kind: 'xlsx', sheet: 'Liste' });
    const got = recipientsFromTable(table, 'TR');
    expect(got.numberColumn).toBe('GSM NO');
    expect(got.recipients).toEqual(['905321234567', '905331234567', '905321234569']);
    expect(got.rejected).toEqual([{ line: 5, input: 'Boş', reason: 'no phone number' }]);
  });

  it('builds a personalised table from a file, and refuses one whose first row is a number', async () => {
    const table = await readTableFile('p.csv', utf8('Telefon;Ad;Sipariş\n05321234567;Ayşe;#1\n'));
    const csv = personalisedTable(table, 'TR');
    expect(csv.columns).toEqual(['Telefon', 'Ad', 'Sipariş']);
    expect(csv.numberColumn).toBe('Telefon');
    expect(csv.rows[0]).toMatchObject({ line: 2, fields: ['05321234567', 'Ayşe', '#1'] });
    expect(csv.rows[0]!.fields[csv.numberIndex]).toBe('05321234567');
    const headless = personalisedTable(await readTableFile('p.csv', utf8('05321234567;Ayşe\n')), 'TR');
    expect(headless.errors[0]!.reason).toMatch(/first row must name the columns/);
  });

  it('refuses what is not a table, whatever its name, with the reason', async () => {
    await expect(readTableFile('photo.png', utf8('x'))).rejects.toThrow(
      /use \.csv, \.tsv, \.txt .* or \.xlsx/,
    );
    await expect(readTableFile('old.xls', utf8('x'))).rejects.toThrow(/Save it from Excel as \.xlsx/);
    await expect(readTableFile('fake.xlsx', utf8('a,b'))).rejects.toThrow(TableFileError);
    await expect(readTableFile('book.csv', await xlsx([['a']]))).rejects.toThrow(
      /looks like an Excel workbook/,
    );
    await expect(readTableFile('bin.csv', new Uint8Array([1, 0, 2, 0]))).rejects.toThrow(/not text/);
    await expect(readTableFile('empty.csv', new Uint8Array())).rejects.toThrow(/is empty/);
    await expect(readTableFile('big.csv', new Uint8Array(10 * 1024 * 1024 + 1))).rejects.toThrow(/10 MB/);
    await expect(readTableFile('q.csv', utf8('tel,ad\n"0532,x\n'))).rejects.toThrow(/never closed/);
  });
});

describe('the line end a text file is split on', () => {
  it('is the one Papa Parse guesses, for any mix of line ends, found without splitting the text', () => {
    const piece = fc.constantFrom('a', ';', '1', ' ', '\r', '\n', '\r\n', '\r\r', '\n\r');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 60 }), (pieces) => {
        const text = pieces.join('');
        expect(guessedLineEnd(text)).toBe(Papa.parse(text, { delimiter: ';' }).meta.linebreak);
      }),
      { numRuns: 2_000 },
    );
  });

  it('looks at the first megabyte as Papa Parse does, and leaves text with a quote there to it', () => {
    const megabyte = 1024 * 1024;
    // CRLF ends from the first megabyte on, after lone CRs: Papa does not see them.
    const late = `${'a\r'.repeat(megabyte / 4)}${'b'.repeat(megabyte / 2)}${'c\r\n'.repeat(megabyte / 2)}`;
    expect(guessedLineEnd(late)).toBe('\r');
    expect(Papa.parse(late, { delimiter: ';' }).meta.linebreak).toBe('\r');
    const cut = `${'x'.repeat(megabyte - 1)}\r\n`;
    expect(guessedLineEnd(cut)).toBe(Papa.parse(cut, { delimiter: ';' }).meta.linebreak);
    expect(guessedLineEnd('"a\rb"\nc')).toBeUndefined();
    // A second byte order mark (decodeText takes the first): Papa looks past it, at the megabyte after it.
    const marked = `\uFEFF${cut.slice(1)}\n`;
    expect(guessedLineEnd(marked)).toBe(Papa.parse(marked, { delimiter: ';' }).meta.linebreak);
    expect(guessedLineEnd(`${'x'.repeat(megabyte)}"`)).toBe('\n');
  });
});
