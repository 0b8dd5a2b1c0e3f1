import { type Relationship, relationshipsOf } from './package.js';
import { DAMAGED, WorkbookRefusal } from './refusal.js';
import { attribute, SPREADSHEET_NAMESPACES, startTags, withoutPrefix } from './xml.js';
import type { ZipParts } from './zip.js';

export interface Worksheet {
  name: string;
  part: string;
}

export interface Workbook {
  /** Visible worksheets in tab order; hidden and very hidden sheets, chart and macro sheets left out. */
  worksheets: Worksheet[];
  /** The one read when none is asked for: the active tab when it is a visible worksheet, else the first. */
  shown: Worksheet | undefined;
  /** Dates count from 1904-01-01 (old Mac Excel) rather than from 1899-12-30. */
  date1904: boolean;
  sharedStringsPart: string | undefined;
  stylesPart: string | undefined;
}

/**
 * The workbook's sheets and the parts its cells need, found through its relationships; undefined when the
 * package's main part is not a workbook (a Word or PowerPoint file renamed).
 */
export function readWorkbook(parts: ZipParts, workbookPart: string): Workbook | undefined {
  const xml = parts.text(workbookPart);
  if (xml === undefined) throw new WorkbookRefusal(DAMAGED);
  const workbook = withoutPrefix(xml, SPREADSHEET_NAMESPACES);
  if (startTags(workbook, 'workbook').length === 0) return undefined;
  const relationships = relationshipsOf(parts, workbookPart);
  const byId = new Map(relationships.map((r) => [r.id, r]));
  const worksheets: Worksheet[] = [];
  let shown: Worksheet | undefined;
  const activeTab = Number(attribute(startTags(workbook, 'workbookView')[0] ?? '', 'activeTab') ?? 0);
  startTags(workbook, 'sheet').forEach((tag, tab) => {
    const name = attribute(tag, 'name');
    const relationship = byId.get(attribute(tag, 'id', true) ?? '');
    const state = attribute(tag, 'state') ?? 'visible';
    if (name === undefined || state !== 'visible' || !isWorksheet(relationship, parts)) return;
    const sheet = { name, part: relationship.target };
    worksheets.push(sheet);
    if (tab === activeTab) shown = sheet;
  });
  const date1904 = attribute(startTags(workbook, 'workbookPr')[0] ?? '', 'date1904');
  return {
    worksheets,
    shown: shown ?? worksheets[0],
    date1904: date1904 === '1' || date1904 === 'true',
    sharedStringsPart: partOfType(relationships, 'sharedStrings', parts),
    stylesPart: partOfType(relationships, 'styles', parts),
  };
}

function isWorksheet(relationship: Relationship | undefined, parts: ZipParts): relationship is Relationship {
  return relationship?.type === 'worksheet' && parts.has(relationship.target);
}

function partOfType(relationships: Relationship[], type: string, parts: ZipParts): string | undefined {
  return relationships.find((r) => r.type === type && parts.has(r.target))?.target;
}
