import fc from 'fast-check';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { recipientsFromTable } from '../../src/tables/file-recipients.js';
import { readTableFile, TableFileError } from '../../src/tables/table-file.js';
import { decodeText } from '../../src/tables/text-encoding.js';
import { refusalMessage } from './refusal.js';

// The bytes of each file are made by iconv-lite's encoder from Turkish text, as Excel writes it: "CSV" on a
// Turkish Windows (1254), "CSV (MS-DOS)" (857), "CSV (Macintosh)" (Mac Turkish).
const PAGES = [
  { iconv: 'win1254', name: 'Windows-1254' },
  { iconv: 'cp857', name: 'DOS Turkish (CP857)' },
  { iconv: 'macturkish', name: 'Mac Turkish' },
] as const;

const LIST =
  'Adı Soyadı;Cep Telefonu\r\nAyşe Yılmaz;0532 123 45 67\r\nŞükrü Öztürk;0533 123 45 67\r\nÇağlar Güneş;0534 123 45 67\r\nİpek Işık;0535 123 45 67\r\n';

const utf8 = (text: string) => Buffer.from(text, 'utf8');

describe('the encoding of a text file, decided for the whole file', () => {
  it.each(PAGES)(
    'reads Excel’s Turkish $name CSV with the right letters and names the encoding',
    async (page) => {
      const bytes = iconv.encode(LIST, page.iconv);
      // Not UTF-8: each page's Turkish letters are bytes from 0x80.
      expect(() => new TextDecoder('utf-8', { fatal: true }).decode(bytes)).toThrow();
      const table = await readTableFile('liste.csv', bytes);
      expect(table.encoding).toBe(page.name);
      expect(table.records.map((r) => r.fields[0])).toEqual([
        'Adı Soyadı',
        'Ayşe Yılmaz',
        'Şükrü Öztürk',
        'Çağlar Güneş',
        'İpek Işık',
      ]);
      expect(recipientsFromTable(table, 'TR').recipients).toHaveLength(4);
    },
  );

  it('refuses a UTF-8 file with one stray byte, naming its line, instead of reading it all as Windows-1254', async () => {
    const bytes = Buffer.concat([
      utf8('Ad;Telefon\nAyşe Yılmaz;05321234567\nAli'),
      Buffer.from([0xfe]),
      utf8(';05331234567\nŞükrü Öztürk;05341234567\n'),
    ]);
    const message = await refusalMessage(readTableFile('liste.csv', bytes));
    expect(message).toBe(
      '“liste.csv”: line 3 is not valid UTF-8 (the rest of the file is UTF-8): fix or delete that line, or save it again as CSV UTF-8 (Excel: File → Save As → “CSV UTF-8 (Comma delimited)”).',
    );
  });

  it('names the lines of a Windows-1254 paste inside a UTF-8 file, and a UTF-8 file with a BOM and a bad byte', async () => {
    const lines = ['Ad;Telefon', 'Ayşe Yılmaz;05321234567'];
    const pasted = Array.from({ length: 7 }, (_, i) =>
      iconv.encode(`Çağlar Güneş;0532123456${i}\n`, 'win1254'),
    );
    const mixed = Buffer.concat([utf8(`${lines.join('\n')}\n`), ...pasted]);
    expect(await refusalMessage(decodeText(mixed, 'm.csv'))).toMatch(
      /^“m\.csv”: lines 3, 4, 5, 6, 7 and 2 more are not valid UTF-8 \(the rest of the file is UTF-8\): fix or delete those lines/,
    );
    // The byte order mark says UTF-8: a bad byte is never turned into U+FFFD and sent.
    const marked = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      utf8('Ad;Telefon\r\nAli'),
      Buffer.from([0xdd]),
      utf8(';1\r\n'),
    ]);
    expect(await refusalMessage(decodeText(marked, 'b.csv'))).toMatch(/^“b\.csv”: line 2 is not valid UTF-8/);
  });

  it('refuses, with what to do, a file whose letters read as Turkish in two code pages', async () => {
    // "Işık" in 857 (0x9F 0x8D) is "Iüçk" in Mac Turkish: Turkish letters both ways, and nothing tells which.
    const bytes = iconv.encode('Ad;Telefon\nIşık;05321234567\n', 'cp857');
    expect(iconv.decode(bytes, 'macturkish')).toContain('Iüçk');
    expect(await refusalMessage(readTableFile('k.csv', bytes))).toBe(
      '“k.csv” is not UTF-8, and its letters do not read clearly as Turkish in the code pages Excel uses (Windows-1254, DOS 857, Mac Turkish): save it again as CSV UTF-8 (Excel: File → Save As → “CSV UTF-8 (Comma delimited)”).',
    );
  });

  it('reads no Mac Turkish punctuation as another page’s letters: a one-name list is read right or refused', async () => {
    // Found by the property below once in a few thousand runs: “ ” – are Ò Ó Ğ in 1254 and Ê Ë º in 857.
    for (const line of ['Cem Şahin;05321234567;“VIP” – 5', 'Cem Kaya;05321234567;“VIP” – 5']) {
      const text = `Ad Soyad;Telefon;Not\r\n${line}\r\n`;
      const read = await decodeText(iconv.encode(text, 'macturkish')).catch((e: unknown) => e);
      if (read instanceof TableFileError) continue;
      expect(read).toEqual({ text, encoding: 'Mac Turkish' });
    }
  });

  it('never gives wrong letters: a list in any of the three pages is read right or refused, and read right from ten names on', async () => {
    const first = [
      'Ayşe',
      'Şükrü',
      'Çağlar',
      'İpek',
      'Gülşen',
      'Oğuz',
      'Işıl',
      'Ömer',
      'Ümit',
      'Cem',
      'Zeynep',
    ];
    const last = ['Yılmaz', 'Öztürk', 'Güneş', 'Işık', 'Kaya', 'Şahin', 'Çelik', 'Kılıç', 'Doğan', 'ÖZTÜRK'];
    const note = fc.constantFrom('', '', '“VIP” – 5 €', 'Müşteri', 'Ç.', 'İŞ YERİ', 'José');
    const row = fc.tuple(fc.constantFrom(...first), fc.constantFrom(...last), note);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...PAGES),
        fc.array(row, { minLength: 1, maxLength: 15 }),
        async (page, rows) => {
          const text = `Ad Soyad;Telefon;Not\r\n${rows.map(([a, b, n]) => `${a} ${b};05321234567;${n}\r\n`).join('')}`;
          const bytes = iconv.encode(text, page.iconv);
          // What the page can hold (857 has no curly quotes or €): the file's true text.
          const truth = iconv.decode(bytes, page.iconv);
          const read = await decodeText(bytes).catch((e: unknown) => e);
          if (read instanceof TableFileError && rows.length < 10) return;
          const ascii = bytes.every((b) => b < 0x80);
          expect(read).toEqual({ text: truth, encoding: ascii ? 'UTF-8' : page.name });
        },
      ),
      { numRuns: 600 },
    );
  });
});

