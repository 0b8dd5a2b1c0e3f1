import type { ColumnsWanted, TableRecord } from '../table-file.js';
import { cellValues } from './cell-values.js';
import { readCellFormats } from './number-format.js';
import { workbookPart } from './package.js';
import { DAMAGED, openDocumentRefusalOf, STRINGS_TOO_LARGE, WorkbookRefusal } from './refusal.js';
import { NO_STRINGS, sharedStrings } from './shared-strings.js';
import { ROWS_OUT_OF_ORDER, SheetMarkupError, sheetRecords } from './sheet-cells.js';
import { readWorkbook, type Worksheet } from './workbook.js';
import { rootPrefix, SPREADSHEET_NAMESPACES, withoutPrefix } from './xml.js';
import { ZipParts } from './zip.js';

/**
 * A worksheet of an .xlsx, read for its cells as the sheet shows them. For a sheet of 100,000 rows (12.6 MB of
 * XML, 2.4 MB of shared strings) exceljs' streaming reader took about 0.8 s where the whole compose has about
 * 0.2 s; a general XML parser alone (saxes, which exceljs uses, or htmlparser2) takes 0.15 s, and unzipping in
 * JavaScript (fflate, or yauzl's streams) about 0.1 s. Here the parts needed are inflated by Node's zlib, within
 * one budget of inflated bytes, and the sheet's cells found by position in its bytes: about 0.1 s in all. What it
 * cannot read is refused with the reason (WorkbookRefusal), never read wrong.
 */
export interface XlsxSheet {
  sheet: string;
  /** The visible worksheets in tab order. */
  sheets: string[];
  records: TableRecord[];
}

/** The most the parts read may inflate to: a zip bomb is refused, not unpacked. */
export const MAX_XLSX_INFLATED_BYTES = 200 * 1024 * 1024;

/**
 * The most the shared strings may inflate to. The part is held as bytes and again as decoded text in the reading
 * thread, outside the heap its resourceLimits count: 32 MB is room for ten times the text of a 100,000-row list of
 * names (2.4 MB), and keeps two reads at once well inside the bot's memory.
 */
export const MAX_SHARED_STRINGS_BYTES = 32 * 1024 * 1024;
const SHARED_STRINGS_LIMIT = { bytes: MAX_SHARED_STRINGS_BYTES, refusal: STRINGS_TOO_LARGE };

export interface XlsxReadOptions {
  columnsWanted?: ColumnsWanted;
  /** The worksheet to read by name; else the active tab when it is a visible worksheet, else the first visible. */
  sheet?: string;
  maxInflatedBytes?: number;
}

const NOT_A_WORKBOOK =
  'is a zip file but not an Excel workbook inside: save the list from Excel as .xlsx or CSV.';
const NO_WORKSHEET =
  'has no visible worksheet to read: show the sheet with the list in Excel and save again.';

export function readXlsx(bytes: Uint8Array, options: XlsxReadOptions = {}): XlsxSheet {
  try {
    return readSheet(bytes, options);
  } catch (error) {
    if (error instanceof WorkbookRefusal) throw error;
    // A damaged zip or sheet gives errors of every kind (an offset past the end, a tag never closed).
    throw new WorkbookRefusal(DAMAGED);
  }
}

function readSheet(bytes: Uint8Array, options: XlsxReadOptions): XlsxSheet {
  const parts = new ZipParts(bytes, options.maxInflatedBytes ?? MAX_XLSX_INFLATED_BYTES);
  const part = workbookPart(parts);
  const workbook = part === undefined ? undefined : readWorkbook(parts, part);
  if (!workbook) {
    const mimetype = parts.text('mimetype');
    throw new WorkbookRefusal((mimetype !== undefined && openDocumentRefusalOf(mimetype)) || NOT_A_WORKBOOK);
  }
  // A part typed as a worksheet that holds something else (a chart sheet, a dialog) is not one.
  const candidates = options.sheet === undefined ? inShowingOrder(workbook.worksheets, workbook.shown) : [];
  if (options.sheet !== undefined) {
    const asked = workbook.worksheets.find((w) => w.name === options.sheet);
    if (!asked) {
      throw new WorkbookRefusal(
        workbook.worksheets.length === 0 ? NO_WORKSHEET : noSuchSheet(options.sheet, workbook.worksheets),
      );
    }
    candidates.push(asked);
  }
  const skipped = new Set<Worksheet>();
  for (const worksheet of candidates) {
    const xml = worksheetXml(parts, worksheet.part);
    if (!xml) {
      skipped.add(worksheet);
      continue;
    }
    const strings =
      workbook.sharedStringsPart === undefined
        ? NO_STRINGS
        : sharedStrings(
            withoutPrefix(
              parts.text(workbook.sharedStringsPart, SHARED_STRINGS_LIMIT)!,
              SPREADSHEET_NAMESPACES,
            ),
          );
    const formats = readCellFormats(workbook.stylesPart && parts.text(workbook.stylesPart));
    const values = cellValues(strings, formats, workbook.date1904);
    let records: TableRecord[] | typeof ROWS_OUT_OF_ORDER;
    try {
      records = sheetRecords(xml, values, options.columnsWanted);
      if (records === ROWS_OUT_OF_ORDER) records = sheetRecords(xml, values, undefined, true);
    } catch (error) {
      if (error instanceof SheetMarkupError) throw new WorkbookRefusal(DAMAGED);
      throw error;
    }
    if (records === ROWS_OUT_OF_ORDER) throw new WorkbookRefusal(DAMAGED);
    const sheets = workbook.worksheets.filter((w) => !skipped.has(w)).map((w) => w.name);
    return { sheet: worksheet.name, sheets, records };
  }
  throw new WorkbookRefusal(NO_WORKSHEET);
}

function inShowingOrder(worksheets: Worksheet[], shown: Worksheet | undefined): Worksheet[] {
  return shown ? [shown, ...worksheets.filter((w) => w !== shown)] : [...worksheets];
}

function noSuchSheet(name: string, worksheets: Worksheet[]): string {
  const names = worksheets.map((w) => `“${w.name}”`).join(', ');
  return `has no worksheet named “${name}”: its worksheets are ${names}.`;
}

/**
 * A worksheet part's bytes, its elements without a namespace prefix; undefined when the part holds another kind
 * of sheet. The markup is ASCII, so a latin1 round trip changes no byte of the values.
 */
function worksheetXml(parts: ZipParts, part: string): Buffer | undefined {
  const xml = parts.read(part);
  if (!xml) return undefined;
  const head = xml.toString('latin1', 0, Math.min(xml.length, 16_384));
  const prefix = rootPrefix(head, SPREADSHEET_NAMESPACES);
  const root = /<(?![?!])(?:[\w.-]+:)?([\w.-]+)/.exec(head)?.[1];
  if (root !== 'worksheet') return undefined;
  if (prefix === undefined) return xml;
  return Buffer.from(withoutPrefix(xml.toString('latin1'), SPREADSHEET_NAMESPACES), 'latin1');
}
