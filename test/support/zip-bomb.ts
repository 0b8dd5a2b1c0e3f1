import { constants, crc32, createDeflateRaw } from 'node:zlib';

/**
 * An .xlsx whose zip directory lies: its shared strings declare `declaredBytes` (1 kB) and inflate to
 * `inflatedBytes` of one string, as a file made to exhaust a reader that trusts the directory does (issue 28:
 * 4.2 MB that inflates to 1.4 GB). Everything else in it is a valid workbook of one sheet, its first cell
 * that string. Written by hand, not by a zip library: no library writes a size it knows to be false.
 */
export async function lyingXlsx(inflatedBytes: number, declaredBytes = 1_000): Promise<Buffer> {
  const parts: Part[] = [
    stored(
      '[Content_Types].xml',
      '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>',
    ),
    stored(
      '_rels/.rels',
      '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>',
    ),
    stored(
      'xl/workbook.xml',
      '<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Liste" sheetId="1" r:id="rId1"/></sheets></workbook>',
    ),
    stored(
      'xl/_rels/workbook.xml.rels',
      '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/></Relationships>',
    ),
    stored(
      'xl/worksheets/sheet1.xml',
      '<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1"><c r="A1" t="s"><v>0</v></c></row><row r="2"><c r="A2"><v>5321234567</v></c></row></sheetData></worksheet>',
    ),
  ];
  const head =
    '<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="1" uniqueCount="1"><si><t>';
  const tail = '</t></si></sst>';
  parts.push({
    ...(await deflated('xl/sharedStrings.xml', head, inflatedBytes - head.length - tail.length, tail)),
    declared: declaredBytes,
  });
  return zipOf(parts);
}

interface Part {
  name: string;
  method: 0 | 8;
  data: Buffer;
  crc: number;
  /** The uncompressed size the headers give. */
  declared: number;
}

function stored(name: string, text: string): Part {
  const data = Buffer.from(text, 'utf8');
  return { name, method: 0, data, crc: crc32(data), declared: data.length };
}

/** `head`, `fill` bytes of "A", `tail`, deflated as a stream: the whole is never in memory. */
async function deflated(name: string, head: string, fill: number, tail: string): Promise<Part> {
  const deflate = createDeflateRaw({ level: constants.Z_BEST_COMPRESSION, memLevel: 9 });
  const out: Buffer[] = [];
  deflate.on('data', (chunk: Buffer) => out.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    deflate.on('end', resolve);
    deflate.on('error', reject);
  });
  const block = Buffer.alloc(4 * 2 ** 20, 'A');
  let crc = crc32(head);
  const write = (chunk: Buffer | string) =>
    new Promise<void>((resolve) => {
      if (deflate.write(chunk)) resolve();
      else deflate.once('drain', resolve);
    });
  await write(head);
  for (let left = fill; left > 0; left -= block.length) {
    const chunk = left >= block.length ? block : block.subarray(0, left);
    crc = crc32(chunk, crc);
    await write(chunk);
  }
  crc = crc32(tail, crc);
  deflate.end(tail);
  await ended;
  return { name, method: 8, data: Buffer.concat(out), crc, declared: 0 };
}

function zipOf(parts: Part[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const part of parts) {
    const name = Buffer.from(part.name, 'utf8');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0, 6);
    local.writeUInt16LE(part.method, 8);
    local.writeUInt32LE(0, 10);
    local.writeUInt32LE(part.crc >>> 0, 14);
    local.writeUInt32LE(part.data.length, 18);
    local.writeUInt32LE(part.declared, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0, 8);
    central.writeUInt16LE(part.method, 10);
    central.writeUInt32LE(0, 12);
    central.writeUInt32LE(part.crc >>> 0, 16);
    central.writeUInt32LE(part.data.length, 20);
    central.writeUInt32LE(part.declared, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, part.data);
    centrals.push(central, name);
    offset += local.length + name.length + part.data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}
