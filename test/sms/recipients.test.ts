import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseRecipients } from '../../src/sms/index.js';

const msisdns = (text: string) => parseRecipients(text, 'TR').recipients.map((r) => r.msisdn);

describe('parseRecipients', () => {
  it('reads one number per line, keeping what was typed and where', () => {
    const r = parseRecipients('+90 532 123 45 67\n0532 765 43 21\n', 'TR');
    expect(r).toEqual({
      recipients: [
        { msisdn: '905321234567', input: '+90 532 123 45 67', line: 1 },
        { msisdn: '905327654321', input: '0532 765 43 21', line: 2 },
      ],
      invalid: [],
      duplicates: [],
      tooMany: false,
    });
  });

  it('splits on commas, semicolons, tabs and mixed line ends', () => {
    const text = '05321112233, 0532 111 22 34;+90 532 111 22 35\t5321112236\r\n(532) 111-2237\r5321112238';
    const r = parseRecipients(text, 'TR');
    expect(r.recipients.map((x) => [x.msisdn, x.line])).toEqual([
      ['905321112233', 1],
      ['905321112234', 1],
      ['905321112235', 1],
      ['905321112236', 1],
      ['905321112237', 2],
      ['905321112238', 3],
    ]);
    expect(r.invalid).toEqual([]);
  });

  it('keeps a number typed with spaces together', () => {
    expect(msisdns('+90 532 123 45 67')).toEqual(['905321234567']);
    expect(msisdns('0 532 123 45 67')).toEqual(['905321234567']);
  });

  it('splits on spaces when the pieces are numbers', () => {
    expect(msisdns('05321234567 05327654321 5321112233')).toEqual([
      '905321234567',
      '905327654321',
      '905321112233',
    ]);
    // Two numbers, each typed with spaces, separated by a space.
    expect(msisdns('+90 532 111 22 33 +90 532 111 22 34')).toEqual(['905321112233', '905321112234']);
    expect(msisdns('0532 111 22 33 0532 111 22 34')).toEqual(['905321112233', '905321112234']);
  });

  it('reports a mistyped spaced number once, as typed, not as a heap of fragments', () => {
    const r = parseRecipients('+90 532 123 45 6', 'TR');
    expect(r.recipients).toEqual([]);
    expect(r.invalid).toEqual([{ input: '+90 532 123 45 6', line: 1, reason: 'too short' }]);
  });

  it('in a space-separated list, reports only the bad number and keeps the good ones', () => {
    const r = parseRecipients('05321234567 0532123456 05327654321', 'TR');
    expect(r.recipients.map((x) => x.msisdn)).toEqual(['905321234567', '905327654321']);
    expect(r.invalid).toEqual([{ input: '0532123456', line: 1, reason: 'too short' }]);
  });

  it('reports invalid entries with their 1-based line, counting blank lines', () => {
    const r = parseRecipients('\n\nhello\n05321234567\n123\n0212 123 45 67, +999 1234 5678', 'TR');
    expect(r.recipients).toEqual([{ msisdn: '905321234567', input: '05321234567', line: 4 }]);
    expect(r.invalid).toEqual([
      { input: 'hello', line: 3, reason: 'not a phone number' },
      { input: '123', line: 5, reason: 'too short' },
      { input: '0212 123 45 67', line: 6, reason: 'not a mobile number' },
      { input: '+999 1234 5678', line: 6, reason: 'unknown country code' },
    ]);
  });

  it('merges duplicates written differently and lists every line they appear on', () => {
    const r = parseRecipients(
      '+90 532 123 45 67\n05327654321\n0532 123 45 67\n905321234567, 5327654321\n5321234567',
      'TR',
    );
    expect(r.recipients.map((x) => [x.msisdn, x.line])).toEqual([
      ['905321234567', 1],
      ['905327654321', 2],
    ]);
    expect(r.duplicates).toEqual([
      { msisdn: '905321234567', lines: [1, 3, 4, 5] },
      { msisdn: '905327654321', lines: [2, 4] },
    ]);
  });

  it('flags more unique recipients than allowed without dropping any', () => {
    const text = '05321111111\n05322222222\n05323333333\n05321111111';
    expect(parseRecipients(text, 'TR', { max: 2 }).tooMany).toBe(true);
    expect(parseRecipients(text, 'TR', { max: 2 }).recipients).toHaveLength(3);
    expect(parseRecipients(text, 'TR', { max: 3 }).tooMany).toBe(false);
    expect(parseRecipients(text, 'TR').tooMany).toBe(false);
  });

  it('returns nothing for empty or separator-only text', () => {
    for (const text of ['', '\n\n', ' , ; \t ']) {
      expect(parseRecipients(text, 'TR')).toEqual({
        recipients: [],
        invalid: [],
        duplicates: [],
        tooMany: false,
      });
    }
  });

  it('reads 10,000 lines in tens of milliseconds', () => {
    const forms = (k: number) => {
      const n = String(1_000_000 + k);
      return [
        `+90 532 ${n.slice(0, 3)} ${n.slice(3, 5)} ${n.slice(5)}`,
        `0532${n}`,
        `532${n}`,
        `(532) ${n.slice(0, 3)}-${n.slice(3)}`,
        `90532${n}`,
      ][k % 5];
    };
    const text = Array.from({ length: 10_000 }, (_, k) => forms(k)).join('\n');
    let best = Number.POSITIVE_INFINITY;
    let result = parseRecipients(text, 'TR');
    // CPU time, best of three, so a busy machine does not fail the test. Warm runs take 20-50 ms;
    // parsing every line with libphonenumber took 150-300 ms, a quadratic step would take seconds.
    for (let run = 0; run < 3; run += 1) {
      const start = process.cpuUsage();
      result = parseRecipients(text, 'TR');
      const used = process.cpuUsage(start);
      best = Math.min(best, (used.user + used.system) / 1000);
    }
    expect(result.recipients).toHaveLength(10_000);
    expect(result.recipients[9_999]).toEqual({ msisdn: '905321009999', input: '905321009999', line: 10_000 });
    expect(best).toBeLessThan(120);
  });

  it('keeps line numbers right across 10,000 lines with invalid entries and duplicates', () => {
    const lines = Array.from({ length: 10_000 }, (_, k) => {
      if (k % 1000 === 999) return 'n/a';
      if (k % 500 === 0) return '05320000000';
      return `0532${String(1_000_000 + k)}`;
    });
    const r = parseRecipients(lines.join('\n'), 'TR');
    expect(r.invalid).toHaveLength(10);
    expect(r.invalid[0]).toEqual({ input: 'n/a', line: 1000, reason: 'not a phone number' });
    expect(r.duplicates).toEqual([
      { msisdn: '905320000000', lines: Array.from({ length: 20 }, (_, i) => i * 500 + 1) },
    ]);
    expect(r.recipients).toHaveLength(10_000 - 10 - 19);
  });
});

