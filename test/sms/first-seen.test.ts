import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FirstSeen } from '../../src/sms/first-seen.js';

// Gateway-form numbers (digits, country code first) and what else a caller might hand it.
const msisdn = fc.oneof(
  fc.integer({ min: 0, max: 999 }).map((n) => `90532${String(n).padStart(7, '0')}`),
  fc.bigInt({ min: 1n, max: 999_999_999_999_999n }).map(String),
  // Numbers alike in their low 32 bits, 2^32 apart.
  fc.integer({ min: 0, max: 200_000 }).map((k) => String(100_000 + k * 2 ** 32)),
  fc.constantFrom('', '0', '0532', '1234567890123456', '90532x', '９０５３２'),
);

describe('FirstSeen', () => {
  it('answers as a Map of first lines would, past the size it expected', () => {
    fc.assert(
      fc.property(
        fc.array(msisdn, { maxLength: 300 }),
        fc.integer({ min: 0, max: 50 }),
        (numbers, expected) => {
          const seen = new FirstSeen(expected);
          const map = new Map<string, number>();
          numbers.forEach((n, line) => {
            const first = map.get(n);
            if (first === undefined) map.set(n, line);
            expect(seen.firstOrAdd(n, line)).toBe(first);
          });
        },
      ),
      { numRuns: 500 },
    );
  });

  it('tells 100,000 numbers apart and finds each repeat’s first line', () => {
    const seen = new FirstSeen(1_000);
    for (let i = 0; i < 100_000; i++) expect(seen.firstOrAdd(`90532${1_000_000 + i}`, i + 2)).toBeUndefined();
    expect(seen.firstOrAdd('905321000000', 1)).toBe(2);
    expect(seen.firstOrAdd('905321099999', 1)).toBe(100_001);
  });
});
