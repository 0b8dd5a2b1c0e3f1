/**
 * Why a workbook is not read, as the end of a sentence that starts with the file's name: what the file is, and
 * what the person can do. table-file.ts turns it into a TableFileError.
 */
export class WorkbookRefusal extends Error {
  override name = 'WorkbookRefusal';
  constructor(readonly why: string) {
    super(why);
  }
}

export const DAMAGED =
  'cannot be read as an Excel workbook: it is damaged or not a real workbook. Open it in Excel and save it again as .xlsx.';
export const TOO_LARGE = 'unpacks to more than 200 MB: it is not a list of recipients.';
export const STRINGS_TOO_LARGE =
  'holds more than 32 MB of text in its cells: it is not a list of recipients (a list of 100,000 people holds a few MB).';
const OPEN_DOCUMENT = 'is an OpenDocument spreadsheet: save it as .xlsx or CSV.';
const PASSWORD = 'is protected with a password: save a copy without it.';
const OLD_EXCEL = 'is an old Excel 97–2003 workbook (.xls): save it as .xlsx.';

const CFB_MAGIC = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];
const OPEN_DOCUMENT_SPREADSHEET = 'application/vnd.oasis.opendocument.spreadsheet';

function startsWith(bytes: Uint8Array, magic: readonly number[]): boolean {
  return magic.every((b, i) => bytes[i] === b);
}

/**
 * What a file is when its bytes say it is a spreadsheet this app does not read, whatever its name: an Office
 * compound file (an .xls, or an .xlsx encrypted with a password, which Excel wraps in one) or an OpenDocument
 * spreadsheet. Undefined for anything else.
 */
export function spreadsheetRefusalOf(bytes: Uint8Array): string | undefined {
  if (startsWith(bytes, CFB_MAGIC)) return hasEncryptedPackage(bytes) ? PASSWORD : OLD_EXCEL;
  if (startsWith(bytes, ZIP_MAGIC) && isOpenDocumentSpreadsheet(bytes)) return OPEN_DOCUMENT;
  return undefined;
}

/** What a zip's `mimetype` entry says, when it names an OpenDocument spreadsheet (or template). */
export function openDocumentRefusalOf(mimetype: string): string | undefined {
  return mimetype.trim().startsWith(OPEN_DOCUMENT_SPREADSHEET) ? OPEN_DOCUMENT : undefined;
}

/**
 * OpenDocument puts an uncompressed `mimetype` entry first in its zip, so its type stands in plain text at a
 * fixed place (the local header's 30 bytes, then the name). A zip remade by another tool is caught by the reader,
 * which reads the entry wherever it is.
 */
function isOpenDocumentSpreadsheet(bytes: Uint8Array): boolean {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 30 + 8 + 100));
  return (
    head.toString('latin1', 30, 38) === 'mimetype' &&
    openDocumentRefusalOf(head.toString('latin1', 38, 38 + OPEN_DOCUMENT_SPREADSHEET.length)) !== undefined
  );
}

const ENCRYPTED_PACKAGE = Buffer.from('EncryptedPackage', 'utf16le');

/**
 * Whether a compound file holds an `EncryptedPackage` stream, the envelope Office puts a password-protected
 * workbook in. Found as a directory entry: 128-byte entries in sectors after the 512-byte header, the name in
 * UTF-16LE at the entry's start and its length in bytes (terminator included) at offset 64.
 */
function hasEncryptedPackage(bytes: Uint8Array): boolean {
  const file = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let at = file.indexOf(ENCRYPTED_PACKAGE, 512); at >= 0; at = file.indexOf(ENCRYPTED_PACKAGE, at + 2)) {
    if (
      (at - 512) % 128 === 0 &&
      at + 66 <= file.length &&
      file.readUInt16LE(at + 64) === ENCRYPTED_PACKAGE.length + 2
    ) {
      return true;
    }
  }
  return false;
}
