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

const TURKISH = 0;
const LATIN = 1;
/** Punctuation a list may hold in any of them: quotes, dashes, €, no-break space. */
const NEUTRAL = 2;
/** Box drawing, controls, undefined bytes, lone accents, symbols: what a wrong code page makes of letters. */
const UNLIKELY = 3;

const UPPER = 1;
const LOWER = 2;

// â, î, û are Turkish too, but rare: they count as other Latin letters, and tell Mac Turkish from 857 better so.
const TURKISH_LETTERS = new Set('çğıöşüÇĞİÖŞÜ');
const NEUTRAL_SIGNS = new Set('\u00a0–—‘’‚“”„…•€°·«»™©®');

function kindOf(char: string): number {
  if (TURKISH_LETTERS.has(char)) return TURKISH;
  if (/^\p{Script=Latin}$/u.test(char) && /^\p{L}$/u.test(char)) return LATIN;
  return NEUTRAL_SIGNS.has(char) ? NEUTRAL : UNLIKELY;
}

function caseOf(char: string, kind: number): number {
  if (kind !== TURKISH && kind !== LATIN && !/^[A-Za-z]$/.test(char)) return 0;
  if (char !== char.toLowerCase()) return UPPER;
  return char !== char.toUpperCase() ? LOWER : 0;
}

/** Each page's 256 bytes as iconv-lite decodes them, classified once: kind and case, page after page. */
interface Tables {
  kinds: Uint8Array;
  cases: Uint8Array;
  /** 1 for ğ and Ğ: no Turkish word begins with it, so one after a blank or a separator is a wrong page's. */
  noWordStart: Uint8Array;
}

let tables: Tables | undefined;

function tablesFrom(decode: Decode): Tables {
  if (!tables) {
    const kinds = new Uint8Array(256 * TURKISH_CODE_PAGES.length);
    const cases = new Uint8Array(256 * TURKISH_CODE_PAGES.length);
    const noWordStart = new Uint8Array(256 * TURKISH_CODE_PAGES.length);
    const all = Buffer.from(Array.from({ length: 256 }, (_, b) => b));
    TURKISH_CODE_PAGES.forEach((page, p) => {
      const chars = [...decode(all, page)];
      if (chars.length !== 256) throw new Error(`iconv-lite decodes ${page.iconvName} unexpectedly`);
      chars.forEach((char, b) => {
        // ASCII is the same in all three, and neutral: only the bytes from 0x80 tell the pages apart.
        const kind = b < 0x80 ? NEUTRAL : kindOf(char);
        kinds[256 * p + b] = kind;
        cases[256 * p + b] = caseOf(char, kind);
        noWordStart[256 * p + b] = char === 'ğ' || char === 'Ğ' ? 1 : 0;
      });
    });
    tables = { kinds, cases, noWordStart };
  }
  return tables;
}

interface Score {
  page: CodePage;
  score: number;
  /** Letters that fit: Turkish or Latin, in the case of the word they are in. */
  fitting: number;
  /** Of those, Turkish letters: a reading with none is no evidence for a Turkish page. */
  turkish: number;
  unlikely: number;
}

/** Weights per byte from 0x80: a Turkish letter is worth three other Latin letters; a wrong-looking byte costs much. */
const TURKISH_WEIGHT = 3;
const LATIN_WEIGHT = 1;
const MISCASED_WEIGHT = -2;
const UNLIKELY_WEIGHT = -4;
/**
 * The bytes from 0x80 weighed, from the start: tens of thousands of letters settle it (a wrong page is wrong on
 * every line), and a 10 MB file of them costs a tenth of a second per page when weighed whole.
 */
const BYTES_WEIGHED = 100_000;

/**
 * The code page whose reading of `bytes` is clearly Turkish text, with that text; undefined when none is: then the
 * person is asked for UTF-8 rather than shown a guess.
 */
export function chooseCodePage(
  bytes: Uint8Array,
  decode: Decode,
): { page: CodePage; text: string } | undefined {
  const scores = TURKISH_CODE_PAGES.map((page, p) => scoreIn(bytes, tablesFrom(decode), p, page));
  const present = highBytesIn(bytes);
  const order = scores.map((_, p) => p).sort((a, b) => scores[b]!.score - scores[a]!.score || a - b);
  const best = scores[order[0]!]!;
  // Without one Turkish letter, the bytes are other Latin letters or punctuation in some page: "ÊËº" (857) is a
  // Mac file's quotes and dash, as "ÒÓĞ" is in 1254; that is no reading to trust.
  if (best.score < TURKISH_WEIGHT || best.turkish === 0 || best.unlikely > best.fitting / 4 + 1)
    return undefined;
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

function scoreIn(bytes: Uint8Array, { kinds, cases, noWordStart }: Tables, p: number, page: CodePage): Score {
  let score = 0;
  let fitting = 0;
  let turkish = 0;
  let unlikely = 0;
  const at = 256 * p;
  const n = bytes.length;
  let seen = 0;
  for (let i = 0; i < n && seen < BYTES_WEIGHED; i++) {
    const b = bytes[i]!;
    if (b < 0x80) continue;
    seen++;
    const kind = kinds[at + b]!;
    if (kind === UNLIKELY) {
      unlikely++;
      score += UNLIKELY_WEIGHT;
    } else if (kind !== NEUTRAL) {
      const before = i > 0 ? cases[at + bytes[i - 1]!]! : 0;
      const after = i + 1 < n ? cases[at + bytes[i + 1]!]! : 0;
      if (miscased(cases[at + b]!, before, after) || (before === 0 && noWordStart[at + b] === 1)) {
        score += MISCASED_WEIGHT;
      } else {
        fitting++;
        if (kind === TURKISH) turkish++;
        score += kind === TURKISH ? TURKISH_WEIGHT : LATIN_WEIGHT;
      }
    }
  }
  return { page, score, fitting, turkish, unlikely };
}

/**
 * A capital after a small letter, or inside a word in small letters ("AyÜe", "Yİlmaz"); a small letter between
 * capitals ("IşIK"), before a capital ("ìVIP") or standing alone ("5 ñ"): how a wrong code page's letters sit
 * among the right ASCII ones, or where its letters are a right page's quotes and dashes. A capital alone is an
 * initial ("Ş."). Cases are UPPER, LOWER or 0 for what is not a letter.
 */
function miscased(letter: number, before: number, after: number): boolean {
  if (letter === UPPER) return before === LOWER || (before !== 0 && after === LOWER);
  if (letter === LOWER)
    return after === UPPER || (before === UPPER && after === UPPER) || (before === 0 && after === 0);
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
