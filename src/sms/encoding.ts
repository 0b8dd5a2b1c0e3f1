import {
  GSM_BASIC,
  GSM_EXTENSION,
  gsm7Septets,
  TURKISH_SHIFT,
  turkishSeptets,
  ucs2Units,
} from './gsm-alphabet.js';

export type SmsEncoding = 'GSM7' | 'TurkishSingleShift' | 'UCS2';
export type DataCoding = 'Default' | 'TurkishSingleShift' | 'UCS2';

export interface TextAnalysis {
  encoding: SmsEncoding;
  dataCoding: DataCoding;
  /** Unicode code points, which is what people count when they count characters. */
  characters: number;
  /** Septets for the 7-bit encodings, UTF-16 code units for UCS2. */
  units: number;
  segments: number;
  /** Capacity of one segment for this text: the single-SMS figure unless it needs several. */
  perSegment: number;
  remainingInLastSegment: number;
  /** Characters no 7-bit table can carry, when they are why UCS2 was chosen automatically. */
  forcedUcs2By: string[];
  /** Characters the encoding forced through `options.encoding` cannot carry. */
  unrepresentable: string[];
}

interface Capacity {
  single: number;
  concatenated: number;
}

// 140 octets per SMS, minus the user data header. Concatenation adds a 6-octet header
// (UDHL + 5-octet IE); the national language single shift adds a 3-octet IE on top, and even a
// single SMS then needs a header (UDHL + 3 octets). Septets are packed, so 7-bit capacity is
// floor(bits / 7).
const CAPACITY: Record<SmsEncoding, Capacity> = {
  GSM7: { single: 160, concatenated: 153 },
  TurkishSingleShift: { single: 155, concatenated: 149 },
  UCS2: { single: 70, concatenated: 67 },
};

const DATA_CODING: Record<SmsEncoding, DataCoding> = {
  GSM7: 'Default',
  TurkishSingleShift: 'TurkishSingleShift',
  UCS2: 'UCS2',
};

// Order is the tie-break when two encodings need the same number of segments.
const PREFERENCE: readonly SmsEncoding[] = ['GSM7', 'TurkishSingleShift', 'UCS2'];

const COST: Record<SmsEncoding, (char: string) => number | undefined> = {
  GSM7: gsm7Septets,
  TurkishSingleShift: turkishSeptets,
  UCS2: ucs2Units,
};

export function dataCodingOf(encoding: SmsEncoding): DataCoding {
  return DATA_CODING[encoding];
}

/** The encoding a DataCoding sends in: the inverse of dataCodingOf. */
export function encodingOf(dataCoding: DataCoding): SmsEncoding {
  return PREFERENCE.find((encoding) => DATA_CODING[encoding] === dataCoding) ?? 'UCS2';
}

interface Packing {
  encoding: SmsEncoding;
  units: number;
  segments: number;
  perSegment: number;
  lastUsed: number;
  unrepresentable: string[];
}

// sms-segments-calculator (already a dependency) gets GSM-7/UCS-2 boundaries right, but it is not
// used here: it packs whole grapheme clusters where our rule is "never split a surrogate pair",
// counts graphemes rather than code points, throws instead of reporting characters a forced
// GSM-7 cannot carry, and has no national language shift tables. One packer for all three
// encodings keeps them consistent; test/sms/encoding.test.ts checks it against the library
// wherever the two rules coincide.
function pack(chars: readonly string[], encoding: SmsEncoding): Packing {
  const cost = COST[encoding];
  const { single, concatenated } = CAPACITY[encoding];
  const unrepresentable = new Set<string>();
  const costs = chars.map((char) => {
    const c = cost(char);
    if (c !== undefined) return c;
    unrepresentable.add(char);
    // The gateway would have to substitute something (typically '?'), which costs one septet.
    return 1;
  });
  const units = costs.reduce((sum, c) => sum + c, 0);
  const base = { encoding, units, unrepresentable: [...unrepresentable] };
  if (units === 0) return { ...base, segments: 0, perSegment: single, lastUsed: 0 };
  if (units <= single) return { ...base, segments: 1, perSegment: single, lastUsed: units };

  // Escape+character pairs and surrogate pairs are indivisible, so a segment may end short.
  let segments = 1;
  let used = 0;
  for (const c of costs) {
    if (used + c > concatenated) {
      segments += 1;
      used = 0;
    }
    used += c;
  }
  return { ...base, segments, perSegment: concatenated, lastUsed: used };
}

