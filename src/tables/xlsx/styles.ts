import { builtinFormatCode } from './builtin-formats.js';
import type { CellFormats, NumberFormat } from './number-format.js';

/**
 * Start and end tags of the elements styles.xml's number formats are read from, with or without a
 * namespace prefix (`<x:numFmt>`, as the Open XML SDK writes). Attribute values are matched as quoted
 * strings because XML allows a bare `>` inside them (`formatCode="[>=100]0"`).
 */
const TAG = /<(\/?)(?:[\w.-]+:)?(numFmts|numFmt|cellXfs|xf)(?=[\s/>])((?:[^>"']|"[^"]*"|'[^']*')*?)(\/?)>/g;
const ATTRIBUTE = /(?:^|\s)(?:[\w.-]+:)?([\w.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
const ENTITY = /&(?:#x([0-9a-fA-F]+)|#([0-9]+)|(quot|amp|lt|gt|apos));/g;
const NAMED_ENTITIES: Record<string, string> = { quot: '"', amp: '&', lt: '<', gt: '>', apos: "'" };

const GENERAL: NumberFormat = Object.freeze({ id: 0, code: 'General' });

/**
 * Which number format each cell style shows its numbers in. A style index the file does not define
 * (a broken or hand-made file) reads as General, the format Excel falls back to.
 */
export function readCellFormats(stylesXml: string | undefined): CellFormats {
  if (stylesXml === undefined) return { of: () => GENERAL };
  const customCodes = new Map<number, string>();
  const styleFormatIds: number[] = [];
  // A <numFmt> elsewhere (inside <dxf>, conditional formatting) is not a cell's format, and <xf> also
  // appears in <cellStyleXfs>, the named styles: cells index only the <xf>s of <cellXfs>.
  let inNumFmts = false;
  let inCellXfs = false;
  for (const tag of stylesXml.matchAll(TAG)) {
    const [, closing, name, attributeText, selfClosing] = tag;
    const opening = closing === '';
    if (name === 'numFmts') inNumFmts = opening && selfClosing === '';
    else if (name === 'cellXfs') inCellXfs = opening && selfClosing === '';
    else if (!opening) continue;
    else if (name === 'numFmt' && inNumFmts) {
      const attributes = readAttributes(attributeText!);
      const id = formatId(attributes.get('numFmtId'));
      const code = attributes.get('formatCode');
      if (id !== undefined && code !== undefined) customCodes.set(id, code);
    } else if (name === 'xf' && inCellXfs) {
      styleFormatIds.push(formatId(readAttributes(attributeText!).get('numFmtId')) ?? 0);
    }
  }
  const formatsById = new Map<number, NumberFormat>();
  const formatOf = (id: number): NumberFormat => {
    let format = formatsById.get(id);
    if (!format) {
      format = Object.freeze({ id, code: customCodes.get(id) ?? builtinFormatCode(id) });
      formatsById.set(id, format);
    }
    return format;
  };
  const styles = styleFormatIds.map(formatOf);
  return { of: (styleIndex) => styles[styleIndex] ?? GENERAL };
}

function readAttributes(text: string): Map<string, string> {
  const attributes = new Map<string, string>();
  for (const [, name, doubleQuoted, singleQuoted] of text.matchAll(ATTRIBUTE)) {
    attributes.set(name!, decodeEntities(doubleQuoted ?? singleQuoted ?? ''));
  }
  return attributes;
}

function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(ENTITY, (entity, hex?: string, decimal?: string, named?: string) => {
    if (named) return NAMED_ENTITIES[named]!;
    const codePoint = Number.parseInt(hex ?? decimal!, hex ? 16 : 10);
    return codePoint <= 0x10ffff ? String.fromCodePoint(codePoint) : entity;
  });
}

function formatId(text: string | undefined): number | undefined {
  if (text === undefined || !/^\s*\d+\s*$/.test(text)) return undefined;
  return Number(text);
}
