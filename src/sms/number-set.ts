import type { PackedNumbers } from './packed-numbers.js';

/**
 * A set of numbers (gateway form) asked about every number of a send: 100,000 lookups, nearly all of them
 * misses. A Set lookup must first hash the number asked, made just before and never hashed yet; a table of the
 * members' last four digits turns most misses away with four character reads (100,000 numbers against 1,000
 * members: ~3 against ~10 ms). Text that does not end in four digits is looked up in the Set.
 */
export class NumberSet {
  private readonly members: Set<string>;
  private readonly endings = new Uint8Array(10_000);
  private oddEndings = false;

  constructor(members: Iterable<string>) {
    this.members = new Set(members);
    for (const number of this.members) {
      const ending = lastFourDigits(number);
      if (ending < 0) this.oddEndings = true;
      else this.endings[ending] = 1;
    }
  }

  get size(): number {
    return this.members.size;
  }

  has(number: string): boolean {
    const ending = lastFourDigits(number);
    if (ending >= 0 ? this.endings[ending] === 0 : !this.oddEndings) return false;
    return this.members.has(number);
  }

  /**
   * The numbers of `list` that are not members, in order: sized once and cut to length (Array#filter grows its
   * result through a dozen ever larger copies, twice the time for 100,000 numbers).
   */
  without(list: readonly string[]): string[] {
    const kept: string[] = new Array(list.length);
    let count = 0;
    for (let i = 0; i < list.length; i++) if (!this.has(list[i]!)) kept[count++] = list[i]!;
    kept.length = count;
    return kept;
  }

  /** Whether the number at `start`..`end` of `text` is a member: a string made of it only when its ending is. */
  private hasSpan(text: string, start: number, end: number): boolean {
    const ending = lastFourDigits(text, start, end);
    if (ending >= 0 ? this.endings[ending] === 0 : !this.oddEndings) return false;
    return this.members.has(text.slice(start, end));
  }

  /** The numbers of a packed list that are members, each once. */
  foundInPacked(asked: PackedNumbers): Set<string> {
    const found = new Set<string>();
    if (this.members.size === 0) return found;
    const { joined } = asked;
    asked.forEachSpan((start, end) => {
      if (this.hasSpan(joined, start, end)) found.add(joined.slice(start, end));
    });
    return found;
  }

  /** The numbers of a packed list that are not members, in order, packed. */
  withoutPacked(list: PackedNumbers): PackedNumbers {
    if (this.members.size === 0) return list;
    const { joined } = list;
    return list.filterSpans((start, end) => !this.hasSpan(joined, start, end));
  }

  /** The numbers of `asked` that are members, each once. */
  foundIn(asked: readonly string[]): Set<string> {
    const found = new Set<string>();
    if (this.members.size === 0) return found;
    for (let i = 0; i < asked.length; i++) if (this.has(asked[i]!)) found.add(asked[i]!);
    return found;
  }
}

/** The number its last four characters make, or -1 when they are not four digits. */
function lastFourDigits(text: string, start = 0, n = text.length): number {
  if (n - start < 4) return -1;
  let value = 0;
  for (let i = n - 4; i < n; i++) {
    const digit = text.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}
