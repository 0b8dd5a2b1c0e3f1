import { checkedCellText } from './cell-length.js';
import { DAMAGED, WorkbookRefusal } from './refusal.js';
import { contentEnd, decodeContent, decodeXml, hasCdata, unescapeText } from './xml.js';

/** A workbook's shared strings by index ('' past the last). */
export interface SharedStrings {
  at(index: number): string;
}

export const NO_STRINGS: SharedStrings = { at: () => '' };

/**
 * Shared strings by index (the part without namespace prefixes): each <si>'s <t> texts joined (rich text runs),
 * phonetic <rPh> runs left out, an empty <si/> an empty string (it still takes its index: every later string
 * would otherwise be its neighbour's). Decoded when first asked for, in order, up to the one asked: a send that
 * reads the phone column of a sheet whose other columns are 100,000 names decodes the few in its first rows, not
 * the names. Writers put a workbook's strings in the order they first appear, so the strings a column needs come
 * early.
 */
export function sharedStrings(xml: string): SharedStrings {
  if (xml.indexOf('<sst') < 0) throw new WorkbookRefusal(DAMAGED);
  // A string never closed is a damaged part, refused whatever the send reads of it (a string never asked for
  // would otherwise hide it). Read in order, a part is broken exactly when its last <si> is neither closed by a
  // </si> after it nor empty: two searches from the end, not a pass over every string.
  const last = xml.lastIndexOf('<si');
  if (last >= 0 && last > xml.lastIndexOf('</si>') && !/^<si\s*\/>/.test(xml.slice(last, last + 64))) {
    throw new WorkbookRefusal(DAMAGED);
  }
  const strings: string[] = [];
  const phonetic = phoneticRuns(xml);
  const cdata = hasCdata(xml);
  let at = 0;
  let ended = false;
  return {
    at(index) {
      while (strings.length <= index && !ended) {
        const start = nextItem(xml, at);
        if (start < 0) {
          ended = true;
          break;
        }
        const close = xml.indexOf('>', start);
        if (close < 0) throw new WorkbookRefusal(DAMAGED);
        if (xml.charCodeAt(close - 1) === 0x2f) {
          strings.push('');
          at = close + 1;
          continue;
        }
        const end = cdata ? contentEnd(xml, close + 1, '</si>') : xml.indexOf('</si>', close);
        if (end < 0) throw new WorkbookRefusal(DAMAGED);
        strings.push(checkedCellText(textsIn(xml, close + 1, end, phonetic)));
        at = end + 5;
      }
      return strings[index] ?? '';
    },
  };
}

/** Where the next <si> (or <si/>, or <si …>) starts at or after `from`, or -1. */
function nextItem(xml: string, from: number): number {
  for (let at = xml.indexOf('<si', from); at >= 0; at = xml.indexOf('<si', at + 3)) {
    const after = xml.charCodeAt(at + 3);
    if (
      after === 0x3e ||
      after === 0x2f ||
      after === 0x20 ||
      after === 0x09 ||
      after === 0x0a ||
      after === 0x0d
    ) {
      return at;
    }
  }
  return -1;
}

/**
 * Where the next phonetic run (<rPh>) starts at or after a position, found going forward only: asked once per
 * string of a part that may hold 100,000, each search starts where the last one found its run.
 */
export function phoneticRuns(xml: string): (from: number) => number {
  // Looked for when first asked (a string with runs), not when made: most parts have no <rPh> at all, and a
  // search of 2 MB of strings for one is not free.
  let next = -2;
  return (from) => {
    if (next === -2 || (next >= 0 && next < from)) next = xml.indexOf('<rPh', from);
    return next;
  };
}

/** The <t> texts between `from` and `to` (a <si> or an <is>), outside <rPh>, decoded (CDATA too) and joined. */
export function textsIn(
  xml: string,
  from: number,
  to: number,
  phoneticFrom: (from: number) => number,
): string {
  // The common <si><t>text</t></si>, without a search for runs.
  if (
    xml.startsWith('<t>', from) &&
    xml.startsWith('</t>', to - 4) &&
    xml.lastIndexOf('<', to - 5) === from
  ) {
    return unescapeText(decodeXml(xml.slice(from + 3, to - 4)));
  }
  let text = '';
  let at = from;
  for (;;) {
    const open = xml.indexOf('<t', at);
    if (open < 0 || open >= to) return unescapeText(text);
    const after = xml.charCodeAt(open + 2);
    if (
      after !== 0x3e &&
      after !== 0x20 &&
      after !== 0x2f &&
      after !== 0x09 &&
      after !== 0x0a &&
      after !== 0x0d
    ) {
      at = open + 2;
      continue;
    }
    const phonetic = phoneticFrom(at);
    if (phonetic >= 0 && phonetic < open) {
      at = xml.indexOf('</rPh>', phonetic);
      if (at < 0 || at > to) return unescapeText(text);
      continue;
    }
    const close = xml.indexOf('>', open);
    if (xml.charCodeAt(close - 1) === 0x2f) {
      at = close + 1;
      continue;
    }
    const end = contentEnd(xml, close + 1, '</t>');
    if (end < 0 || end > to) return unescapeText(text);
    text += decodeContent(xml.slice(close + 1, end));
    at = end + 4;
  }
}
