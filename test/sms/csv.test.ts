import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readRecords } from '../../src/sms/csv.js';
import { parseCsv } from '../../src/sms/index.js';

describe('parseCsv', () => {
  it('reads a header and rows, keyed by column, with line numbers', () => {
    const csv = parseCsv('number,name\n05321234567,Ali\n05327654321,Ayşe\n');
    expect(csv.columns).toEqual(['number', 'name']);
    expect(csv.numberColumn).toBe('number');
    expect(csv.errors).toEqual([]);
    expect(csv.rows).toEqual([
      { line: 2, number: '05321234567', values: { number: '05321234567', name: 'Ali' } },
      { line: 3, number: '05327654321', values: { number: '05327654321', name: 'Ayşe' } },
    ]);
  });

  it.each([
    ['name,phone,code', 'phone'],
    ['name,MSISDN', 'MSISDN'],
    ['name,Phone Number', 'Phone Number'],
    ['ad,Telefon', 'Telefon'],
    ['ad,Cep No', 'Cep No'],
    ['ad,Telefon Numarası', 'Telefon Numarası'],
    ['isim,GSM', 'GSM'],
    ['whom,name', 'whom'],
  ])('finds the number column in %j', (header, column) => {
    expect(parseCsv(`${header}\n`).numberColumn).toBe(column);
  });

  it('takes the number from the named column even when it is not first', () => {
    const csv = parseCsv('name,phone\nAli,05321234567\n');
    expect(csv.rows[0]?.number).toBe('05321234567');
  });

  it('handles quoted values with commas, escaped quotes and line breaks, and CRLF', () => {
    const text =
      'number,name,note\r\n05321234567,"Yılmaz, Ali","He said ""hi"""\r\n05327654321,Veli,"two\r\nlines"\r\n05321112233,Can,x\r\n';
    const csv = parseCsv(text);
    expect(csv.errors).toEqual([]);
    expect(csv.rows.map((r) => [r.line, r.values.name, r.values.note])).toEqual([
      [2, 'Yılmaz, Ali', 'He said "hi"'],
      [3, 'Veli', 'two\nlines'],
      // The quoted line break pushed this row to line 5.
      [5, 'Can', 'x'],
    ]);
  });

  it('trims blanks around unquoted values and around quotes, but keeps them inside quotes', () => {
    const csv = parseCsv('number , name\n 05321234567 ,  " Ali "  \n');
    expect(csv.columns).toEqual(['number', 'name']);
    expect(csv.rows[0]?.values).toEqual({ number: '05321234567', name: ' Ali ' });
  });

  it('reads semicolon files from Excel and tab-separated text pasted from a spreadsheet', () => {
    const semi = parseCsv('telefon;ad\n05321234567;Ali, Veli\n');
    expect(semi.rows[0]?.values).toEqual({ telefon: '05321234567', ad: 'Ali, Veli' });
    const tabs = parseCsv('number\tname\n05321234567\tAli Veli\n');
    expect(tabs.rows[0]?.values).toEqual({ number: '05321234567', name: 'Ali Veli' });
  });

  it("takes the separator from Excel's sep= first line of pasted text, and keeps the lines' numbers", () => {
    // A comma in the first line's name would win the guess: the declared semicolon decides.
    const csv = parseCsv('sep=;\r\ntelefon;ad, soyad\r\n05321234567;Ali, Veli\r\n05327654321;Ayşe;fazla\r\n');
    expect(csv.columns).toEqual(['telefon', 'ad, soyad']);
    expect(csv.errors).toEqual([{ line: 4, reason: '3 values, but the header has 2 columns' }]);
    expect(csv.rows).toEqual([
      { line: 3, number: '05321234567', values: { telefon: '05321234567', 'ad, soyad': 'Ali, Veli' } },
    ]);
    expect(parseCsv('"sep=\t"\nnumber\tname\n05321234567\tAli\n').rows[0]?.values).toEqual({
      number: '05321234567',
      name: 'Ali',
    });
    // Padded by an editor, and with quoted values (the reader that scans characters): the same lines.
    const padded = parseCsv('sep=; \n"telefon";ad\n"05321234567";"Ali; Veli"\n');
    expect(padded.rows).toEqual([
      { line: 3, number: '05321234567', values: { telefon: '05321234567', ad: 'Ali; Veli' } },
    ]);
    expect(parseCsv('sep=|\nnumber|name\n').errors).toEqual([
      { line: 1, reason: 'it says the separator is “|”: use commas, semicolons or tabs between the values' },
    ]);
  });

  it('ignores a byte order mark, blank lines and empty trailing cells', () => {
    const csv = parseCsv('\uFEFFnumber,name\n\n05321234567,Ali,,\n\n,\n');
    expect(csv.columns).toEqual(['number', 'name']);
    expect(csv.errors).toEqual([]);
    expect(csv.rows).toEqual([
      { line: 3, number: '05321234567', values: { number: '05321234567', name: 'Ali' } },
    ]);
  });

  it('reports rows with the wrong number of values, by line, and keeps the others', () => {
    const csv = parseCsv(
      'number,name,code\n05321234567,Ali\n05327654321,Veli,V1\n05321112233,Can,C1,extra\n',
    );
    expect(csv.errors).toEqual([
      { line: 2, reason: '2 values, but the header has 3 columns' },
      { line: 4, reason: '4 values, but the header has 3 columns' },
    ]);
    expect(csv.rows.map((r) => r.line)).toEqual([3]);
  });

  it('reports a quote that is never closed at the line where it opened', () => {
    const csv = parseCsv('number,name\n05321234567,Ali\n05327654321,"Veli\n05321112233,Can\n');
    expect(csv.rows.map((r) => r.line)).toEqual([2]);
    expect(csv.errors).toEqual([{ line: 3, reason: 'the quote opened on line 3 is never closed' }]);
  });

  it('reports text after a closing quote', () => {
    const csv = parseCsv('number,name\n05321234567,"Ali"Veli\n05327654321,ok\n');
    expect(csv.errors).toHaveLength(1);
    expect(csv.errors[0]?.line).toBe(2);
    expect(csv.errors[0]?.reason).toMatch(/after a closing quote/);
    expect(csv.rows.map((r) => r.line)).toEqual([3]);
  });

  it('keeps a quote inside an unquoted value as text', () => {
    expect(parseCsv('number,height\n05321234567,5\'10"\n').rows[0]?.values.height).toBe('5\'10"');
  });

  it('requires a header row', () => {
    expect(parseCsv('').errors).toEqual([{ line: 1, reason: 'no header row: the CSV is empty' }]);
    expect(parseCsv('\n \n').errors).toEqual([{ line: 1, reason: 'no header row: the CSV is empty' }]);
    const noHeader = parseCsv('\n05321234567,Ali\n05327654321,Veli\n');
    expect(noHeader.rows).toEqual([]);
    expect(noHeader.errors).toHaveLength(1);
    expect(noHeader.errors[0]?.line).toBe(2);
    expect(noHeader.errors[0]?.reason).toMatch(
      /looks like a phone number: the first row must name the columns/,
    );
  });

  it('rejects a header with the same column twice, even in different case', () => {
    expect(parseCsv('number,name,name\n').errors).toEqual([
      { line: 1, reason: 'column "name" appears twice in the header' },
    ]);
    expect(parseCsv('number,İsim,isim\n').errors).toEqual([
      { line: 1, reason: 'columns "İsim" and "isim" differ only in case in the header' },
    ]);
  });

  it('treats columns called __proto__ or constructor as ordinary columns', () => {
    const csv = parseCsv('number,__proto__,constructor\n05321234567,a,b\n');
    expect(Object.entries(csv.rows[0]!.values)).toEqual([
      ['number', '05321234567'],
      ['__proto__', 'a'],
      ['constructor', 'b'],
    ]);
  });
});

