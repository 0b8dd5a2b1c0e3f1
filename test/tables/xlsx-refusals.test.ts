import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { readTableFile } from '../../src/tables/table-file.js';
import { readXlsx } from '../../src/tables/xlsx/read-xlsx.js';
import { whyRefused } from './refusal.js';
import { packageParts, rowsXml, zipOf } from './xlsx-fixtures.js';

const ODS = 'application/vnd.oasis.opendocument.spreadsheet';

/** An OpenDocument spreadsheet's zip: its `mimetype` entry stored first, as LibreOffice writes it, or elsewhere. */
async function openDocument(mimetypeFirst: boolean): Promise<Uint8Array> {
  const zip = new JSZip();
  const content =
    '<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"/>';
  if (mimetypeFirst) zip.file('mimetype', ODS, { compression: 'STORE' });
  zip.file('content.xml', content);
  zip.file('META-INF/manifest.xml', '<manifest:manifest/>');
  if (!mimetypeFirst) zip.file('mimetype', ODS);
  return zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE' });
}

/**
 * A compound file (the container of .xls files and of password-protected workbooks): its 512-byte header, then
 * one sector of 128-byte directory entries with these stream names. Made here, byte by byte, as the format lays
 * them out: only the header and the directory are what the reader looks at.
 */
function compoundFile(streams: string[]): Uint8Array {
  const file = Buffer.alloc(512 + 512 + 512);
  Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(file, 0);
  ['Root Entry', ...streams].forEach((name, i) => {
    const entry = 512 + i * 128;
    file.write(name, entry, 'utf16le');
    file.writeUInt16LE((name.length + 1) * 2, entry + 64);
    file[entry + 66] = i === 0 ? 5 : 2;
  });
  // A stream's data that mentions the name outside the directory is not an entry.
  file.write('xxEncryptedPackage', 1024 + 3, 'utf16le');
  return new Uint8Array(file);
}

describe('workbooks the reader refuses say why', () => {
  it('an OpenDocument spreadsheet, also when renamed .xlsx', async () => {
    for (const [name, first] of [
      ['liste.ods', true],
      ['liste.xlsx', true],
      ['liste.xlsx', false],
    ] as const) {
      expect(await whyRefused(name, await openDocument(first))).toBe(
        `“${name}” is an OpenDocument spreadsheet: save it as .xlsx or CSV.`,
      );
    }
  });

  it('a workbook protected with a password, and an old .xls, whatever their names', async () => {
    const locked = compoundFile(['EncryptionInfo', 'EncryptedPackage']);
    for (const name of ['maaşlar.xlsx', 'maaşlar.xls']) {
      expect(await whyRefused(name, locked)).toBe(
        `“${name}” is protected with a password: save a copy without it.`,
      );
    }
    const old = compoundFile(['Workbook', 'SummaryInformation']);
    for (const name of ['eski.xls', 'eski.xlsx', 'eski.csv']) {
      expect(await whyRefused(name, old)).toBe(
        `“${name}” is an old Excel 97–2003 workbook (.xls): save it as .xlsx.`,
      );
    }
  });

  it('a zip that is not a workbook', async () => {
    const word = await zipOf({
      '_rels/.rels':
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
      'word/document.xml':
        '<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"/>',
    });
    expect(await whyRefused('liste.xlsx', word)).toMatch(/is a zip file but not an Excel workbook inside/);
    const photos = await zipOf({ 'a.jpg': 'x' });
    expect(await whyRefused('liste.xlsx', photos)).toMatch(/is a zip file but not an Excel workbook inside/);
  });
});

/** The zip with an entry's sizes in its central directory (and local header) set to `declared`. */
function declaring(zip: Uint8Array, part: string, declared: number): Uint8Array {
  const bytes = Buffer.from(zip);
  for (
    let at = bytes.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    at >= 0;
    at = bytes.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]), at + 4)
  ) {
    const nameLength = bytes.readUInt16LE(at + 28);
    if (bytes.toString('utf8', at + 46, at + 46 + nameLength) !== part) continue;
    bytes.writeUInt32LE(declared, at + 24);
    bytes.writeUInt32LE(declared, bytes.readUInt32LE(at + 42) + 22);
  }
  return new Uint8Array(bytes);
}

