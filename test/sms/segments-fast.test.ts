import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyzeText, autoSegments, type SmsEncoding, segmentsIn } from '../../src/sms/encoding.js';

// Characters from every table: basic, extension, Turkish shift, beyond them, astral, and a lone surrogate.
const CHARS = [
  'a',
  'Z',
  ' ',
  '@',
  '\n',
  '{',
  '€',
  '^',
  'ş',
  'İ',
  'ğ',
  'ç',
  'Ç',
  'é',
  'ж',
  '中',
  '😀',
  '\uD800',
];
const text = fc.array(fc.constantFrom(...CHARS), { maxLength: 400 }).map((a) => a.join(''));

describe('the allocation-free segment count used for bulk sends', () => {
  it('gives analyzeText’s segments in each encoding, and -1 where the encoding cannot carry the text', () => {
    fc.assert(
      fc.property(text, fc.constantFrom<SmsEncoding>('GSM7', 'TurkishSingleShift', 'UCS2'), (t, encoding) => {
        const full = analyzeText(t, { encoding });
        expect(segmentsIn(t, encoding)).toBe(full.unrepresentable.length > 0 ? -1 : full.segments);
      }),
      { numRuns: 2_000 },
    );
  });

  it('chooses the encoding and segments analyzeText chooses automatically', () => {
    fc.assert(
      fc.property(text, (t) => {
        const full = analyzeText(t);
        expect(autoSegments(t)).toEqual({ encoding: full.encoding, segments: full.segments });
      }),
      { numRuns: 2_000 },
    );
  });
});
