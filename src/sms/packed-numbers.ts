/** Between two numbers: a character no number has, and one JSON writes as it is (a line feed it escapes). */
const SEPARATOR = ',';

/**
 * A long list of numbers in gateway form (digits, an optional +) kept as one string, a comma between them.
 *
 * A 100,000-row file's numbers cross from the reading thread in this form and stay in it through the draft, its
 * confirmation and the drafts store, until a send reads them: as 100,000 strings on the main thread they were
 * ~4 MB of young objects that every scavenge copied while acks waited, and 100,000 strings for JSON.stringify
 * to write one by one (bench/uploads.ts, 2026-11-27). Made into an array only by `toArray()`.
 */
export class PackedNumbers {
  private constructor(
    /** The numbers, a comma between them ('' for none). */
    readonly joined: string,
    readonly count: number,
  ) {}

  static of(numbers: readonly string[]): PackedNumbers {
    return new PackedNumbers(numbers.join(SEPARATOR), numbers.length);
  }

  /** From `joined` as `of` makes it (a stored draft's, a chunk's from the reading thread), counted if not told. */
  static fromJoined(joined: string, count?: number): PackedNumbers {
    if (joined === '') return new PackedNumbers('', 0);
    if (count !== undefined) return new PackedNumbers(joined, count);
    let numbers = 1;
    for (let at = joined.indexOf(SEPARATOR); at >= 0; at = joined.indexOf(SEPARATOR, at + 1)) numbers++;
    return new PackedNumbers(joined, numbers);
  }

  /** The lists one after another, in order. */
  static concat(parts: readonly PackedNumbers[]): PackedNumbers {
    let joined = '';
    let count = 0;
    for (const part of parts) {
      if (part.count === 0) continue;
      // Put together with +, which V8 does without copying: the parts are copied once, when first scanned.
      joined = count === 0 ? part.joined : joined + SEPARATOR + part.joined;
      count += part.count;
    }
    return new PackedNumbers(joined, count);
  }

  toArray(): string[] {
    return this.count === 0 ? [] : this.joined.split(SEPARATOR);
  }

  first(): string | undefined {
    if (this.count === 0) return undefined;
    const end = this.joined.indexOf(SEPARATOR);
    return end < 0 ? this.joined : this.joined.slice(0, end);
  }

  /** Calls `visit` with where each number starts and ends in `joined`, in order, without making a string of it. */
  forEachSpan(visit: (start: number, end: number) => void): void {
    if (this.count === 0) return;
    const { joined } = this;
    let start = 0;
    for (let end = joined.indexOf(SEPARATOR); end >= 0; end = joined.indexOf(SEPARATOR, start)) {
      visit(start, end);
      start = end + 1;
    }
    visit(start, joined.length);
  }

  /**
   * The numbers for which `keep` holds (given each number's span in `joined`), in order: the runs of kept numbers
   * copied whole, not a string a number (an opt-out or two among 100,000 numbers is two cuts).
   */
  filterSpans(keep: (start: number, end: number) => boolean): PackedNumbers {
    const runs: string[] = [];
    let runStart = 0;
    let removed = 0;
    this.forEachSpan((start, end) => {
      if (keep(start, end)) return;
      removed++;
      if (start > runStart) runs.push(this.joined.slice(runStart, start - 1));
      runStart = end + 1;
    });
    if (removed === 0) return this;
    if (runStart < this.joined.length) runs.push(this.joined.slice(runStart));
    return new PackedNumbers(runs.join(SEPARATOR), this.count - removed);
  }
}

/**
 * Gives `target` a `recipients` list made of `packed` when first read, and kept from then on (a draft, a file's
 * reading: correct wherever they are read, copied or written as JSON). Set to another list, the packed numbers
 * (at `packedKey`) are no longer the target's and go.
 */
export function withRecipientsOf<T extends object>(target: T, packed: PackedNumbers, packedKey: string): T {
  let made: string[] | undefined;
  Object.defineProperty(target, 'recipients', {
    enumerable: true,
    configurable: true,
    get: () => {
      made ??= packed.toArray();
      return made;
    },
    set: (value: string[]) => {
      made = value;
      Reflect.deleteProperty(target, packedKey);
    },
  });
  return target;
}
