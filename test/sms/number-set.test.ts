import { describe, expect, it } from 'vitest';
import { NumberSet } from '../../src/sms/number-set.js';

/** What foundIn must answer, the plain way. */
function naive(asked: readonly string[], list: readonly string[]): Set<string> {
  const listed = new Set(list);
  return new Set(asked.filter((n) => listed.has(n)));
}

describe('NumberSet (the opt-out check of a long send against the list)', () => {
  it('finds exactly the listed numbers, whatever their last characters are', () => {
    // Seeded, so that a failure can be run again.
    let seed = 7;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const shapes = [
      () => `90532${String(Math.floor(random() * 10_000_000)).padStart(7, '0')}`,
      () => String(Math.floor(random() * 1_000)),
      () => `+90532${Math.floor(random() * 100)}`,
      () => `90532${Math.floor(random() * 100)}/${Math.floor(random() * 10)}`,
      () => `0532 ${Math.floor(random() * 100)} a`,
    ];
    const one = () => shapes[Math.floor(random() * shapes.length)]!();
    for (let round = 0; round < 200; round++) {
      const list = Array.from({ length: Math.floor(random() * 50) }, one);
      const asked = [...Array.from({ length: 300 }, one), ...list.filter(() => random() < 0.5)];
      const set = new NumberSet(list);
      expect(set.foundIn(asked)).toEqual(naive(asked, list));
      // What a send keeps: every number not listed, repeats and order as asked.
      expect(set.without(asked)).toEqual(asked.filter((n) => !list.includes(n)));
      for (const number of asked) expect(set.has(number)).toBe(list.includes(number));
    }
  });

  it('tells numbers apart that share their last four digits, or differ only by a character that is not a digit', () => {
    const list = ['905321111234', '1/00', '12'];
    const asked = ['905329991234', '905321111234', '1/00', '1000', '0900', '12', '120'];
    expect(new NumberSet(list).foundIn(asked)).toEqual(new Set(['905321111234', '1/00', '12']));
    expect(new NumberSet([]).foundIn(asked)).toEqual(new Set());
    expect(new NumberSet(list).size).toBe(3);
  });
});
