/** A list of strings read by index, some of them absent: an array, or PackedStrings. */
export interface StringList {
  readonly length: number;
  at(index: number): string | undefined;
}

/** How PackedStrings is written as JSON (a stored draft's values): its text, and its items' lengths in base64. */
interface PackedStringsJson {
  text: string;
  /** Each item's length + 1 (0 for an absent item), `width` bytes each, little-endian, in base64. */
  lengths: string;
  width: 1 | 2 | 4;
}

/**
 * A long list of strings kept as one string and where each item ends in it: `ends[i]` is where item i ends in
 * `text`, or `~start` for an item that is not there (a line with no message has no values).
 *
 * A 100,000-row personalised file's message values cross from the reading thread in this form (two flat buffers
 * to copy) and stay in it through the draft and the drafts store, until a send joins the messages: made into
 * 200,000 strings on the main thread, they held it 20-40 ms a file, one slice at a time, and were 10 MB of old
 * generation for the collector (bench/files.ts, 2026-11-27). An item is made into a string only by `at`.
 */
export class PackedStrings implements StringList {
  private constructor(
    readonly text: string,
    readonly ends: Int32Array,
  ) {}

  static of(items: readonly (string | undefined)[]): PackedStrings {
    const ends = new Int32Array(items.length);
    let at = 0;
    for (let i = 0; i < items.length; i++) {
      const item = items[i];
      if (typeof item === 'string') {
        at += item.length;
        ends[i] = at;
      } else ends[i] = ~at;
    }
    // join() writes undefined and holes as nothing: the text is the strings alone, end to end.
    return new PackedStrings(items.join(''), ends);
  }

  /** The same list from its two parts, as `of` made them (a copy that crossed between threads lost its class). */
  static from(data: { text: string; ends: Int32Array }): PackedStrings {
    return new PackedStrings(data.text, data.ends);
  }

  get length(): number {
    return this.ends.length;
  }

  at(index: number): string | undefined {
    if (index < 0 || index >= this.ends.length) return undefined;
    const end = this.ends[index]!;
    if (end < 0) return undefined;
    return this.text.slice(this.startOf(index), end);
  }

  /** Appends items `from` to `to` (exclusive) to `into`, absent ones as undefined. */
  unpackInto(into: unknown[], from = 0, to = this.ends.length): void {
    let start = this.startOf(from);
    for (let i = from; i < to; i++) {
      const end = this.ends[i]!;
      if (end < 0) {
        into.push(undefined);
        start = ~end;
      } else {
        into.push(this.text.slice(start, end));
        start = end;
      }
    }
  }

  /**
   * The groups of `size` items that start at items `groups[g] * size`, in the order given: a personalised draft's
   * values, `size` a message, for the lines that got one. Runs of groups that follow each other in the list are
   * copied whole, not an item at a time: the rows a file loses to opt-outs and bad numbers are a few cuts.
   */
  gather(groups: Int32Array, size: number): PackedStrings {
    const ends = new Int32Array(groups.length * size);
    if (size === 0) return new PackedStrings('', ends);
    const runs: string[] = [];
    let runFrom = -1;
    let runTo = -1;
    // Where the run being copied starts in `text`, and where it starts in the new text.
    let runTextStart = 0;
    let written = 0;
    let at = 0;
    for (let g = 0; g < groups.length; g++) {
      const first = groups[g]! * size;
      if (first !== runTo) {
        if (runFrom >= 0) {
          const runTextEnd = this.startOf(runTo);
          runs.push(this.text.slice(runTextStart, runTextEnd));
          written += runTextEnd - runTextStart;
        }
        runFrom = first;
        runTextStart = this.startOf(first);
      }
      runTo = first + size;
      const shift = written - runTextStart;
      for (let i = first; i < runTo; i++) {
        const end = this.ends[i]!;
        ends[at++] = end < 0 ? ~(~end + shift) : end + shift;
      }
    }
    if (runFrom >= 0) runs.push(this.text.slice(runTextStart, this.startOf(runTo)));
    return new PackedStrings(runs.join(''), ends);
  }

  /** Where item `index` starts in `text` (for `index` = length, where the text ends). */
  private startOf(index: number): number {
    if (index <= 0) return 0;
    const before = this.ends[index - 1]!;
    return before < 0 ? ~before : before;
  }

