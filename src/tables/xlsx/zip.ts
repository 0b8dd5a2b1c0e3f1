import { inflateRawSync } from 'node:zlib';
import { DAMAGED, TOO_LARGE, WorkbookRefusal } from './refusal.js';

interface ZipEntry {
  method: number;
  compressedSize: number;
  size: number;
  localHeader: number;
}

/**
 * A zip's parts by name, read from its central directory (zip64 included), inflated on demand within one budget
 * of bytes for the whole workbook. The budget holds on the bytes actually inflated: a part is never inflated past
 * the size the directory declares for it, so a directory that understates a part (the "lying" zip bomb) costs at
 * most that size plus one byte before the part is refused as damaged.
 */
export class ZipParts {
  private readonly zip: Buffer;
  private readonly entries: Map<string, ZipEntry>;
  private left: number;

  constructor(bytes: Uint8Array, maxInflatedBytes: number) {
    this.zip = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.entries = centralDirectory(this.zip);
    this.left = maxInflatedBytes;
  }

  /** Whether a part is there. Part names are compared without case, as the package format has them. */
  has(name: string): boolean {
    return this.entries.has(partKey(name));
  }

  /**
   * A part's bytes, or undefined when the zip has no such part. `limit` is a part's own budget, tighter than the
   * workbook's, refused with its own reason.
   */
  read(name: string, limit?: { bytes: number; refusal: string }): Buffer | undefined {
    const entry = this.entries.get(partKey(name));
    if (!entry) return undefined;
    if (limit && entry.size > limit.bytes) throw new WorkbookRefusal(limit.refusal);
    if (entry.size > this.left) throw new WorkbookRefusal(TOO_LARGE);
    const zip = this.zip;
    const header = entry.localHeader;
    if (header + 30 > zip.length || zip.readUInt32LE(header) !== 0x04034b50)
      throw new WorkbookRefusal(DAMAGED);
    // The local header's own name and extra lengths: they may differ from the directory's.
    const start = header + 30 + zip.readUInt16LE(header + 26) + zip.readUInt16LE(header + 28);
    if (start + entry.compressedSize > zip.length) throw new WorkbookRefusal(DAMAGED);
    const data = zip.subarray(start, start + entry.compressedSize);
    let out: Buffer;
    if (entry.method === 0) out = data;
    else if (entry.method === 8) {
      try {
        // One output chunk of the declared size (no list of chunks to join), and not a byte past it.
        out = inflateRawSync(data, {
          maxOutputLength: entry.size + 1,
          chunkSize: Math.max(64 * 1024, entry.size + 1),
        });
      } catch {
        // More than declared (zlib stops it at the limit), or not deflate data at all.
        throw new WorkbookRefusal(DAMAGED);
      }
    } else throw new WorkbookRefusal(DAMAGED);
    if (out.length !== entry.size) throw new WorkbookRefusal(DAMAGED);
    this.left -= out.length;
    return out;
  }

  text(name: string, limit?: { bytes: number; refusal: string }): string | undefined {
    return this.read(name, limit)?.toString('utf8');
  }
}

/** The key of a part name: no leading slash, forward slashes (some writers store backslashes), no case. */
export function partKey(name: string): string {
  return name.replace(/\\/g, '/').replace(/^\/+/, '').toLowerCase();
}

const END_OF_DIRECTORY = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_END = 0x06064b50;
const DIRECTORY_ENTRY = 0x02014b50;

/**
 * The entries of the central directory. Sizes come from there, not from local headers: a writer that streams
 * (general-purpose flag bit 3) leaves them 0 in the local header and writes them after the data.
 */
function centralDirectory(zip: Buffer): Map<string, ZipEntry> {
  // The end-of-central-directory record: 22 bytes and a comment of up to 65,535 after it.
  let end = zip.length - 22;
  const lowest = Math.max(0, zip.length - 22 - 0xffff);
  while (end >= lowest && zip.readUInt32LE(end) !== END_OF_DIRECTORY) end--;
  if (end < lowest) throw new WorkbookRefusal(DAMAGED);
  let count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  if (count === 0xffff || at === 0xffffffff) {
    // Zip64: a locator just before the record points at the zip64 end record, which holds the real figures.
    const locator = end - 20;
    if (locator < 0 || zip.readUInt32LE(locator) !== ZIP64_LOCATOR) throw new WorkbookRefusal(DAMAGED);
    const zip64End = safeNumber(zip.readBigUInt64LE(locator + 8));
    if (zip64End + 56 > zip.length || zip.readUInt32LE(zip64End) !== ZIP64_END)
      throw new WorkbookRefusal(DAMAGED);
    count = safeNumber(zip.readBigUInt64LE(zip64End + 32));
    at = safeNumber(zip.readBigUInt64LE(zip64End + 48));
  }
  const entries = new Map<string, ZipEntry>();
  for (let i = 0; i < count; i++) {
    if (at + 46 > zip.length || zip.readUInt32LE(at) !== DIRECTORY_ENTRY) throw new WorkbookRefusal(DAMAGED);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const entry: ZipEntry = {
      method: zip.readUInt16LE(at + 10),
      compressedSize: zip.readUInt32LE(at + 20),
      size: zip.readUInt32LE(at + 24),
      localHeader: zip.readUInt32LE(at + 42),
    };
    const extra = at + 46 + nameLength;
    if (extra + extraLength > zip.length) throw new WorkbookRefusal(DAMAGED);
    readZip64Extra(zip, extra, extra + extraLength, entry);
    entries.set(partKey(zip.toString('utf8', at + 46, extra)), entry);
    at = extra + extraLength + zip.readUInt16LE(at + 32);
  }
  return entries;
}

/** The zip64 extra field (id 1): 8-byte figures for those the entry left at 0xFFFFFFFF, in this order. */
function readZip64Extra(zip: Buffer, from: number, to: number, entry: ZipEntry): void {
  for (let at = from; at + 4 <= to; ) {
    const id = zip.readUInt16LE(at);
    const length = zip.readUInt16LE(at + 2);
    if (id === 1) {
      let field = at + 4;
      const next = (): number => {
        if (field + 8 > at + 4 + length) throw new WorkbookRefusal(DAMAGED);
        const value = safeNumber(zip.readBigUInt64LE(field));
        field += 8;
        return value;
      };
      if (entry.size === 0xffffffff) entry.size = next();
      if (entry.compressedSize === 0xffffffff) entry.compressedSize = next();
      if (entry.localHeader === 0xffffffff) entry.localHeader = next();
      return;
    }
    at += 4 + length;
  }
}

function safeNumber(value: bigint): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new WorkbookRefusal(DAMAGED);
  return Number(value);
}
