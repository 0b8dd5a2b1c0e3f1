import { withoutInvisibleMarks } from './number-text.js';
import { type CountryCode, msisdnOf, type NormalisedNumber, normaliseNumber } from './numbers.js';

export interface Recipient {
  msisdn: string;
  /** The text the number was read from, as typed. */
  input: string;
  /** 1-based line of the first occurrence. */
  line: number;
}

export interface InvalidRecipient {
  input: string;
  line: number;
  reason: string;
}

export interface DuplicateRecipient {
  msisdn: string;
  /** Every line the number was found on, first included; repeated if it appears twice on a line. */
  lines: number[];
}

export interface ParsedRecipients {
  /** Unique numbers in the order they were first found. */
  recipients: Recipient[];
  invalid: InvalidRecipient[];
  duplicates: DuplicateRecipient[];
  /** More unique recipients than `opts.max`. Nothing is dropped: the caller decides. */
  tooMany: boolean;
}

interface Token {
  text: string;
  start: number;
  end: number;
  digits: number;
}

// Commas, semicolons and tabs never occur inside a number; blanks do (`+90 532 123 45 67`).
const HARD_SEPARATOR = /[,;\t]/;
// A group of blank-separated pieces forming one number: `+90 532 123 45 67` is five pieces.
const MAX_PIECES_PER_NUMBER = 8;
const MAX_DIGITS_PER_NUMBER = 17;
// A piece with this many digits is a whole number by itself, however mistyped.
const WHOLE_NUMBER_DIGITS = 7;

/**
 * Reads recipients typed one per line or separated by commas, semicolons, tabs or blanks.
 * A blank only separates numbers when the pieces it separates make valid numbers, so
 * `+90 532 123 45 67` stays one number while `05321234567 05327654321` is two.
 */
export function parseRecipients(
  text: string,
  defaultCountry: CountryCode,
  opts: { max?: number } = {},
): ParsedRecipients {
  const numbers = new NumberReader(defaultCountry);

  const recipients: Recipient[] = [];
  const invalid: InvalidRecipient[] = [];
  const linesByNumber = new Map<string, number[]>();

  // Without the invisible marks a phone or WhatsApp puts around a copied number: they are not part of it, and a
  // right-to-left override echoed back in a list of bad numbers would turn the text around it.
  const lines = withoutInvisibleMarks(String(text)).split(/\r\n|\r|\n/);
  lines.forEach((lineText, index) => {
    const line = index + 1;
    const chunks = HARD_SEPARATOR.test(lineText) ? lineText.split(HARD_SEPARATOR) : [lineText];
    for (const chunk of chunks) {
      for (const found of readChunk(chunk, numbers)) {
        if (!found.result.ok) {
          invalid.push({ input: found.input, line, reason: found.result.reason });
          continue;
        }
        const { msisdn } = found.result;
        const seen = linesByNumber.get(msisdn);
        if (seen) {
          seen.push(line);
        } else {
          linesByNumber.set(msisdn, [line]);
          recipients.push({ msisdn, input: found.input, line });
        }
      }
    }
  });

  const duplicates: DuplicateRecipient[] = [];
  for (const [msisdn, seenOn] of linesByNumber) {
    if (seenOn.length > 1) duplicates.push({ msisdn, lines: seenOn });
  }
  const tooMany = opts.max !== undefined && recipients.length > opts.max;
  return { recipients, invalid, duplicates, tooMany };
}

interface Found {
  input: string;
  result: NormalisedNumber;
}

// Parsing dominates the cost of a long list, and working out why a number fails costs several
// more parses: try each text once, and explain only the failures that get reported.
class NumberReader {
  private readonly seen = new Map<string, string | undefined>();

  constructor(private readonly country: CountryCode) {}

  // Failures are always remembered: explain() asks again. Successes in the common one-number
  // chunk are not, to keep a 10,000-line list from filling the map.
  msisdn(input: string, rememberSuccess = true): string | undefined {
    if (this.seen.has(input)) return this.seen.get(input);
    const msisdn = msisdnOf(input, this.country);
    if (rememberSuccess || msisdn === undefined) this.seen.set(input, msisdn);
    return msisdn;
  }

  explain(input: string): NormalisedNumber {
    const msisdn = this.msisdn(input);
    return msisdn === undefined ? normaliseNumber(input, this.country) : { ok: true, msisdn };
  }
}

function readChunk(chunk: string, numbers: NumberReader): Found[] {
  const whole = chunk.trim();
  if (whole === '') return [];
  // The usual case, one number per chunk, without paying for tokens or the cache.
  const msisdn = numbers.msisdn(whole, false);
  if (msisdn !== undefined) return [{ input: whole, result: { ok: true, msisdn } }];
  const tokens = tokenize(chunk);
  if (tokens.length <= 1) return [{ input: whole, result: numbers.explain(whole) }];

  const groups = splitIntoNumbers(chunk, tokens, numbers);
  if (groups) return groups;

  // Every piece looks like a number of its own: report each, so one typo does not hide the rest.
  if (tokens.every((t) => t.digits >= WHOLE_NUMBER_DIGITS)) {
    return tokens.map((t) => ({ input: t.text, result: numbers.explain(t.text) }));
  }
  return [{ input: whole, result: numbers.explain(whole) }];
}

function tokenize(chunk: string): Token[] {
  const tokens: Token[] = [];
  for (const match of chunk.matchAll(/\S+/gu)) {
    const start = match.index;
    const text = match[0];
    tokens.push({ text, start, end: start + text.length, digits: countDigits(text) });
  }
  return tokens;
}

function countDigits(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) n += 1;
    // Digits of other scripts count too; the plain loop is for the 10,000-line lists.
    else if (c > 127) return text.match(/\p{Nd}/gu)?.length ?? 0;
  }
  return n;
}

/**
 * Fewest consecutive groups of pieces that are each a valid number, or null when there is no
 * such split. Dynamic programming from the end; each group is bounded, so this stays linear.
 */
function splitIntoNumbers(chunk: string, tokens: readonly Token[], numbers: NumberReader): Found[] | null {
  const n = tokens.length;
  const best: (number | undefined)[] = new Array(n + 1);
  const next: number[] = new Array(n + 1);
  const found: (Found | undefined)[] = new Array(n);
  best[n] = 0;
  for (let i = n - 1; i >= 0; i -= 1) {
    let digits = 0;
    for (let j = i + 1; j <= n && j - i <= MAX_PIECES_PER_NUMBER; j += 1) {
      digits += tokens[j - 1]!.digits;
      if (digits > MAX_DIGITS_PER_NUMBER) break;
      const rest = best[j];
      if (rest === undefined) continue;
      const current = best[i];
      if (current !== undefined && current <= rest + 1) continue;
      const input = chunk.slice(tokens[i]!.start, tokens[j - 1]!.end);
      const msisdn = numbers.msisdn(input);
      if (msisdn === undefined) continue;
      best[i] = rest + 1;
      next[i] = j;
      found[i] = { input, result: { ok: true, msisdn } };
    }
  }
  if (best[0] === undefined) return null;
  const groups: Found[] = [];
  for (let i = 0; i < n; i = next[i]!) groups.push(found[i]!);
  return groups;
}
