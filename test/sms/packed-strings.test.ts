import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PackedStrings, PackedStringsBuilder } from '../../src/sms/packed-strings.js';

// Values as cells hold them: Turkish letters, emoji (two code units), empty ones, and absent ones (a line with
// no message has no values).
const value = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom('Ayşe Çağrı', 'İĞÜŞÖÇ', '👍🏽 tamam', '', '#100947'),
  fc.constant(undefined),
);
const list = fc.array(value, { maxLength: 40 });
const unpacked = (packed: PackedStrings) => {
  const items: unknown[] = [];
  packed.unpackInto(items);
  return items;
};

describe('strings kept packed', () => {
  it('give each item back as it was, by index, all at once or a slice at a time', () => {
    fc.assert(
      fc.property(list, fc.integer({ min: 1, max: 7 }), (items, slice) => {
        const packed = PackedStrings.of(items);
        expect(packed.length).toBe(items.length);
        for (let i = 0; i < items.length; i++) expect(packed.at(i)).toBe(items[i]);
        expect(packed.at(items.length)).toBeUndefined();
        expect(unpacked(packed)).toEqual(items);
        const sliced: unknown[] = [];
        for (let from = 0; from < items.length; from += slice) {
          packed.unpackInto(sliced, from, Math.min(items.length, from + slice));
        }
        expect(sliced).toEqual(items);
      }),
    );
  });

  it('are the same list built item by item as packed whole, whatever order the items come in', () => {
    fc.assert(
      fc.property(list, fc.boolean(), fc.integer({ min: 0, max: 1000 }), (items, shuffled, seed) => {
        const given = items.flatMap((item, index) => (item === undefined ? [] : [{ index, item }]));
        // In index order as a table's rows come; or shuffled, as a malformed file's rows might.
        if (shuffled) given.sort((a, b) => ((a.index * 7919 + seed) % 101) - ((b.index * 7919 + seed) % 101));
        const builder = new PackedStringsBuilder(items.length);
        for (const { index, item } of given) builder.set(index, item);
        const built = builder.done();
        expect(unpacked(built)).toEqual(items);
        expect(unpacked(PackedStrings.from(structuredClone(built)))).toEqual(items);
        expect(built.toJSON()).toEqual(PackedStrings.of(items).toJSON());
      }),
    );
    expect(() => new PackedStringsBuilder(2).set(2, 'x')).toThrow(RangeError);
  });

  it('are the same list after crossing between threads (copied, class lost)', () => {
    fc.assert(
      fc.property(list, (items) => {
        expect(unpacked(PackedStrings.from(structuredClone(PackedStrings.of(items))))).toEqual(items);
      }),
    );
  });

  it('gather the groups asked for, in order, as the same items picked one by one', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 3 }),
        fc.integer({ min: 0, max: 15 }),
        fc.array(fc.boolean(), { maxLength: 15 }),
        (size, groupCount, kept) => {
          const items = Array.from({ length: groupCount * size }, (_, i) =>
            i % 4 === 3 ? undefined : `değer ${i}`,
          );
          // Groups in order with gaps (rows left out), as a draft's lines are.
          const groups = Int32Array.from(
            Array.from({ length: groupCount }, (_, g) => g).filter((g) => kept[g] ?? true),
          );
          const picked = [...groups].flatMap((g) => items.slice(g * size, g * size + size));
          const gathered = PackedStrings.of(items).gather(groups, size);
          expect(unpacked(gathered)).toEqual(picked);
          expect(gathered.length).toBe(groups.length * size);
        },
      ),
    );
  });

  it('are the same list after JSON, short or long values, and a damaged JSON form gives nothing', () => {
    const long = fc.oneof(value, fc.constantFrom('a'.repeat(300), 'ş'.repeat(70_000)));
    fc.assert(
      fc.property(fc.array(long, { maxLength: 20 }), (items) => {
        const json = JSON.parse(JSON.stringify({ values: PackedStrings.of(items) })).values;
        const back = PackedStrings.fromJSON(json);
        expect(back && unpacked(back)).toEqual(items);
        if (json.text.length > 0) {
          // A text cut short, or one character too many: the lengths no longer add up to it.
          expect(PackedStrings.fromJSON({ ...json, text: json.text.slice(0, -1) })).toBeUndefined();
          expect(PackedStrings.fromJSON({ ...json, text: `${json.text}x` })).toBeUndefined();
        }
      }),
    );
    const two = JSON.parse(JSON.stringify(PackedStrings.of(['a', 'bc'])));
    expect(two.width).toBe(1);
    // Its two bytes read as one length of two bytes: 770 - 1 characters, in a text of 3.
    expect(PackedStrings.fromJSON({ ...two, width: 2 })).toBeUndefined();
    expect(PackedStrings.fromJSON({ ...two, width: 3 })).toBeUndefined();
    expect(PackedStrings.fromJSON(['a', 'b'])).toBeUndefined();
    expect(PackedStrings.fromJSON(null)).toBeUndefined();
  });
});
