import { TableFileError } from './table-file.js';
import { type CodePage, chooseCodePage } from './turkish-code-pages.js';

/**
 * The encoding of an uploaded text file, decided for the file as a whole and never guessed:
 * - a byte order mark says UTF-8 or UTF-16;
 * - else bytes that are valid UTF-8 are UTF-8;
 * - else a file that does hold UTF-8 letters is UTF-8 with a few broken bytes (a line pasted from elsewhere, a
 *   stray byte): it is refused with the lines to fix, since reading it either way would send wrong letters;
 * - else one of the single-byte Turkish code pages Excel writes (turkish-code-pages.ts), when its letters read
 *   clearly as Turkish in exactly one of them; else refused with what to do.
 */

/** iconv-lite (its code-page tables are half a megabyte) is loaded when the first file needs it, not at start. */
const loadIconv = async () => (await import('iconv-lite')).default;

const SAVE_AS_UTF8 = 'save it again as CSV UTF-8 (Excel: File → Save As → “CSV UTF-8 (Comma delimited)”)';

/**
 * Text of a file and the encoding read, e.g. "UTF-8", "Windows-1254". `filename` names the file in a refusal.
 * Throws TableFileError when the encoding cannot be told for sure.
 */
export async function decodeText(
  bytes: Uint8Array,
  filename = 'The file',
): Promise<{ text: string; encoding: string }> {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes[0] === 0xff && bytes[1] === 0xfe)
    return { text: (await loadIconv()).decode(buffer.subarray(2), 'utf16le'), encoding: 'UTF-16' };
  if (bytes[0] === 0xfe && bytes[1] === 0xff)
    return { text: (await loadIconv()).decode(buffer.subarray(2), 'utf16be'), encoding: 'UTF-16' };
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  const start = bom ? 3 : 0;
  try {
    // The runtime's own check first: nearly every file is valid UTF-8, and it is far quicker than a scan here.
    const text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(buffer.subarray(start));
    return { text, encoding: bom ? 'UTF-8 with BOM' : 'UTF-8' };
  } catch {
    // Not UTF-8 throughout: find out what it is below.
  }
  const scan = scanUtf8(bytes, start);
  // Never seen: the scan follows the same rules as the runtime's decoder.
  if (scan.badLineCount === 0) return { text: buffer.toString('utf8', start), encoding: 'UTF-8' };
  // A byte order mark, or a single UTF-8 letter: the file was meant as UTF-8, and the bad bytes are damage.
  if (bom || scan.letters > 0) {
    throw new TableFileError(`“${filename}”: ${brokenUtf8(scan)}`);
  }
  const iconv = await loadIconv();
  const choice = chooseCodePage(bytes, (some: Buffer, page: CodePage) => iconv.decode(some, page.iconvName));
  if (!choice) {
    throw new TableFileError(
      `“${filename}” is not UTF-8, and its letters do not read clearly as Turkish in the code pages Excel uses (Windows-1254, DOS 857, Mac Turkish): ${SAVE_AS_UTF8}.`,
    );
  }
  return { text: choice.text, encoding: choice.page.name };
}

interface Utf8Scan {
  /** Valid multi-byte sequences that are letters or punctuation a list holds (not what legacy bytes make by chance). */
  letters: number;
  /** 1-based lines holding bytes that are not UTF-8, the first few of them. */
  badLines: number[];
  /** How many lines hold such bytes. */
  badLineCount: number;
}

const LINES_NAMED = 5;

/**
 * Walks the bytes as UTF-8 (RFC 3629: no overlong forms, no surrogates, nothing past U+10FFFF), counting the
 * sequences that decode to what UTF-8 text holds and the lines with bytes that do not decode. Lines are counted
 * at LF, or at CR in a file without LF (old Mac), as the file's own lines are.
 */