describe('parseRecipients properties', () => {
  const lineTerminatorCount = (text: string) => text.split(/\r\n|\r|\n/).length;

  it('never throws and keeps its promises on arbitrary text', () => {
    const noisy = fc.string({
      unit: fc.constantFrom(...'0123456789 +-(),;\t\n\r', '0532', '+90', 'x', 'İ', '😀'),
      maxLength: 120,
    });
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary', maxLength: 200 }), noisy), (text) => {
        const r = parseRecipients(text, 'TR', { max: 3 });
        const lines = lineTerminatorCount(text);
        const unique = new Set(r.recipients.map((x) => x.msisdn));
        expect(unique.size).toBe(r.recipients.length);
        expect(r.tooMany).toBe(r.recipients.length > 3);
        for (const x of [...r.recipients, ...r.invalid]) {
          expect(x.line).toBeGreaterThanOrEqual(1);
          expect(x.line).toBeLessThanOrEqual(lines);
          expect(text).toContain(x.input);
        }
        for (const d of r.duplicates) {
          expect(d.lines.length).toBeGreaterThan(1);
          expect(d.lines[0]).toBe(r.recipients.find((x) => x.msisdn === d.msisdn)?.line);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('recovers exactly the numbers of a list, however it is typed and separated', () => {
    const number = fc.integer({ min: 0, max: 9_999_999 }).map((k) => `532${String(k).padStart(7, '0')}`);
    const typed = fc.tuple(number, fc.constantFrom('plus', 'spaced', 'trunk', 'bare', 'parens', 'gateway'));
    const written = ([nsn, form]: [string, string]) =>
      ({
        plus: `+90${nsn}`,
        spaced: `+90 ${nsn.slice(0, 3)} ${nsn.slice(3, 6)} ${nsn.slice(6, 8)} ${nsn.slice(8)}`,
        trunk: `0${nsn.slice(0, 3)} ${nsn.slice(3, 6)} ${nsn.slice(6)}`,
        bare: nsn,
        parens: `(${nsn.slice(0, 3)}) ${nsn.slice(3, 6)}-${nsn.slice(6)}`,
        gateway: `90${nsn}`,
      })[form]!;
    fc.assert(
      fc.property(
        fc.array(typed, { minLength: 1, maxLength: 20 }),
        fc.array(fc.constantFrom('\n', ', ', ';', '\t', ' ', '\r\n', ' , '), {
          minLength: 20,
          maxLength: 20,
        }),
        (list, separators) => {
          const text = list.map((entry, i) => written(entry) + (separators[i] ?? '\n')).join('');
          const expected = [...new Set(list.map(([nsn]) => `90${nsn}`))];
          const r = parseRecipients(text, 'TR');
          expect(r.invalid).toEqual([]);
          expect(r.recipients.map((x) => x.msisdn)).toEqual(expected);
        },
      ),
      { numRuns: 300 },
    );
  });
});
