import fc from 'fast-check';
import { SegmentedMessage } from 'sms-segments-calculator';
import { describe, expect, it } from 'vitest';
import {
  analyzeText,
  dataCodingOf,
  encodingOf,
  type SmsEncoding,
  unsendableCharacters,
} from '../../src/sms/index.js';

const a = (n: number) => 'a'.repeat(n);
// Cyrillic: not in any 7-bit table, one UTF-16 unit each.
const zh = (n: number) => 'ж'.repeat(n);

function summary(text: string, encoding?: SmsEncoding) {
  const r = analyzeText(text, encoding ? { encoding } : {});
  return { encoding: r.encoding, units: r.units, segments: r.segments, perSegment: r.perSegment };
}

describe('GSM 7-bit', () => {
  it.each([
    ['empty', '', 0, 0, 160],
    ['160 characters fit one SMS', a(160), 160, 1, 160],
    ['161 characters need two of 153', a(161), 161, 2, 153],
    ['306 characters fill two exactly', a(306), 306, 2, 153],
    ['307 characters need a third', a(307), 307, 3, 153],
    ['459 characters fill three exactly', a(459), 459, 3, 153],
  ])('%s', (_, text, units, segments, perSegment) => {
    expect(summary(text)).toEqual({ encoding: 'GSM7', units, segments, perSegment });
  });

  it('counts extension characters as two septets', () => {
    for (const ch of ['^', '{', '}', '\\', '[', '~', ']', '|', '€', '\f']) {
      expect(analyzeText(`x${ch}`).units, ch).toBe(3);
    }
    expect(analyzeText('@£$¥èéùìòÇ').units).toBe(10);
  });

  it('fits a Euro sign in the last two septets of a single SMS', () => {
    expect(summary(`${a(158)}€`)).toEqual({ encoding: 'GSM7', units: 160, segments: 1, perSegment: 160 });
    expect(summary(`${a(159)}€`).segments).toBe(2);
  });

  it('moves an escape pair that would straddle a segment boundary whole to the next segment', () => {
    // 152 + 2 + 152 = 306 septets, which would be two segments if the pair could be split.
    const text = `${a(152)}€${a(152)}`;
    expect(analyzeText(text).units).toBe(306);
    expect(analyzeText(text).segments).toBe(3);
    const brace = `${a(152)}{${a(152)}`;
    expect(analyzeText(brace).segments).toBe(3);
    // One septet earlier the pair fits and two segments suffice.
    expect(analyzeText(`${a(151)}€${a(153)}`).segments).toBe(2);
  });

  it('reports the room left in the last segment', () => {
    expect(analyzeText('').remainingInLastSegment).toBe(160);
    expect(analyzeText(a(10)).remainingInLastSegment).toBe(150);
    expect(analyzeText(a(160)).remainingInLastSegment).toBe(0);
    expect(analyzeText(a(161)).remainingInLastSegment).toBe(153 - 8);
    // The Euro sign opened the second segment: €+151 fill it, one 'a' spills into a third.
    expect(analyzeText(`${a(152)}€${a(151)}`).remainingInLastSegment).toBe(0);
    expect(analyzeText(`${a(152)}€${a(152)}`).remainingInLastSegment).toBe(152);
  });

  it('keeps plain Turkish text that needs no Turkish letters in GSM7 (Ç Ö Ü ö ü are basic)', () => {
    expect(analyzeText('Çok güzel, Ömür Ünal').encoding).toBe('GSM7');
  });
});