function choose(chars: readonly string[]): { packing: Packing; forcedUcs2By: string[] } {
  let best: Packing | undefined;
  for (const encoding of PREFERENCE) {
    const packing = pack(chars, encoding);
    if (packing.unrepresentable.length > 0) continue;
    if (best === undefined || packing.segments < best.segments) best = packing;
  }
  // UCS2 carries everything, so `best` is always set; the fallback only satisfies the compiler.
  const packing = best ?? pack(chars, 'UCS2');
  const forcedUcs2By =
    packing.encoding === 'UCS2' ? distinct(chars.filter((char) => turkishSeptets(char) === undefined)) : [];
  return { packing, forcedUcs2By };
}

function distinct(chars: readonly string[]): string[] {
  return [...new Set(chars)];
}

export function analyzeText(text: string, options: { encoding?: SmsEncoding } = {}): TextAnalysis {
  // Iterating a string yields code points; a lone surrogate comes out on its own.
  const chars = [...text];
  const forced = options.encoding;
  const { packing, forcedUcs2By } =
    forced === undefined ? choose(chars) : { packing: pack(chars, forced), forcedUcs2By: [] };
  return {
    encoding: packing.encoding,
    dataCoding: DATA_CODING[packing.encoding],
    characters: chars.length,
    units: packing.units,
    segments: packing.segments,
    perSegment: packing.perSegment,
    remainingInLastSegment: packing.perSegment - packing.lastUsed,
    forcedUcs2By,
    unrepresentable: forced === undefined ? [] : packing.unrepresentable,
  };
}

export type UnsendableKind = 'unpaired-surrogate' | 'nul' | 'control' | 'noncharacter';

/** A character no SMS can carry, where it is as people count: code points, from 1. */
export interface UnsendableCharacter {
  /** Position in the whole text. */
  position: number;
  /** Line (lines end at `\n`) and position within that line. */
  line: number;
  column: number;
  codePoint: number;
  kind: UnsendableKind;
}

// Line feed, carriage return and form feed are in the GSM tables; tab is carried by UCS-2 (and shown in
// the estimate as the character forcing it). Every other C0 or C1 control is not text: SMSC and handset
// software treats NUL as the end of the string, and the rest as garbage or nothing.
const CARRIED_CONTROLS = new Set([0x09, 0x0a, 0x0c, 0x0d]);

function unsendableKind(codePoint: number): UnsendableKind | undefined {
  if (codePoint >= 0xd800 && codePoint <= 0xdfff) return 'unpaired-surrogate';
  if (codePoint === 0) return 'nul';
  if ((codePoint < 0x20 && !CARRIED_CONTROLS.has(codePoint)) || (codePoint >= 0x7f && codePoint <= 0x9f)) {
    return 'control';
  }
  // Unicode reserves these for internal use: "not for interchange" (U+FDD0..U+FDEF and the last two
  // code points of every plane).
  if ((codePoint >= 0xfdd0 && codePoint <= 0xfdef) || (codePoint & 0xfffe) === 0xfffe) return 'noncharacter';
  return undefined;
}

// The common answer, "none", by code units and without allocating: a 100,000-row table is checked whole.
// Every code unit that may be unsendable (the loop below decides): a control not carried, C1 controls, any
// surrogate (a pair is fine unless it spells a noncharacter), noncharacters. A text with none of them, nearly
// every text, is settled by one native scan, about three times faster than the loop over a pasted table.
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is what it is for.
const MAYBE_UNSENDABLE = /[\x00-\x08\x0b\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufdd0-\ufdef\ufffe\uffff]/;

function allSendable(text: string): boolean {
  if (!MAYBE_UNSENDABLE.test(text)) return true;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20) {
      if (!CARRIED_CONTROLS.has(code)) return false;
    } else if (code >= 0x7f && code <= 0x9f) return false;
    else if (code >= 0xd800 && code <= 0xdfff) {
      const next = text.charCodeAt(i + 1);
      if (code > 0xdbff || !(next >= 0xdc00 && next <= 0xdfff)) return false;
      const codePoint = (code - 0xd800) * 0x400 + (next - 0xdc00) + 0x10000;
      if ((codePoint & 0xfffe) === 0xfffe) return false;
      i++;
    } else if ((code >= 0xfdd0 && code <= 0xfdef) || code >= 0xfffe) return false;
  }
  return true;
}

/**
 * Characters the gateway cannot carry in any coding. A lone surrogate (half of an emoji cut in two, or
 * text from a broken source) is not a character: UCS-2 would send half a pair and GSM has nothing for it.
 */
