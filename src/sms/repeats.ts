/**
 * The repeats in a list of numbers (gateway form), for turning a number's second row away with the line of its
 * first: given the whole list at once, the numbers are sorted as doubles (at most 15 digits, exact) to find the
 * few that repeat, and only those are kept in a Map as they are asked. A sort runs through memory in order, where
 * a hash table of 100,000 numbers costs a cache miss a number (in a compose pass, 100,000 numbers: ~8 against
 * ~18 ms in list order, ~17 against ~26 in random order). What is not such a number goes to the Map as text.
 */
export class Repeats {
  private readonly keys: Float64Array;
  private readonly repeated = new Set<number>();
  private readonly firstLines = new Map<number | string, number>();

  /** `numbers[i]` is asked as index i; undefined stands for a row without a number, never asked. */
  constructor(private readonly numbers: readonly (string | undefined)[]) {
    const keys = new Float64Array(numbers.length);
    for (let i = 0; i < numbers.length; i++) {
      const number = numbers[i];
      keys[i] = number === undefined ? NO_NUMBER : keyOf(number);
    }
    this.keys = keys;
    const sorted = keys.slice().sort();
    for (let i = 1; i < sorted.length; i++) {
      const key = sorted[i]!;
      if (key >= 0 && key === sorted[i - 1]) this.repeated.add(key);
    }
  }

  /**
   * For the number at `index`, asked in list order: the line it was first asked with, or undefined the first
   * time, and then `line` is kept as its first.
   */
  firstOrAdd(index: number, line: number): number | undefined {
    const key = this.keys[index]!;
    if (key === TEXT) return this.firstOf(this.numbers[index]!, line);
    if (this.repeated.size === 0 || !this.repeated.has(key)) return undefined;
    return this.firstOf(key, line);
  }

  /** Whether the number at `index`, asked in list order, was asked before. */
  askedBefore(index: number): boolean {
    return this.firstOrAdd(index, index) !== undefined;
  }

  /** Whether any number may repeat: false when every number is unique (and a list can be taken as it is). */
  get any(): boolean {
    return this.repeated.size > 0 || this.keys.includes(TEXT);
  }

  private firstOf(key: number | string, line: number): number | undefined {
    const first = this.firstLines.get(key);
    if (first === undefined) this.firstLines.set(key, line);
    return first;
  }
}

const TEXT = -1;
const NO_NUMBER = -2;

/** The number as a double: 1 to 15 digits without a leading zero (which a double would lose), else TEXT. */
function keyOf(number: string): number {
  const n = number.length;
  if (n === 0 || n > 15 || number.charCodeAt(0) === 48) return TEXT;
  let key = 0;
  for (let i = 0; i < n; i++) {
    const digit = number.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return TEXT;
    key = key * 10 + digit;
  }
  return key;
}
