import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NumberSet } from '../../src/sms/number-set.js';
import { PackedNumbers, withRecipientsOf } from '../../src/sms/packed-numbers.js';

// Numbers as gateway form has them (digits, some with a +), short and odd ones too: the set's fast path keys
// on the last four digits.
const number = fc.oneof(
  fc.stringMatching(/^905\d{9}$/),
  fc.stringMatching(/^\+?\d{1,15}$/),
  fc.constantFrom('905321234567', '905331234567', '1234', '+1'),
);

describe('numbers kept packed', () => {
  it('are the same list when made into an array again, alone or put end to end', () => {
    fc.assert(
      fc.property(fc.array(fc.array(number, { maxLength: 30 }), { maxLength: 5 }), (lists) => {
        const parts = lists.map((list) => PackedNumbers.of(list));
        for (const [i, part] of parts.entries()) {
          expect(part.toArray()).toEqual(lists[i]);
          expect(part.count).toBe(lists[i]!.length);
          expect(part.first()).toBe(lists[i]![0]);
          expect(PackedNumbers.fromJoined(part.joined).toArray()).toEqual(lists[i]);
        }
        const all = PackedNumbers.concat(parts);
        expect(all.toArray()).toEqual(lists.flat());
        expect(all.count).toBe(lists.flat().length);
      }),
    );
  });

  it('are found among and taken out of by a set of numbers as the same numbers listed are', () => {
    fc.assert(
      fc.property(
        fc.array(number, { maxLength: 60 }),
        fc.array(number, { maxLength: 10 }),
        (list, members) => {
          // Members from the list too, so that some are found.
          const set = new NumberSet([...members, ...list.filter((_, i) => i % 5 === 0)]);
          const packed = PackedNumbers.of(list);
          expect(set.foundInPacked(packed)).toEqual(set.foundIn(list));
          const kept = set.withoutPacked(packed);
          expect(kept.toArray()).toEqual(set.without(list));
          expect(kept.count).toBe(set.without(list).length);
        },
      ),
    );
  });

  it('give a list its recipients when first read, the same list after, and go when another list is set', () => {
    const packed = PackedNumbers.of(['905321234567', '905331234567']);
    const draft = withRecipientsOf(
      { packed } as { packed?: PackedNumbers; recipients: string[] },
      packed,
      'packed',
    );
    expect(JSON.parse(JSON.stringify(draft)).recipients).toEqual(['905321234567', '905331234567']);
    expect(draft.recipients).toBe(draft.recipients);
    draft.recipients = ['905341234567'];
    expect(draft.recipients).toEqual(['905341234567']);
    expect(draft.packed).toBeUndefined();
  });
});