export function unsendableCharacters(text: string): UnsendableCharacter[] {
  if (allSendable(text)) return [];
  const found: UnsendableCharacter[] = [];
  let position = 0;
  let line = 1;
  let column = 0;
  // Iterating a string yields code points; a lone surrogate comes out on its own.
  for (const char of text) {
    position += 1;
    column += 1;
    const codePoint = char.codePointAt(0)!;
    const kind = unsendableKind(codePoint);
    if (kind) found.push({ position, line, column, codePoint, kind });
    if (char === '\n') {
      line += 1;
      column = 0;
    }
  }
  return found;
}

// Per-character costs by UTF-16 code unit, for the bulk path below: 1 or 2 septets, 0 when the table cannot carry it.
const GSM7_COST = new Uint8Array(0x10000);
const TURKISH_COST = new Uint8Array(0x10000);
for (const char of GSM_BASIC) {
  GSM7_COST[char.charCodeAt(0)] = 1;
  TURKISH_COST[char.charCodeAt(0)] = 1;
}
for (const char of GSM_EXTENSION) GSM7_COST[char.charCodeAt(0)] = 2;
for (const char of TURKISH_SHIFT) TURKISH_COST[char.charCodeAt(0)] = 2;

const NOT_CARRIED = -1;

/**
 * Segments of one message in `encoding`, or -1 when the encoding cannot carry a character of it. The same
 * rule as analyzeText (indivisible escape and surrogate pairs), without allocating: compose runs it once
 * per envelope of a 100,000-row send.
 */
export function segmentsIn(text: string, encoding: SmsEncoding): number {
  const { single, concatenated } = CAPACITY[encoding];
  const table =
    encoding === 'GSM7' ? GSM7_COST : encoding === 'TurkishSingleShift' ? TURKISH_COST : undefined;
  let units = 0;
  let segments = 1;
  let used = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const code = text.charCodeAt(i);
    let c: number;
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < n) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        // An astral character: never in the 7-bit tables, two code units in UCS-2.
        if (table) return NOT_CARRIED;
        c = 2;
        i++;
      } else c = table ? (table[code] ?? 0) : 1;
    } else c = table ? (table[code] ?? 0) : 1;
    if (c === 0) return NOT_CARRIED;
    units += c;
    if (used + c > concatenated) {
      segments += 1;
      used = 0;
    }
    used += c;
  }
  if (units === 0) return 0;
  return units <= single ? 1 : segments;
}

/** The encoding analyzeText would choose automatically, and its segments, without allocating. */
export function autoSegments(text: string): { encoding: SmsEncoding; segments: number } {
  // GSM-7 costs each character what Turkish single shift does or less, in bigger segments: when it carries
  // the text it needs the fewest segments, and it wins ties.
  const gsm = segmentsIn(text, 'GSM7');
  if (gsm >= 0) return { encoding: 'GSM7', segments: gsm };
  const turkish = segmentsIn(text, 'TurkishSingleShift');
  // Text the Turkish table carries has no surrogate, so in UCS-2 every code unit is one unit and its segments
  // follow from its length alone: what segmentsIn would count, without a third pass over the text.
  const ucs2 = turkish >= 0 ? ucs2SegmentsOfLength(text.length) : segmentsIn(text, 'UCS2');
  return turkish >= 0 && turkish <= ucs2
    ? { encoding: 'TurkishSingleShift', segments: turkish }
    : { encoding: 'UCS2', segments: ucs2 };
}

function ucs2SegmentsOfLength(units: number): number {
  return segmentsOfCost(units, UCS2_CAPACITY.single, UCS2_CAPACITY.concatenated);
}

/**
 * What a piece of a message costs, written into `out`: [0] GSM-7 septets, [1] Turkish single shift septets
 * (-1 where the table cannot carry a character of it), [2] 1 when every character is sendable (see
 * unsendableCharacters), else 0, and [3] 1 when it has a surrogate code unit (an emoji, or half of one), else 0.
 * Septets add up over the pieces of a message, so a personalised send counts its template's text once and each
 * row's values only (compose renders 100,000 rows).
 */
export function countPiece(text: string, out: Int32Array): void {
  let gsm = 0;
  let turkish = 0;
  let surrogates = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const code = text.charCodeAt(i);
    if (gsm >= 0) {
      const c = GSM7_COST[code]!;
      gsm = c === 0 ? -1 : gsm + c;
    }
    if (turkish >= 0) {
      const c = TURKISH_COST[code]!;
      turkish = c === 0 ? -1 : turkish + c;
    }
    if (code >= 0xd800 && code <= 0xdfff) surrogates = 1;
  }
  out[0] = gsm;
  out[1] = turkish;
  out[2] = gsm >= 0 || turkish >= 0 || allSendable(text) ? 1 : 0;
  out[3] = surrogates;
}

