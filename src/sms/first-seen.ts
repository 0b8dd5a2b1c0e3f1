/**
 * The first line each number was seen on, for deduplicating 100,000 recipients. A Map of 100,000 strings is
 * a large, growing object the garbage collector walks and copies on every young collection while a send is
 * read (about a third of compose time measured); numbers in gateway form are digits of at most 15, exact as
 * doubles, so they are kept as numbers in a typed array (open addressing) that the collector never scans.
 * Anything that is not such a number goes to an ordinary Map.
 */
export class FirstSeen {
  /**
   * Each slot is a number and the line it was first seen on, side by side: a lookup lands at a random place in a
   * table of megabytes, and one cache miss then brings both (two arrays cost two, measured ~30% slower).
   */
  private slots: Float64Array;
  private mask: number;
  private count = 0;
  private readonly others = new Map<string, number>();

  constructor(expected: number) {
    let capacity = 16;
    while (capacity < expected * 2) capacity *= 2;
    this.slots = new Float64Array(capacity * 2);
    this.mask = capacity - 1;
  }

  /** The line `msisdn` was first seen on; undefined when it is new, and then `line` is kept as its first. */
  firstOrAdd(msisdn: string, line: number): number | undefined {
    // A positive number of 1 to 15 digits without a leading zero (which a number would lose), else the Map.
    const n = msisdn.length;
    if (n === 0 || n > 15 || msisdn.charCodeAt(0) === 48) return this.other(msisdn, line);
    let key = 0;
    // The number's low 32 bits, kept in integer arithmetic alongside: the hash needs no division of a double.
    let low = 0;
    for (let i = 0; i < n; i++) {
      const digit = msisdn.charCodeAt(i) - 48;
      if (digit < 0 || digit > 9) return this.other(msisdn, line);
      key = key * 10 + digit;
      low = (Math.imul(low, 10) + digit) | 0;
    }
    const slots = this.slots;
    const mask = this.mask;
    let slot = hash(key, low) & mask;
    for (;;) {
      const at = slots[slot * 2]!;
      if (at === 0) break;
      if (at === key) return slots[slot * 2 + 1];
      slot = (slot + 1) & mask;
    }
    slots[slot * 2] = key;
    slots[slot * 2 + 1] = line;
    if (++this.count * 2 > mask) this.grow();
    return undefined;
  }

  private other(msisdn: string, line: number): number | undefined {
    const first = this.others.get(msisdn);
    if (first === undefined) this.others.set(msisdn, line);
    return first;
  }

  private grow(): void {
    const old = this.slots;
    const slots = new Float64Array(old.length * 2);
    const mask = old.length - 1;
    for (let i = 0; i < old.length; i += 2) {
      const key = old[i]!;
      if (key === 0) continue;
      let slot = hash(key, lowBits(key)) & mask;
      while (slots[slot * 2] !== 0) slot = (slot + 1) & mask;
      slots[slot * 2] = key;
      slots[slot * 2 + 1] = old[i + 1]!;
    }
    this.slots = slots;
    this.mask = mask;
  }
}

/** The low 32 bits of a whole number below 2^53, as firstOrAdd computes them digit by digit. */
function lowBits(key: number): number {
  return (key % 0x100000000) | 0;
}

/**
 * The slot of a number from both its halves: its low 32 bits (`low`, as computed) and the rest, exact since the
 * number is whole and below 2^53. The low bits alone put numbers 2^32 apart in one chain: a file made of them
 * would take quadratic time.
 */
function hash(key: number, low: number): number {
  const high = (key - (low >>> 0)) / 0x100000000;
  const h = Math.imul((low ^ Math.imul(high, 0x85ebca6b)) >>> 0, 0x9e3779b1);
  return (h ^ (h >>> 15)) >>> 0;
}
