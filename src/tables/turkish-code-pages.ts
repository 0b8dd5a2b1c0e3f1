/**
 * The single-byte code pages an office's Turkish text comes in when it is not UTF-8: what Excel writes as "CSV"
 * on a Turkish Windows (Windows-1254, also Notepad's "ANSI"), as "CSV (MS-DOS)" (the OEM code page 857) and as
 * "CSV (Macintosh)" (Mac Turkish). The three put the Turkish letters on different bytes (ş is 0xFE, 0x9F and 0xDF),
 * so a file is read in each and the one whose bytes come out as Turkish letters, in the case their neighbours
 * have, is taken; when none clearly does, none is.
 */
export interface CodePage {
  /** As the confirmation names it. */
  name: string;
  iconvName: string;
}

/** In order of preference: a file that reads the same in two of them is read in the first. */
export const TURKISH_CODE_PAGES: readonly CodePage[] = [
  { name: 'Windows-1254', iconvName: 'win1254' },
  { name: 'DOS Turkish (CP857)', iconvName: 'cp857' },
  { name: 'Mac Turkish', iconvName: 'macturkish' },
];

export type Decode = (bytes: Buffer, page: CodePage) => string;

enum Kind {
  Turkish = 0,
  Latin = 1,
  /** Punctuation a list may hold in any of them: quotes, dashes, €, no-break space. */
  Neutral = 2,
  /** Box drawing, controls, undefined bytes, lone accents, symbols: what a wrong code page makes of letters. */
  Unlikely = 3,
}

interface ByteClass {
  kind: Kind;
  upper: boolean;
  lower: boolean;
}

// â, î, û are Turkish too, but rare: they count as other Latin letters, and tell Mac Turkish from 857 better so.
const TURKISH_LETTERS = new Set('çğıöşüÇĞİÖŞÜ');
const NEUTRAL = new Set('\u00a0–—‘’‚“”„…•€°·«»™©®');

function classOf(char: string): ByteClass {
  const upper = char !== char.toLowerCase();
  const lower = char !== char.toUpperCase();
  if (TURKISH_LETTERS.has(char)) return { kind: Kind.Turkish, upper, lower };
  if (/^\p{Script=Latin}$/u.test(char) && /^\p{L}$/u.test(char)) return { kind: Kind.Latin, upper, lower };
  return { kind: NEUTRAL.has(char) ? Kind.Neutral : Kind.Unlikely, upper: false, lower: false };
}

const ASCII: ByteClass[] = Array.from({ length: 128 }, (_, b) => {
  const char = String.fromCharCode(b);
  return { kind: Kind.Neutral, upper: /[A-Z]/.test(char), lower: /[a-z]/.test(char) };
});

/** Each page's bytes 0x80–0xFF as iconv-lite decodes them, classified once (ASCII is the same in all three). */
let tables: ByteClass[][] | undefined;

function tablesFrom(decode: Decode): ByteClass[][] {
  if (!tables) {
    const high = Buffer.from(Array.from({ length: 128 }, (_, i) => 0x80 + i));
    tables = TURKISH_CODE_PAGES.map((page) => {
      const chars = [...decode(high, page)];
      if (chars.length !== 128) throw new Error(`iconv-lite decodes ${page.iconvName} unexpectedly`);
      return [...ASCII, ...chars.map(classOf)];
    });
  }
  return tables;
}

interface Score {
  page: CodePage;
  score: number;
  /** Letters that fit: Turkish or Latin, in the case of the word they are in. */
  fitting: number;
  unlikely: number;
}

/** Weights per byte from 0x80: a Turkish letter is worth three other Latin letters; a wrong-looking byte costs much. */
const TURKISH_WEIGHT = 3;
const LATIN_WEIGHT = 1;
const MISCASED_WEIGHT = -2;
const UNLIKELY_WEIGHT = -4;

/**
 * The code page whose reading of `bytes` is clearly Turkish text, with that text; undefined when none is: then the
 * person is asked for UTF-8 rather than shown a guess.
 */
export function chooseCodePage(
  bytes: Uint8Array,
  decode: Decode,
): { page: CodePage; text: string } | undefined {
  const classes = tablesFrom(decode);
  const scores = classes.map((table, p) => scoreIn(bytes, table, TURKISH_CODE_PAGES[p]!));
  const present = highBytesIn(bytes);
  const order = scores.map((_, p) => p).sort((a, b) => scores[b]!.score - scores[a]!.score || a - b);
  const best = scores[order[0]!]!;
  if (best.score < TURKISH_WEIGHT || best.unlikely > best.fitting / 4 + 1) return undefined;
  for (const p of order.slice(1)) {
    const other = scores[p]!;
    // A page that reads the file's bytes the same way is no rival.
    if (readsAlike(present, decode, best.page, other.page)) continue;
    if (best.score - other.score < Math.max(TURKISH_WEIGHT, best.score / 10)) return undefined;
  }
  return {
    page: best.page,
    text: decode(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), best.page),
  };
}

function scoreIn(bytes: Uint8Array, table: readonly ByteClass[], page: CodePage): Score {
  let score = 0;
  let fitting = 0;
  let unlikely = 0;
  const n = bytes.length;
  for (let i = 0; i < n; i++) {
    const b = bytes[i]!;
    if (b < 0x80) continue;
    const c = table[b]!;
    if (c.kind === Kind.Unlikely) {
      unlikely++;
      score += UNLIKELY_WEIGHT;
    } else if (c.kind !== Kind.Neutral) {
      const before = i > 0 ? table[bytes[i - 1]!]! : undefined;
      const after = i + 1 < n ? table[bytes[i + 1]!]! : undefined;
      if (miscased(c, before, after)) {
        score += MISCASED_WEIGHT;
      } else {
        fitting++;
        score += c.kind === Kind.Turkish ? TURKISH_WEIGHT : LATIN_WEIGHT;
      }
    }
  }
  return { page, score, fitting, unlikely };
}

/**
 * A capital after a small letter, or inside a word in small letters ("AyÜe", "Yİlmaz"); a small letter between
 * capitals ("IşIK"), before a capital ("ìVIP") or standing alone ("5 ñ"): how a wrong code page's letters sit
 * among the right ASCII ones, or where its letters are a right page's quotes and dashes. A capital alone is an
 * initial ("Ş.").
 */
function miscased(c: ByteClass, before: ByteClass | undefined, after: ByteClass | undefined): boolean {
  const letterBefore = before !== undefined && (before.upper || before.lower);
  const letterAfter = after !== undefined && (after.upper || after.lower);
  if (c.upper) return (before?.lower ?? false) || (letterBefore && (after?.lower ?? false));
  if (c.lower) {
    if (after?.upper) return true;
    return (before?.upper && after?.upper) || (!letterBefore && !letterAfter);
  }
  return false;
}

function highBytesIn(bytes: Uint8Array): boolean[] {
  const present: boolean[] = new Array(256).fill(false);
  for (let i = 0; i < bytes.length; i++) present[bytes[i]!] = true;
  return present;
}

/** Whether two pages decode every byte from 0x80 the file holds to the same character. */
function readsAlike(present: readonly boolean[], decode: Decode, pageA: CodePage, pageB: CodePage): boolean {
  const held = present.flatMap((there, b) => (there && b >= 0x80 ? [b] : []));
  const sample = Buffer.from(held);
  return decode(sample, pageA) === decode(sample, pageB);
}