/** What segmentsOfCounted answers when only a pass over the message's characters can tell. */
export const NEEDS_TEXT = -2;

/**
 * segmentsIn for a message whose counts are known (summed with countPiece over its pieces): GSM-7 and Turkish
 * septets (-1 where the table cannot carry it), UTF-16 `units` (its length) and whether a piece had a
 * surrogate. A message that fits one SMS, or UCS-2 text without a surrogate, needs no pass over its
 * characters; a longer one with escapes or surrogate pairs (indivisible) gives NEEDS_TEXT: count it with
 * segmentsIn.
 */
export function segmentsOfCounted(
  encoding: SmsEncoding,
  gsm: number,
  turkish: number,
  units: number,
  surrogates: boolean,
): number {
  const septets = encoding === 'GSM7' ? gsm : encoding === 'TurkishSingleShift' ? turkish : -2;
  if (septets === -1) return NOT_CARRIED;
  const { single, concatenated } = CAPACITY[encoding];
  return septets >= 0
    ? segmentsOfCost(septets, single, 0)
    : segmentsOfCost(units, single, surrogates ? 0 : concatenated);
}

/**
 * Segments of a message costing `cost` (septets or units) in a coding whose one SMS holds `single`: 0, 1, or
 * beyond one SMS `cost / concatenated` rounded up when the text splits anywhere (`concatenated` given: UCS-2
 * without a surrogate), else NEEDS_TEXT (escapes and surrogate pairs are indivisible).
 */
function segmentsOfCost(cost: number, single: number, concatenated: number): number {
  if (cost === 0) return 0;
  if (cost <= single) return 1;
  return concatenated > 0 ? Math.ceil(cost / concatenated) : NEEDS_TEXT;
}

/** The codings by rank, cheapest first, as autoSegmentsCode ranks them. */
export const CODINGS_BY_RANK: readonly SmsEncoding[] = ['GSM7', 'TurkishSingleShift', 'UCS2'];
/** autoSegmentsCode's rank unit: a code is rank * RANK_UNIT + segments. */
const RANK_UNIT = 1 << 20;

/** The coding's rank (CODINGS_BY_RANK) in a code of autoSegmentsCode's. */
export function rankOfCode(code: number): number {
  return Math.floor(code / RANK_UNIT);
}

/** The segments in a code of autoSegmentsCode's. */
export function segmentsOfCode(code: number): number {
  return code % RANK_UNIT;
}

/**
 * autoSegmentsOfCounted as one number, without an object or a coding's name: the coding's rank
 * (CODINGS_BY_RANK) times RANK_UNIT plus its segments, or NEEDS_TEXT. A 100,000-row batch asks it of every
 * message (~7 → ~1.6 ms for 100,000, against the named functions).
 */
export function autoSegmentsCode(gsm: number, turkish: number, units: number, surrogates: boolean): number {
  if (gsm >= 0) return segmentsOfCost(gsm, GSM7_CAPACITY.single, 0);
  const ucs2 = segmentsOfCost(units, UCS2_CAPACITY.single, surrogates ? 0 : UCS2_CAPACITY.concatenated);
  if (ucs2 === NEEDS_TEXT) return NEEDS_TEXT;
  if (turkish < 0) return 2 * RANK_UNIT + ucs2;
  const turkishSegments = segmentsOfCost(turkish, TURKISH_CAPACITY.single, 0);
  if (turkishSegments === NEEDS_TEXT) return NEEDS_TEXT;
  return turkishSegments <= ucs2 ? RANK_UNIT + turkishSegments : 2 * RANK_UNIT + ucs2;
}

const GSM7_CAPACITY = CAPACITY.GSM7;
const TURKISH_CAPACITY = CAPACITY.TurkishSingleShift;
const UCS2_CAPACITY = CAPACITY.UCS2;

/** autoSegments for a message whose counts are known, or undefined when only its characters can tell. */
export function autoSegmentsOfCounted(
  gsm: number,
  turkish: number,
  units: number,
  surrogates: boolean,
): { encoding: SmsEncoding; segments: number } | undefined {
  const code = autoSegmentsCode(gsm, turkish, units, surrogates);
  if (code === NEEDS_TEXT) return undefined;
  return { encoding: CODINGS_BY_RANK[rankOfCode(code)]!, segments: segmentsOfCode(code) };
}