describe('UCS-2', () => {
  it.each([
    ['70 characters fit one SMS', zh(70), 70, 1, 70],
    ['71 characters need two of 67', zh(71), 71, 2, 67],
    ['134 characters fill two exactly', zh(134), 134, 2, 67],
    ['135 characters need a third', zh(135), 135, 3, 67],
  ])('%s', (_, text, units, segments, perSegment) => {
    expect(summary(text)).toEqual({ encoding: 'UCS2', units, segments, perSegment });
  });

  it('counts an emoji as one character but two units', () => {
    const r = analyzeText('😀');
    expect([r.characters, r.units, r.segments, r.remainingInLastSegment]).toEqual([1, 2, 1, 68]);
  });

  it('fits an emoji in the last two units of a single SMS, not one more', () => {
    expect(summary(`${zh(68)}😀`)).toEqual({ encoding: 'UCS2', units: 70, segments: 1, perSegment: 70 });
    expect(summary(`${zh(69)}😀`).segments).toBe(2);
  });

  it('never splits an emoji across segments, so a segment may carry only 66 units', () => {
    // 66 + 2 + 66 = 134 units: two segments if the surrogate pair could be split.
    const text = `${zh(66)}😀${zh(66)}`;
    expect(analyzeText(text).units).toBe(134);
    expect(analyzeText(text).segments).toBe(3);
    expect(analyzeText(`${zh(65)}😀${zh(67)}`).segments).toBe(2);
  });

  it('may split a multi-code-point emoji between its code points, never inside a surrogate pair', () => {
    // Family: man ZWJ woman ZWJ girl = 8 units. 64 + 2 + 1 fills 67 exactly, the rest goes on.
    const family = '👨‍👩‍👧';
    const r = analyzeText(`${zh(64)}${family}${zh(62)}`);
    expect(r.units).toBe(134);
    expect(r.segments).toBe(2);
  });
});

describe('Turkish single shift', () => {
  it('carries Turkish letters at two septets each instead of switching to UCS2', () => {
    const r = analyzeText("Şişli'de ığdır");
    expect(r.encoding).toBe('TurkishSingleShift');
    expect(r.dataCoding).toBe('TurkishSingleShift');
    expect(r.characters).toBe(14);
    // Ş ş ı ğ ı take two septets each.
    expect(r.units).toBe(19);
    expect(r.forcedUcs2By).toEqual([]);
  });

  it('falls back to UCS2 when a typographic apostrophe sneaks in, and says which character did it', () => {
    const r = analyzeText('Şişli’de ığdır');
    expect(r.encoding).toBe('UCS2');
    expect(r.forcedUcs2By).toEqual(['’']);
    expect(r.units).toBe(14);
  });

  it('has exactly the table of 3GPP TS 23.038 A.2.1', () => {
    const twoSeptets = [
      'Ğ',
      'İ',
      'Ş',
      'ç',
      'ğ',
      'ı',
      'ş',
      '€',
      '^',
      '{',
      '}',
      '\\',
      '[',
      '~',
      ']',
      '|',
      '\f',
    ];
    for (const ch of twoSeptets) {
      const r = analyzeText(`ş${ch}`, { encoding: 'TurkishSingleShift' });
      expect([r.units, r.unrepresentable], ch).toEqual([4, []]);
    }
    // Upper-case Ç is in the basic table; circumflexed letters are in no 7-bit table.
    expect(analyzeText('şÇ').units).toBe(3);
    expect(analyzeText('şâ').encoding).toBe('UCS2');
    expect(analyzeText('Kâğıt').forcedUcs2By).toEqual(['â']);
  });

  it('has room for 155 septets in one SMS and 149 per segment after (3-octet language header)', () => {
    expect(summary(`${a(153)}ş`)).toEqual({
      encoding: 'TurkishSingleShift',
      units: 155,
      segments: 1,
      perSegment: 155,
    });
    expect(summary(`${a(154)}ş`)).toEqual({
      encoding: 'TurkishSingleShift',
      units: 156,
      segments: 2,
      perSegment: 149,
    });
    expect(analyzeText(`ş${a(296)}`).segments).toBe(2);
    expect(analyzeText(`ş${a(297)}`).segments).toBe(3);
  });

  it('moves a Turkish letter that would straddle a boundary to the next segment', () => {
    expect(analyzeText(`${a(148)}ş${a(148)}`).units).toBe(298);
    expect(analyzeText(`${a(148)}ş${a(148)}`).segments).toBe(3);
  });

  it('is chosen over UCS2 because it is cheaper', () => {
    // 77 Turkish letters: 154 septets, one SMS; in UCS2 it would be two.
    expect(summary('ş'.repeat(77))).toEqual({
      encoding: 'TurkishSingleShift',
      units: 154,
      segments: 1,
      perSegment: 155,
    });
  });
});

