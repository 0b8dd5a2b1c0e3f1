import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  analyzeText,
  autoSegments,
  autoSegmentsOfCounted,
  countPiece,
  NEEDS_TEXT,
  type SmsEncoding,
  segmentsIn,
  segmentsOfCounted,
  unsendableCharacters,
} from '../../src/sms/encoding.js';

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

  // A personalised message is the template's text and a row's values: septets counted piece by piece.
  const pieces = fc.array(
    text.map((t) => t.slice(0, 80)),
    { minLength: 1, maxLength: 5 },
  );
  const counted = (parts: readonly string[]) => {
    const out = new Int32Array(4);
    let gsm = 0;
    let turkish = 0;
    let sendable = true;
    let surrogates = false;
    for (const part of parts) {
      countPiece(part, out);
      gsm = gsm < 0 || out[0]! < 0 ? -1 : gsm + out[0]!;
      turkish = turkish < 0 || out[1]! < 0 ? -1 : turkish + out[1]!;
      if (out[2] === 0) sendable = false;
      if (out[3] === 1) surrogates = true;
    }
    return { gsm, turkish, sendable, surrogates };
  };

  it('counts a message from its pieces as segmentsIn and autoSegments count it whole', () => {
    fc.assert(
      fc.property(
        pieces,
        fc.constantFrom<SmsEncoding>('GSM7', 'TurkishSingleShift', 'UCS2'),
        (parts, encoding) => {
          const message = parts.join('');
          const { gsm, turkish, surrogates } = counted(parts);
          const units = parts.reduce((n, p) => n + p.length, 0);
          // From the counts alone, or NEEDS_TEXT: never a different answer than the pass over the text.
          const fromCounts = segmentsOfCounted(encoding, gsm, turkish, units, surrogates);
          if (fromCounts !== NEEDS_TEXT) expect(fromCounts).toBe(segmentsIn(message, encoding));
          const auto = autoSegmentsOfCounted(gsm, turkish, units, surrogates);
          if (auto) expect(auto).toEqual(autoSegments(message));
          // The counts settle every message that fits one SMS.
          const oneSms = units <= 70 || (gsm >= 0 && gsm <= 160) || (turkish >= 0 && turkish <= 155);
          if (oneSms) expect(auto).toBeDefined();
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it('counts long UCS-2 text without a surrogate from its length alone', () => {
    const { gsm, turkish, surrogates } = counted(['Привет ', 'ж'.repeat(193)]);
    expect(autoSegmentsOfCounted(gsm, turkish, 200, surrogates)).toEqual({ encoding: 'UCS2', segments: 3 });
    expect(autoSegments(`Привет ${'ж'.repeat(193)}`)).toEqual({ encoding: 'UCS2', segments: 3 });
  });

  it('says a piece is sendable only when it has no character unsendableCharacters would name', () => {
    fc.assert(
      fc.property(text, (t) => {
        expect(counted([t]).sendable).toBe(unsendableCharacters(t).length === 0);
      }),
      { numRuns: 2_000 },
    );
  });
});