describe('parseCsv properties', () => {
  it('never throws, and every line it names exists', () => {
    const csvish = fc.string({ unit: fc.constantFrom(...'ab1 ,;\t"\r\n', '""', 'ş'), maxLength: 200 });
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary', maxLength: 300 }), csvish), (text) => {
        const csv = parseCsv(text);
        const lines = text.split(/\r\n|\r|\n/).length;
        for (const { line } of [...csv.rows, ...csv.errors]) {
          expect(line).toBeGreaterThanOrEqual(1);
          expect(line).toBeLessThanOrEqual(Math.max(lines, 1));
        }
        for (const row of csv.rows) {
          expect(Object.keys(row.values).sort()).toEqual(csv.columns.filter((c) => c !== '').sort());
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('reads back any table written with standard quoting', () => {
    // Values keep everything but CR, which a line break inside a value is normalised away from.
    const value = fc.string({ unit: fc.constantFrom(...'ab ,;\t"\nşİ😀'), maxLength: 12 });
    const name = fc.stringMatching(/^[a-z][a-z0-9 ]{0,8}[a-z]$/);
    const table = fc
      .uniqueArray(name, { minLength: 1, maxLength: 5, selector: (n) => n.toLowerCase() })
      .chain((columns) =>
        fc.tuple(
          fc.constant(columns),
          fc.array(fc.array(value, { minLength: columns.length, maxLength: columns.length }), {
            maxLength: 8,
          }),
          fc.constantFrom(',', ';'),
          fc.constantFrom('\n', '\r\n'),
        ),
      );
    fc.assert(
      fc.property(table, ([columns, rows, delimiter, eol]) => {
        const quote = (v: string) => `"${v.replaceAll('"', '""')}"`;
        // Rows made only of empty values are skipped as blank, so give each row a non-empty value.
        const filled = rows.map((r) => (r.every((v) => v === '') ? ['x', ...r.slice(1)] : r));
        const text = [columns, ...filled].map((r) => r.map(quote).join(delimiter)).join(eol);
        const csv = parseCsv(text);
        expect(csv.errors).toEqual([]);
        expect(csv.columns).toEqual(columns);
        expect(csv.rows.map((r) => columns.map((c) => r.values[c]))).toEqual(filled);
      }),
      { numRuns: 300 },
    );
  });
});

describe('readRecords: the line-splitting reader for quote-free text', () => {
  it('gives exactly the records of the character-by-character reader', () => {
    // No quotes (those always take the general reader); CR, LF and CRLF, blanks, empty lines, Turkish letters.
    const unit = fc.constantFrom(...'ab1 ,;\t\r\n', '\r\n', 'ş', 'İ', '’');
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 300 }), fc.constantFrom(',', ';', '\t'), (text, delimiter) => {
        expect(readRecords(text, delimiter)).toEqual(readRecords(text, delimiter, true));
      }),
      { numRuns: 2_000 },
    );
  });
});