describe('automatic choice and forced encodings', () => {
  it('lists each character that forces UCS2 once, in order of first appearance, leaving out Turkish letters', () => {
    const r = analyzeText('Ж şğ 😀 ж 😀 Ж ç');
    expect(r.encoding).toBe('UCS2');
    expect(r.forcedUcs2By).toEqual(['Ж', '😀', 'ж']);
  });

  it('leaves forcedUcs2By empty when UCS2 is forced rather than needed', () => {
    const r = analyzeText('😀', { encoding: 'UCS2' });
    expect([r.forcedUcs2By, r.unrepresentable]).toEqual([[], []]);
  });

  it('sends plain text in UCS2 when asked to, at UCS2 prices', () => {
    expect(summary(a(71), 'UCS2')).toEqual({ encoding: 'UCS2', units: 71, segments: 2, perSegment: 67 });
  });

  it('lists what a forced 7-bit encoding cannot carry, counting each as one septet', () => {
    const gsm = analyzeText('çğ😀ç', { encoding: 'GSM7' });
    expect(gsm.encoding).toBe('GSM7');
    expect(gsm.unrepresentable).toEqual(['ç', 'ğ', '😀']);
    expect(gsm.units).toBe(4);
    expect(gsm.forcedUcs2By).toEqual([]);

    const turkish = analyzeText('çğ😀', { encoding: 'TurkishSingleShift' });
    expect(turkish.unrepresentable).toEqual(['😀']);
    expect(turkish.units).toBe(5);
  });

  it('reports nothing unrepresentable when the forced encoding carries the text', () => {
    expect(analyzeText('hello {world}', { encoding: 'GSM7' }).unrepresentable).toEqual([]);
    expect(analyzeText('hello', { encoding: 'TurkishSingleShift' }).perSegment).toBe(155);
  });

  it('maps encodings to gateway DataCoding values', () => {
    expect(dataCodingOf('GSM7')).toBe('Default');
    expect(dataCodingOf('TurkishSingleShift')).toBe('TurkishSingleShift');
    expect(dataCodingOf('UCS2')).toBe('UCS2');
    expect(analyzeText('hi').dataCoding).toBe('Default');
    expect(analyzeText('😀').dataCoding).toBe('UCS2');
  });
});

describe('agreement with sms-segments-calculator where the rules coincide', () => {
  it('has the same GSM basic and extension tables', () => {
    // Every GSM character lies in these ranges (Latin, Greek, the Euro sign).
    const codes = [...Array(0x500).keys(), ...Array.from({ length: 0x100 }, (_, i) => 0x2000 + i)];
    for (const code of codes) {
      const ch = String.fromCharCode(code);
      const lib = new SegmentedMessage(ch);
      const ours = analyzeText(ch, { encoding: 'GSM7' });
      const libSeptets = lib.encodingName === 'GSM-7' ? lib.numberOfCharacters : undefined;
      const ourSeptets = ours.unrepresentable.length === 0 ? ours.units : undefined;
      expect(ourSeptets, `U+${code.toString(16)}`).toBe(libSeptets);
    }
  });

  it('counts the same segments for GSM and UCS-2 text made of single-code-point characters', () => {
    const alphabet = ['a', ' ', '€', '{', 'Ç', 'é', '\n', 'ж', '中', '😀', 'Ω'];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...alphabet), { maxLength: 400 }), (chars) => {
        const text = chars.join('');
        const ours = analyzeText(text);
        const lib = new SegmentedMessage(text);
        expect(ours.encoding).toBe(lib.encodingName === 'GSM-7' ? 'GSM7' : 'UCS2');
        expect(ours.segments).toBe(text === '' ? 0 : lib.segmentsCount);
      }),
      { numRuns: 300 },
    );
  });
});