  toJSON(): PackedStringsJson {
    // Each item as its length + 1 (0: absent), in the fewest bytes that hold the longest: one byte a value for
    // the names and codes of a list, fewer characters of JSON than the same values as an array of strings.
    const codes = new Uint32Array(this.ends.length);
    let widest = 0;
    let start = 0;
    for (let i = 0; i < this.ends.length; i++) {
      const end = this.ends[i]!;
      if (end < 0) {
        start = ~end;
        continue;
      }
      codes[i] = end - start + 1;
      if (codes[i]! > widest) widest = codes[i]!;
      start = end;
    }
    const width = widest < 0x100 ? 1 : widest < 0x10000 ? 2 : 4;
    const bytes = new Uint8Array(codes.length * width);
    const view = new DataView(bytes.buffer);
    for (let i = 0; i < codes.length; i++) {
      if (width === 1) bytes[i] = codes[i]!;
      else if (width === 2) view.setUint16(i * 2, codes[i]!, true);
      else view.setUint32(i * 4, codes[i]!, true);
    }
    return { text: this.text, lengths: Buffer.from(bytes.buffer).toString('base64'), width };
  }

  /** The list `toJSON` wrote, or undefined when `value` is not one (a damaged stored row). */
  static fromJSON(value: unknown): PackedStrings | undefined {
    if (typeof value !== 'object' || value === null) return undefined;
    const { text, lengths, width } = value as Partial<PackedStringsJson>;
    if (typeof text !== 'string' || typeof lengths !== 'string') return undefined;
    if (width !== 1 && width !== 2 && width !== 4) return undefined;
    const bytes = Buffer.from(lengths, 'base64');
    if (bytes.length % width !== 0) return undefined;
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const ends = new Int32Array(bytes.length / width);
    let start = 0;
    for (let i = 0; i < ends.length; i++) {
      const code =
        width === 1 ? bytes[i]! : width === 2 ? view.getUint16(i * 2, true) : view.getUint32(i * 4, true);
      if (code === 0) ends[i] = ~start;
      else {
        start += code - 1;
        if (start > text.length) return undefined;
        ends[i] = start;
      }
    }
    // The lengths add up to the text, or the row was damaged.
    return start === text.length ? new PackedStrings(text, ends) : undefined;
  }
}

/**
 * Makes a PackedStrings item by item, by index, without a list of every item first: a 100,000-row personalised
 * file's 200,000 values went into an array of 200,000 places, then through `of`'s join, 30 ms of the reading
 * thread's 230 for that file; appended to one string as they come, ~8 ms (bench/files.ts, 2026-11-28). Items
 * come in index order (a table's rows are in line order); one that comes before the last, which a malformed
 * file could cause, turns the builder into a plain list, packed by `of` at the end.
 */
export class PackedStringsBuilder {
  private text = '';
  private at = 0;
  /** The index after the last item appended: every index below it is decided (an item, or absent). */
  private next = 0;
  private readonly ends: Int32Array;
  private listed: (string | undefined)[] | undefined;

  constructor(readonly length: number) {
    this.ends = new Int32Array(length);
  }

  set(index: number, item: string): void {
    if (index < 0 || index >= this.length)
      throw new RangeError(`no item ${index} in a list of ${this.length}`);
    if (this.listed === undefined && index >= this.next) {
      const { ends } = this;
      for (let i = this.next; i < index; i++) ends[i] = ~this.at;
      // Appended, V8 keeps the text as a rope of its pieces, made flat once when it is first read or copied.
      this.text += item;
      this.at += item.length;
      ends[index] = this.at;
      this.next = index + 1;
      return;
    }
    if (this.listed === undefined) {
      this.listed = [];
      PackedStrings.from({ text: this.text, ends: this.ends.subarray(0, this.next) }).unpackInto(this.listed);
      this.listed.length = this.length;
    }
    this.listed[index] = item;
  }

  /** The list: items never set are absent. */
  done(): PackedStrings {
    if (this.listed !== undefined) return PackedStrings.of(this.listed);
    for (let i = this.next; i < this.length; i++) this.ends[i] = ~this.at;
    this.next = this.length;
    return PackedStrings.from({ text: this.text, ends: this.ends });
  }
}
