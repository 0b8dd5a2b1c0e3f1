/**
 * The first line each number was seen on, for deduplicating 100,000 recipients. A Map of 100,000 strings is
 * a large, growing object the garbage collector walks and copies on every young collection while a send is
 * read (about a third of compose time measured); numbers in gateway form are digits of at most 15, exact as
 * doubles, so they are kept as numbers in typed arrays (open addressing) that the collector never scans.
 * Anything that is not such a number goes to an ordinary Map.
 */
export class FirstSeen {
  private keys: Float64Array;
  private lines: Int32Array;
  private mask: number;
  private count = 0;
  private readonly others = new Map<string, number>();

  constructor(expected: number) {
    let capacity = 16;
    while (capacity < expected * 2) capacity *= 2;
    this.keys = new Float64Array(capacity);
    this.lines = new Int32Array(capacity);
    this.mask = capacity - 1;
  }

  /** The line `msisdn` was first seen on; undefined when it is new, and then `line` is kept as its first. */
  firstOrAdd(msisdn: string, line: number): number | undefined {
    const key = asKey(msisdn);
    if (key === undefined) {
      const first = this.others.get(msisdn);
      if (first === undefined) this.others.set(msisdn, line);
      return first;
    }
    let slot = hash(key) & this.mask;
    for (;;) {
      const at = this.keys[slot]!;
      if (at === 0) break;
      if (at === key) return this.lines[slot];
      slot = (slot + 1) & this.mask;
    }
    this.keys[slot] = key;
    this.lines[slot] = line;
    if (++this.count * 2 > this.mask) this.grow();
    return undefined;
  }

  private grow(): void {
    const { keys, lines } = this;
    this.keys = new Float64Array(keys.length * 2);
    this.lines = new Int32Array(keys.length * 2);
    this.mask = this.keys.length - 1;
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      if (key === 0) continue;
      let slot = hash(key) & this.mask;
      while (this.keys[slot] !== 0) slot = (slot + 1) & this.mask;
      this.keys[slot] = key;
      this.lines[slot] = lines[i]!;
    }
  }
}

/** A positive number of 1 to 15 digits without a leading zero (which a number would lose), else undefined. */
function asKey(msisdn: string): number | undefined {
  const n = msisdn.length;
  if (n === 0 || n > 15 || msisdn.charCodeAt(0) === 48) return undefined;
  let key = 0;
  for (let i = 0; i < n; i++) {
    const digit = msisdn.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return undefined;
    key = key * 10 + digit;
  }
  return key;
}

function hash(key: number): number {
  // The low and high parts of the number mixed (Knuth's multiplicative hash).
  const low = key % 0x100000000;
  const high = (key - low) / 0x100000000;
  return Math.imul((low ^ Math.imul(high, 0x85ebca6b)) >>> 0, 0x9e3779b1) >>> 0;
}