describe('characters no SMS can carry', () => {
  const found = (text: string) =>
    unsendableCharacters(text).map((u) => [u.position, u.line, u.column, u.codePoint, u.kind]);

  it('finds a lone high or low surrogate, counting positions in characters as people do', () => {
    // The emoji before it is one character, not two code units.
    expect(found('😀 a\uD83D b')).toEqual([[4, 1, 4, 0xd83d, 'unpaired-surrogate']]);
    expect(found('\uDE00x')).toEqual([[1, 1, 1, 0xde00, 'unpaired-surrogate']]);
    expect(found('a\uDE00\uD83D')).toEqual([
      [2, 1, 2, 0xde00, 'unpaired-surrogate'],
      [3, 1, 3, 0xd83d, 'unpaired-surrogate'],
    ]);
  });

  it('finds NUL, other C0 and C1 controls, DEL and noncharacters, with their line and column', () => {
    expect(found('ab\n\u0000c\u0007\r\n\u007f\u0085\uFFFF\uFDD0\u{1FFFE}')).toEqual([
      [4, 2, 1, 0, 'nul'],
      [6, 2, 3, 7, 'control'],
      [9, 3, 1, 0x7f, 'control'],
      [10, 3, 2, 0x85, 'control'],
      [11, 3, 3, 0xffff, 'noncharacter'],
      [12, 3, 4, 0xfdd0, 'noncharacter'],
      [13, 3, 5, 0x1fffe, 'noncharacter'],
    ]);
  });

  it('passes what an SMS carries: text, emoji, Turkish, line breaks, form feed and tab', () => {
    expect(found('Merhaba dünya 😀 İıŞş €\r\n\f\tend')).toEqual([]);
  });

  it('encodingOf is the inverse of dataCodingOf', () => {
    for (const encoding of ['GSM7', 'TurkishSingleShift', 'UCS2'] as const) {
      expect(encodingOf(dataCodingOf(encoding))).toBe(encoding);
    }
  });
});

describe('properties', () => {
  const anyText = fc.string({ unit: 'binary', maxLength: 600 });
  const encodings = fc.constantFrom<SmsEncoding | undefined>(undefined, 'GSM7', 'TurkishSingleShift', 'UCS2');

  it('never throws and stays self-consistent on arbitrary text', () => {
    fc.assert(
      fc.property(anyText, encodings, (text, encoding) => {
        const r = analyzeText(text, encoding ? { encoding } : {});
        expect(r.characters).toBe([...text].length);
        expect(r.segments === 0).toBe(text === '');
        expect(r.remainingInLastSegment).toBeGreaterThanOrEqual(0);
        expect(r.remainingInLastSegment).toBeLessThanOrEqual(r.perSegment);
        expect(r.units).toBeLessThanOrEqual(r.segments * r.perSegment);
        if (encoding === undefined) expect(r.unrepresentable).toEqual([]);
        else expect(r.encoding).toBe(encoding);
      }),
      { numRuns: 500 },
    );
  });

  it('reports only characters outside ordinary text, and deleting them leaves well-formed text without NUL', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const chars = [...text];
        const reported = new Set(unsendableCharacters(text).map((u) => u.position));
        for (const position of reported) {
          const cp = chars[position - 1]!.codePointAt(0)!;
          const ordinary = cp >= 0x20 && cp !== 0x7f && !(cp >= 0x80 && cp <= 0x9f) && cp <= 0xd7ff;
          expect(ordinary, `U+${cp.toString(16)} at ${position}`).toBe(false);
        }
        const kept = chars.filter((_, i) => !reported.has(i + 1)).join('');
        // With the u flag, \p{Cs} matches only a surrogate that is not half of a pair.
        expect(/\p{Cs}/u.test(kept)).toBe(false);
        expect(kept.includes('\u0000')).toBe(false);
      }),
      { numRuns: 500 },
    );
  });

  it('never needs fewer segments after text is added', () => {
    fc.assert(
      fc.property(anyText, anyText, (text, more) => {
        expect(analyzeText(text + more).segments).toBeGreaterThanOrEqual(analyzeText(text).segments);
      }),
      { numRuns: 300 },
    );
  });
});