describe('Excel’s sep= line', () => {
  it('names the separator and is not a row: the rows after it keep their own line numbers', async () => {
    const table = await readTableFile(
      'sep.csv',
      utf8('sep=;\r\nAd;Cep Telefonu\r\nAyşe, Ali;05321234567\r\nVeli;yok\r\n'),
    );
    expect(table.delimiter).toBe('semicolon');
    expect(table.records).toEqual([
      { line: 2, fields: ['Ad', 'Cep Telefonu'] },
      { line: 3, fields: ['Ayşe, Ali', '05321234567'] },
      { line: 4, fields: ['Veli', 'yok'] },
    ]);
    const got = recipientsFromTable(table, 'TR');
    expect(got.numberColumn).toBe('Cep Telefonu');
    expect(got.recipients).toEqual(['905321234567']);
    expect(got.rejected.map((r) => r.line)).toEqual([4]);
  });

  it('is read quoted, in any case, for tabs and commas, in Windows-1254 too; another separator is refused', async () => {
    const tab = await readTableFile('t.csv', utf8('"SEP=\t"\nTelefon\tAd\n05321234567\tAyşe;Ali\n'));
    expect(tab).toMatchObject({
      delimiter: 'tab',
      records: [{ line: 2 }, { line: 3, fields: ['05321234567', 'Ayşe;Ali'] }],
    });
    const comma = await readTableFile(
      'c.csv',
      iconv.encode('sep=,\nTelefon,Şehir\n05321234567,Muğla\n', 'win1254'),
    );
    expect(comma).toMatchObject({ delimiter: 'comma', encoding: 'Windows-1254' });
    expect(comma.records[1]).toEqual({ line: 3, fields: ['05321234567', 'Muğla'] });
    expect(await refusalMessage(readTableFile('p.csv', utf8('sep=|\nTelefon|Ad\n')))).toMatch(
      /first line that its separator is “\|”: this app reads commas, semicolons or tabs/,
    );
  });
});
