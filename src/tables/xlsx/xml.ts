/**
 * The little XML this reader needs, on text: the parts are small (a workbook, its relationships) or read by
 * position (sheet-cells.ts, shared-strings.ts), never through a general parser.
 */

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/**
 * Text or an attribute value as XML means it: a line break written as the bytes CR LF (or a lone CR) is one LF
 * (XML 1.0 §2.11, done before references are read: only `&#13;` or `_x000D_` is a CR), and references decoded.
 */
export function decodeXml(raw: string): string {
  const text = xmlLineBreaks(raw);
  if (text.indexOf('&') < 0) return text;
  return text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-z]+);/g, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
      return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[name] ?? whole;
  });
}

function xmlLineBreaks(raw: string): string {
  return raw.indexOf('\r') < 0 ? raw : raw.replace(/\r\n?/g, '\n');
}

const CDATA_START = '<![CDATA[';

/**
 * The content of a text element (`<t>`), which may hold CDATA sections between its text: a section is its
 * characters as they stand (no references in it; its line breaks are still XML's), the rest decoded.
 */
export function decodeContent(raw: string): string {
  let open = raw.indexOf(CDATA_START);
  if (open < 0) return decodeXml(raw);
  let text = '';
  let at = 0;
  for (; open >= 0; open = raw.indexOf(CDATA_START, at)) {
    const close = raw.indexOf(']]>', open + CDATA_START.length);
    // A section never closed (a damaged part): the rest is its text.
    const end = close < 0 ? raw.length : close;
    text += decodeXml(raw.slice(at, open)) + xmlLineBreaks(raw.slice(open + CDATA_START.length, end));
    at = close < 0 ? raw.length : close + 3;
  }
  return text + decodeXml(raw.slice(at));
}

/**
 * Where the element's content from `from` ends: the first `end` tag (`</t>`) outside CDATA sections (which may
 * hold one as text), or -1. Costs one search per `<` in the content: text holds none but a section's.
 */
export function contentEnd(xml: string, from: number, end: string): number {
  let at = from;
  for (;;) {
    const open = xml.indexOf('<', at);
    if (open < 0) return -1;
    if (xml.startsWith(end, open)) return open;
    if (xml.startsWith(CDATA_START, open)) {
      const close = xml.indexOf(']]>', open + CDATA_START.length);
      if (close < 0) return -1;
      at = close + 3;
    } else at = open + 1;
  }
}

/** Whether a part holds CDATA sections at all: most do not, and their ends are then found by one search. */
export function hasCdata(xml: string): boolean {
  return xml.indexOf(CDATA_START) >= 0;
}

/**
 * Text as Excel means it: OOXML writes a character XML cannot hold (a CR, a control character) as `_xHHHH_`, and
 * an underscore that would read as such an escape as `_x005F_` (so `_x005F_x000D_` is the text `_x000D_`).
 */
export function unescapeText(text: string): string {
  if (text.indexOf('_x') < 0) return text;
  return text.replace(/_x([0-9A-Fa-f]{4})_/g, (_, hex: string) =>
    String.fromCharCode(Number.parseInt(hex, 16)),
  );
}

/** The value of an attribute in a start tag, decoded; `name` may match with any namespace prefix (`r:id`). */
export function attribute(tag: string, name: string, anyPrefix = false): string | undefined {
  const pattern = anyPrefix
    ? new RegExp(`\\s(?:[\\w.-]+:)?${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`)
    : new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`);
  const match = pattern.exec(tag);
  if (!match) return undefined;
  return decodeXml(match[1] ?? match[2] ?? '');
}

/** The start tags (or empty-element tags) of elements with this local name. */
export function startTags(xml: string, name: string): string[] {
  return xml.match(new RegExp(`<${name}(?=[\\s/>])[^>]*>`, 'g')) ?? [];
}

/** The SpreadsheetML main namespace, transitional and strict. */
export const SPREADSHEET_NAMESPACES = [
  'http://schemas.openxmlformats.org/spreadsheetml/2006/main',
  'http://purl.oclc.org/ooxml/spreadsheetml/main',
];
export const RELATIONSHIPS_NAMESPACES = ['http://schemas.openxmlformats.org/package/2006/relationships'];

/**
 * The prefix the root element binds to one of these namespaces and uses for itself (`x` in
 * `<x:worksheet xmlns:x="…/main">`, as the Open XML SDK writes), or undefined when the elements are unprefixed.
 */
export function rootPrefix(head: string, namespaces: readonly string[]): string | undefined {
  const root = /<([A-Za-z_][\w.-]*):[A-Za-z_][\w.-]*(?=[\s/>])[^>]*>/.exec(firstElement(head) ?? '');
  if (!root) return undefined;
  const prefix = root[1]!;
  const bound = attribute(root[0], `xmlns:${prefix.replace(/[.-]/g, '\\$&')}`);
  return bound !== undefined && namespaces.includes(bound) ? prefix : undefined;
}

/** The first element's start tag, past the declaration and comments. */
function firstElement(xml: string): string | undefined {
  return /<(?![?!])[^>]*>/.exec(xml)?.[0];
}

/**
 * The text with the root's namespace prefix taken off element names (`<x:row>` → `<row>`, `</x:c>` → `</c>`), so
 * that what follows reads one vocabulary. Safe on element names alone: `<` cannot stand in XML text or values.
 */
export function withoutPrefix(xml: string, namespaces: readonly string[]): string {
  const prefix = rootPrefix(xml.slice(0, 16_384), namespaces);
  if (prefix === undefined) return xml;
  return xml.replace(new RegExp(`<(/?)${prefix.replace(/[.-]/g, '\\$&')}:`, 'g'), '<$1');
}
