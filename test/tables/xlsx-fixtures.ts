import ExcelJS from 'exceljs';
import JSZip from 'jszip';

/** Workbooks for the .xlsx reader's tests: written by exceljs, or part by part as other writers lay them out. */

export async function workbookOf(
  sheets: { name: string; rows: (ExcelJS.CellValue | undefined)[][]; state?: ExcelJS.WorksheetState }[],
): Promise<Uint8Array> {
  const workbook = new ExcelJS.Workbook();
  for (const { name, rows, state } of sheets) {
    const ws = workbook.addWorksheet(name, state ? { state } : {});
    rows.forEach((row, r) => {
      row.forEach((value, c) => {
        if (value !== undefined) ws.getCell(r + 1, c + 1).value = value;
      });
    });
  }
  return new Uint8Array((await workbook.xlsx.writeBuffer()) as ArrayBuffer);
}

/** The workbook with one part's XML changed: what other writers than exceljs put there. */
export async function withPart(
  bytes: Uint8Array,
  part: string,
  change: (xml: string) => string,
): Promise<Uint8Array> {
  const zip = await JSZip.loadAsync(bytes);
  const xml = await zip.file(part)!.async('string');
  zip.file(part, change(xml));
  return zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE' });
}

export const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
export const OFFICE_RELATIONSHIPS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PACKAGE_RELATIONSHIPS = 'http://schemas.openxmlformats.org/package/2006/relationships';

export interface SheetSpec {
  name: string;
  /** The <sheetData> content (or, with `kind: 'chartsheet'`, nothing). */
  data?: string;
  state?: 'hidden' | 'veryHidden';
  kind?: 'worksheet' | 'chartsheet';
}

export interface PackageSpec {
  sheets: SheetSpec[];
  sharedStrings?: string[] | string;
  styles?: string;
  activeTab?: number;
  date1904?: string;
  /** Where the workbook lives (a writer's own layout); Excel's xl/workbook.xml by default. */
  workbookPath?: string;
  sharedStringsPath?: string;
  /** The whole zip entry list changed at the end, for what a test needs beyond this. */
  change?: (parts: Record<string, string>) => void;
}

/** A package written part by part, as a minimal writer does: content types, relationships, workbook, sheets. */
export function packageParts(spec: PackageSpec): Record<string, string> {
  const workbookPath = spec.workbookPath ?? 'xl/workbook.xml';
  const folder = workbookPath.slice(0, workbookPath.lastIndexOf('/') + 1);
  const relationships: string[] = [];
  const parts: Record<string, string> = {
    '[Content_Types].xml':
      '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/></Types>',
    '_rels/.rels': `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="${PACKAGE_RELATIONSHIPS}"><Relationship Id="rId1" Type="${OFFICE_RELATIONSHIPS}/officeDocument" Target="/${workbookPath}"/></Relationships>`,
  };
  const sheets = spec.sheets.map((sheet, i) => {
    const kind = sheet.kind ?? 'worksheet';
    const path = `${kind}s/${kind === 'worksheet' ? 'sheet' : 'chart'}${i + 1}.xml`;
    relationships.push(
      `<Relationship Id="rIdS${i + 1}" Type="${OFFICE_RELATIONSHIPS}/${kind}" Target="${path}"/>`,
    );
    parts[`${folder}${path}`] =
      kind === 'worksheet'
        ? `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="${MAIN}"><sheetData>${sheet.data ?? ''}</sheetData></worksheet>`
        : `<?xml version="1.0" encoding="UTF-8"?><chartsheet xmlns="${MAIN}"><sheetPr/></chartsheet>`;
    const state = sheet.state ? ` state="${sheet.state}"` : '';
    return `<sheet name="${escapeXml(sheet.name)}" sheetId="${i + 1}"${state} r:id="rIdS${i + 1}"/>`;
  });
  if (spec.sharedStrings !== undefined) {
    const path = spec.sharedStringsPath ?? 'sharedStrings.xml';
    relationships.push(
      `<Relationship Id="rIdSS" Type="${OFFICE_RELATIONSHIPS}/sharedStrings" Target="${path}"/>`,
    );
    parts[path.startsWith('/') ? path.slice(1) : `${folder}${path}`] =
      typeof spec.sharedStrings === 'string'
        ? spec.sharedStrings
        : `<?xml version="1.0" encoding="UTF-8"?><sst xmlns="${MAIN}">${spec.sharedStrings.map((s) => `<si><t>${escapeXml(s)}</t></si>`).join('')}</sst>`;
  }
  if (spec.styles !== undefined) {
    relationships.push(
      `<Relationship Id="rIdSt" Type="${OFFICE_RELATIONSHIPS}/styles" Target="styles.xml"/>`,
    );
    parts[`${folder}styles.xml`] = spec.styles;
  }
  const view =
    spec.activeTab === undefined
      ? ''
      : `<bookViews><workbookView activeTab="${spec.activeTab}"/></bookViews>`;
  const properties = spec.date1904 === undefined ? '' : `<workbookPr date1904="${spec.date1904}"/>`;
  parts[workbookPath] =
    `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="${MAIN}" xmlns:r="${OFFICE_RELATIONSHIPS}">${properties}${view}<sheets>${sheets.join('')}</sheets></workbook>`;
  const workbookName = workbookPath.slice(folder.length);
  parts[`${folder}_rels/${workbookName}.rels`] =
    `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="${PACKAGE_RELATIONSHIPS}">${relationships.join('')}</Relationships>`;
  spec.change?.(parts);
  return parts;
}

export async function zipOf(
  parts: Record<string, string | Uint8Array>,
  options: { streamFiles?: boolean; compression?: 'STORE' | 'DEFLATE' } = {},
): Promise<Uint8Array> {
  const zip = new JSZip();
  for (const [name, content] of Object.entries(parts)) zip.file(name, content);
  return zip.generateAsync({
    type: 'uint8array',
    compression: options.compression ?? 'DEFLATE',
    streamFiles: options.streamFiles ?? false,
  });
}

export async function packageOf(spec: PackageSpec): Promise<Uint8Array> {
  return zipOf(packageParts(spec));
}

export function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Rows of cells as a sheet's <sheetData>, each cell with its reference, strings inline. */
export function rowsXml(rows: (string | number)[][]): string {
  return rows
    .map(
      (row, r) =>
        `<row r="${r + 1}">${row
          .map((value, c) => {
            const ref = `${String.fromCharCode(65 + c)}${r + 1}`;
            return typeof value === 'number'
              ? `<c r="${ref}"><v>${value}</v></c>`
              : `<c r="${ref}" t="inlineStr"><is><t>${escapeXml(value)}</t></is></c>`;
          })
          .join('')}</row>`,
    )
    .join('');
}
