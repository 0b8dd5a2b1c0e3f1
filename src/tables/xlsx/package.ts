import { attribute, RELATIONSHIPS_NAMESPACES, startTags, withoutPrefix } from './xml.js';
import type { ZipParts } from './zip.js';

export interface Relationship {
  id: string;
  /** The type's last segment: `worksheet`, `sharedStrings`, `styles`, `officeDocument`, `chartsheet`… */
  type: string;
  /** The part it points at, as a name in the zip. */
  target: string;
}

/**
 * The relationships of a part (`xl/workbook.xml` → `xl/_rels/workbook.xml.rels`), targets resolved to part names:
 * the package format finds parts this way, and writers name them as they like (Excel's `sharedStrings.xml`
 * is another writer's `SharedStrings.xml` or `strings.xml`; a target may be absolute or relative).
 */
export function relationshipsOf(parts: ZipParts, part: string): Relationship[] {
  const slash = part.lastIndexOf('/');
  const folder = part.slice(0, slash + 1);
  const xml = parts.text(`${folder}_rels/${part.slice(slash + 1)}.rels`);
  if (xml === undefined) return [];
  const relationships: Relationship[] = [];
  for (const tag of startTags(withoutPrefix(xml, RELATIONSHIPS_NAMESPACES), 'Relationship')) {
    if (attribute(tag, 'TargetMode')?.toLowerCase() === 'external') continue;
    const id = attribute(tag, 'Id');
    const type = attribute(tag, 'Type');
    const target = attribute(tag, 'Target');
    if (id === undefined || type === undefined || target === undefined) continue;
    relationships.push({ id, type: type.slice(type.lastIndexOf('/') + 1), target: resolve(folder, target) });
  }
  return relationships;
}

/** The workbook part: the package's officeDocument relationship, else where Excel puts it. */
export function workbookPart(parts: ZipParts): string | undefined {
  const office = relationshipsOf(parts, '').find((r) => r.type === 'officeDocument');
  if (office && parts.has(office.target)) return office.target;
  return parts.has('xl/workbook.xml') ? 'xl/workbook.xml' : undefined;
}

/** A target against the folder of the part that names it; `/x` from the package's root; `..` and `.` resolved. */
function resolve(folder: string, target: string): string {
  let path = target.replace(/\\/g, '/');
  try {
    path = decodeURIComponent(path);
  } catch {
    // A lone % is a character of the name.
  }
  const segments = path.startsWith('/') ? [] : folder.split('/').filter((s) => s !== '');
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') segments.pop();
    else segments.push(segment);
  }
  return segments.join('/');
}
