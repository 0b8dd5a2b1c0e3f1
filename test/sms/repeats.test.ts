import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Repeats } from '../../src/sms/repeats.js';

// Gateway-form numbers (digits, country code first), what else a caller might hand it, and rows without one.
const msisdn = fc.oneof(
  fc.integer({ min: 0, max: 999 }).map((n) => `90532${String(n).padStart(7, '0')}`),
  fc.bigInt({ min: 1n, max: 999_999_999_999_999n }).map(String),
  // Numbers alike in their low 32 bits, 2^32 apart, and next to the largest exact double.
  fc.integer({ min: 0, max: 200_000 }).map((k) => String(100_000 + k * 2 ** 32)),
  fc.constantFrom('999999999999999', '999999999999998', '9007199254740993'),
  fc.constantFrom('', '0', '0532', '1234567890123456', '90532x', '９０５３２'),
  fc.constant(undefined),
);

describe('Repeats', () => {
  it('answers as a Map of first lines would, asked in order, some rows skipped', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(msisdn, fc.boolean()), { maxLength: 300 }), (entries) => {
        const numbers = entries.map(([n]) => n);
        const repeats = new Repeats(numbers);
        const map = new Map<string, number>();
        let any = false;
        entries.forEach(([n, asked], index) => {
          // A row without a number is never asked; a row with one may be left out (a caller's own reason).
          if (n === undefined || !asked) return;
          const line = index + 2;
          const first = map.get(n);
          if (first === undefined) map.set(n, line);
          else any = true;
          expect(repeats.firstOrAdd(index, line)).toBe(first);
        });
        if (any) expect(repeats.any).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('tells 100,000 numbers apart, says none repeats, and finds each repeat’s first line', () => {
    const numbers = Array.from({ length: 100_000 }, (_, i) => `90532${1_000_000 + i}`);
    const unique = new Repeats(numbers);
    expect(unique.any).toBe(false);
    expect(numbers.map((_, i) => unique.firstOrAdd(i, i + 2)).filter((f) => f !== undefined)).toEqual([]);

    const withRepeats = new Repeats([...numbers, '905321000000', '905321099999']);
    expect(withRepeats.any).toBe(true);
    expect(numbers.map((_, i) => withRepeats.firstOrAdd(i, i + 2)).filter((f) => f !== undefined)).toEqual(
      [],
    );
    expect(withRepeats.firstOrAdd(100_000, 1)).toBe(2);
    expect(withRepeats.askedBefore(100_001)).toBe(true);
  });
});
