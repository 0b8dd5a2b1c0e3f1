import { describe, expect, it } from 'vitest';
import { recipientsFromTable } from '../../src/tables/file-recipients.js';
import { readTableFile } from '../../src/tables/table-file.js';

const utf8 = (text: string) => new Uint8Array(Buffer.from(text, 'utf8'));

describe('a title line without any separator above a CSV', () => {
  it('does not make the file one column: the separator is the one most lines share', async () => {
    // As people type it by hand or a report tool writes it: a title alone on its line, then the table.
    const text = [
      'Mart 2024 kampanya listesi',
      '',
      'Ad;Cep Telefonu;Şehir',
      'Ayşe Yılmaz;0532 111 22 33;İstanbul',
      'Ali Kaya;0533 444 55 66;İzmir',
      'Şule Öz;0505 777 88 99;Bursa',
    ].join('\r\n');
    const table = await readTableFile('liste.csv', utf8(text));
    expect(table.delimiter).toBe('semicolon');
    const got = recipientsFromTable(table, 'TR');
    expect(got.recipients).toEqual(['905321112233', '905334445566', '905057778899']);
    expect(got.numberColumn).toBe('Cep Telefonu');
    expect(got.rejected).toEqual([]);
  });
});