function scanUtf8(bytes: Uint8Array, from: number): Utf8Scan {
  const lineEnd = bytes.indexOf(0x0a) >= 0 ? 0x0a : 0x0d;
  const badLines: number[] = [];
  let badLineCount = 0;
  let letters = 0;
  let line = 1;
  let lastBadLine = 0;
  const n = bytes.length;
  let i = from;
  while (i < n) {
    const b = bytes[i]!;
    if (b < 0x80) {
      if (b === lineEnd) line++;
      i++;
      continue;
    }
    const length = sequenceLength(bytes, i);
    if (length === 0) {
      if (line !== lastBadLine) {
        lastBadLine = line;
        badLineCount++;
        if (badLines.length < LINES_NAMED) badLines.push(line);
      }
      i++;
      continue;
    }
    if (isTextCodePoint(codePointAt(bytes, i, length))) letters++;
    i += length;
  }
  return { letters, badLines, badLineCount };
}

/** Length of the valid UTF-8 sequence at `i`, or 0 when the byte there starts none. */
function sequenceLength(bytes: Uint8Array, i: number): number {
  const b = bytes[i]!;
  // Past the end a byte reads as undefined, which no comparison accepts.
  const c1 = bytes[i + 1]!;
  if (b >= 0xc2 && b <= 0xdf) return c1 >= 0x80 && c1 <= 0xbf ? 2 : 0;
  const c2 = bytes[i + 2]!;
  if (b >= 0xe0 && b <= 0xef) {
    const lo = b === 0xe0 ? 0xa0 : 0x80;
    const hi = b === 0xed ? 0x9f : 0xbf;
    return c1 >= lo && c1 <= hi && c2 >= 0x80 && c2 <= 0xbf ? 3 : 0;
  }
  if (b >= 0xf0 && b <= 0xf4) {
    const lo = b === 0xf0 ? 0x90 : 0x80;
    const hi = b === 0xf4 ? 0x8f : 0xbf;
    const c3 = bytes[i + 3]!;
    return c1 >= lo && c1 <= hi && c2 >= 0x80 && c2 <= 0xbf && c3 >= 0x80 && c3 <= 0xbf ? 4 : 0;
  }
  return 0;
}

function codePointAt(bytes: Uint8Array, i: number, length: number): number {
  const b = bytes[i]!;
  if (length === 2) return ((b & 0x1f) << 6) | (bytes[i + 1]! & 0x3f);
  if (length === 3) return ((b & 0x0f) << 12) | ((bytes[i + 1]! & 0x3f) << 6) | (bytes[i + 2]! & 0x3f);
  return (
    ((b & 0x07) << 18) |
    ((bytes[i + 1]! & 0x3f) << 12) |
    ((bytes[i + 2]! & 0x3f) << 6) |
    (bytes[i + 3]! & 0x3f)
  );
}

/**
 * Latin letters and signs (U+00A0–U+024F: every Turkish letter) and anything from U+0800 on (quotes, €, emoji,
 * other scripts). Left out: what the Turkish code pages make by chance when a letter is followed by a byte from
 * 0x80–0xBF (Mac Turkish "Şü" is the valid sequence for U+079F, Thaana), which lands in U+0250–U+07FF.
 */
function isTextCodePoint(cp: number): boolean {
  return (cp >= 0xa0 && cp <= 0x24f) || cp >= 0x800;
}

function brokenUtf8({ badLines, badLineCount }: Utf8Scan): string {
  const more = badLineCount - badLines.length;
  if (badLineCount === 1) {
    return `line ${badLines[0]} is not valid UTF-8 (the rest of the file is UTF-8): fix or delete that line, or ${SAVE_AS_UTF8}.`;
  }
  const named =
    more > 0
      ? `${badLines.join(', ')} and ${more} more`
      : `${badLines.slice(0, -1).join(', ')} and ${badLines[badLines.length - 1]}`;
  return `lines ${named} are not valid UTF-8 (the rest of the file is UTF-8): fix or delete those lines, or ${SAVE_AS_UTF8}.`;
}