describe('zips as writers and attackers make them', () => {
  it('stops a part that inflates to more than its directory declares: the limit holds on the bytes inflated', async () => {
    // 40 MB of sheet, 1 kB declared: the "lying" zip bomb, scaled down.
    const row = (r: number) => `<row r="${r}"><c r="A${r}"><v>5321234567</v></c></row>`;
    const parts = packageParts({
      sheets: [{ name: 'Liste', data: Array.from({ length: 800_000 }, (_, i) => row(i + 1)).join('') }],
    });
    const honest = await zipOf(parts);
    const lying = declaring(honest, 'xl/worksheets/sheet1.xml', 1000);
    expect(await whyRefused('bomba.xlsx', lying)).toBe(
      '“bomba.xlsx” cannot be read as an Excel workbook: it is damaged or not a real workbook. Open it in Excel and save it again as .xlsx.',
    );
    // Declared honestly, the same sheet is over a limit of 10 MB before a byte of it is inflated.
    expect(() => readXlsx(honest, { maxInflatedBytes: 10_000_000 })).toThrow(/unpacks to more than 200 MB/);
    expect(readXlsx(honest).records).toHaveLength(800_000);
  }, 60_000);

  it('reads entries written with data descriptors, stored entries, and a zip64 directory', async () => {
    const parts = packageParts({
      sheets: [
        {
          name: 'Liste',
          data: rowsXml([
            ['GSM', 'Ad'],
            [5321234567, 'Ayşe'],
          ]),
        },
      ],
    });
    const expected = [
      { line: 1, fields: ['GSM', 'Ad'] },
      { line: 2, fields: ['5321234567', 'Ayşe'] },
    ];
    const streamed = await zipOf(parts, { streamFiles: true });
    expect(Buffer.from(streamed).readUInt16LE(6) & 8, 'general-purpose flag bit 3').toBe(8);
    expect((await readTableFile('a.xlsx', streamed)).records).toEqual(expected);
    expect((await readTableFile('b.xlsx', await zipOf(parts, { compression: 'STORE' }))).records).toEqual(
      expected,
    );
    expect((await readTableFile('c.xlsx', asZip64(await zipOf(parts)))).records).toEqual(expected);
  });
});

/**
 * The zip rewritten as a zip64 writer leaves it: every directory entry's sizes and offset 0xFFFFFFFF with the
 * real figures in a zip64 extra field, a zip64 end record and its locator before the classic end record.
 */
function asZip64(zip: Uint8Array): Uint8Array {
  const bytes = Buffer.from(zip);
  const end = bytes.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const count = bytes.readUInt16LE(end + 10);
  const directoryAt = bytes.readUInt32LE(end + 16);
  const entries: Buffer[] = [];
  let at = directoryAt;
  for (let i = 0; i < count; i++) {
    const nameLength = bytes.readUInt16LE(at + 28);
    const extraLength = bytes.readUInt16LE(at + 30);
    const commentLength = bytes.readUInt16LE(at + 32);
    const header = Buffer.from(bytes.subarray(at, at + 46));
    const extra = Buffer.alloc(4 + 24);
    extra.writeUInt16LE(1, 0);
    extra.writeUInt16LE(24, 2);
    extra.writeBigUInt64LE(BigInt(header.readUInt32LE(24)), 4);
    extra.writeBigUInt64LE(BigInt(header.readUInt32LE(20)), 12);
    extra.writeBigUInt64LE(BigInt(header.readUInt32LE(42)), 20);
    header.writeUInt32LE(0xffffffff, 20);
    header.writeUInt32LE(0xffffffff, 24);
    header.writeUInt32LE(0xffffffff, 42);
    header.writeUInt16LE(extraLength + extra.length, 30);
    const name = bytes.subarray(at + 46, at + 46 + nameLength);
    const rest = bytes.subarray(at + 46 + nameLength, at + 46 + nameLength + extraLength + commentLength);
    entries.push(Buffer.concat([header, name, extra, rest]));
    at += 46 + nameLength + extraLength + commentLength;
  }
  const directory = Buffer.concat(entries);
  const zip64End = Buffer.alloc(56);
  zip64End.writeUInt32LE(0x06064b50, 0);
  zip64End.writeBigUInt64LE(44n, 4);
  zip64End.writeUInt16LE(45, 12);
  zip64End.writeUInt16LE(45, 14);
  zip64End.writeBigUInt64LE(BigInt(count), 24);
  zip64End.writeBigUInt64LE(BigInt(count), 32);
  zip64End.writeBigUInt64LE(BigInt(directory.length), 40);
  zip64End.writeBigUInt64LE(BigInt(directoryAt), 48);
  const locator = Buffer.alloc(20);
  locator.writeUInt32LE(0x07064b50, 0);
  locator.writeBigUInt64LE(BigInt(directoryAt + directory.length), 8);
  locator.writeUInt32LE(1, 16);
  const classic = Buffer.alloc(22);
  classic.writeUInt32LE(0x06054b50, 0);
  classic.writeUInt16LE(0xffff, 8);
  classic.writeUInt16LE(0xffff, 10);
  classic.writeUInt32LE(0xffffffff, 12);
  classic.writeUInt32LE(0xffffffff, 16);
  return new Uint8Array(
    Buffer.concat([bytes.subarray(0, directoryAt), directory, zip64End, locator, classic]),
  );
}
