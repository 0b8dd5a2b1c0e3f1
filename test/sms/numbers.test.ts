import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatForPeople, isCountryCode, normaliseNumber } from '../../src/sms/index.js';

describe('normaliseNumber', () => {
  it.each([
    '+90 532 123 45 67',
    '0532 123 45 67',
    '05321234567',
    '5321234567',
    '(532) 123-4567',
    '(0532) 123 45 67',
    '0532-123-45-67',
    '+90 (532) 123-45-67',
    '+90.532.123.45.67',
    '905321234567',
    '0090 532 123 45 67',
    '00 90 532 123 45 67',
    '  +905321234567  ',
    '+90\u00a0532\u00a0123\u00a045\u00a067',
    '٠٥٣٢١٢٣٤٥٦٧',
    '０５３２１２３４５６７',
  ])('reads %j as the gateway form 905321234567', (input) => {
    expect(normaliseNumber(input, 'TR')).toEqual({ ok: true, msisdn: '905321234567' });
  });

  it.each([
    ['+44 7911 123456', '447911123456'],
    ['+44 (0) 7911 123456', '447911123456'],
    ['+49 1512 3456789', '4915123456789'],
    ['0033 6 12 34 56 78', '33612345678'],
    // US numbers do not say whether they are mobile, so they are allowed.
    ['+1 415 555 2671', '14155552671'],
    // The gateway form of a foreign number, copied from a delivery report.
    ['447911123456', '447911123456'],
  ])('accepts the foreign mobile %j from a Turkish default', (input, msisdn) => {
    expect(normaliseNumber(input, 'TR')).toEqual({ ok: true, msisdn });
  });

  it('reads national numbers in the default country', () => {
    expect(normaliseNumber('01512 3456789', 'DE')).toEqual({ ok: true, msisdn: '4915123456789' });
    expect(normaliseNumber('(415) 555-2671', 'US')).toEqual({ ok: true, msisdn: '14155552671' });
    expect(normaliseNumber('+90 532 123 45 67', 'US')).toEqual({ ok: true, msisdn: '905321234567' });
  });

  it.each([
    ['', 'not a phone number'],
    ['   ', 'not a phone number'],
    ['abc', 'not a phone number'],
    ['532 ABC 4567', 'not a phone number'],
    ['05321234567 ext 5', 'not a phone number'],
    ['+', 'not a phone number'],
    ['++90 532 123 45 67', 'not a phone number'],
    ['123', 'too short'],
    ['0532 123 45 6', 'too short'],
    ['+90 532 123 45 6', 'too short'],
    ['0532 123 45 678', 'too long'],
    ['+90 532 123 45 67 8', 'too long'],
    ['1'.repeat(40), 'too long'],
    ['+999 123 456 789', 'unknown country code'],
    ['0212 123 45 67', 'not a mobile number'],
    ['+90 212 123 45 67', 'not a mobile number'],
    ['0850 123 45 67', 'not a mobile number'],
    ['0800 123 45 67', 'not a mobile number'],
    ['444 1 234', 'not a mobile number'],
    ['+90 100 123 45 67', 'invalid number'],
  ])('rejects %j: %s', (input, reason) => {
    expect(normaliseNumber(input, 'TR')).toEqual({ ok: false, reason });
  });

  it('never throws and only ever returns the gateway form', () => {
    const phoneish = fc.string({
      unit: fc.constantFrom(...'0123456789+ -()./٠٥', 'a', '\u00a0', '00', '90', '532'),
      maxLength: 30,
    });
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary' }), phoneish), (input) => {
        const r = normaliseNumber(input, 'TR');
        if (r.ok) expect(r.msisdn).toMatch(/^[1-9]\d{6,14}$/);
        else expect(r.reason).toMatch(/^[a-z ]+$/);
      }),
      { numRuns: 1000 },
    );
  });

  it('never throws on non-string input from untyped callers', () => {
    expect(normaliseNumber(undefined as unknown as string, 'TR').ok).toBe(false);
    expect(normaliseNumber(5321234567 as unknown as string, 'TR').ok).toBe(false);
  });
});

describe('formatForPeople', () => {
  it('formats gateway numbers the international way', () => {
    expect(formatForPeople('905321234567')).toBe('+90 532 123 45 67');
    expect(formatForPeople('447911123456')).toBe('+44 7911 123456');
    expect(formatForPeople('14155552671')).toBe('+1 415 555 2671');
  });

  it('falls back to +digits for anything it does not recognise', () => {
    expect(formatForPeople('123')).toBe('+123');
    expect(formatForPeople('9999999')).toBe('+9999999');
  });

  it('round-trips: what it shows reads back as the same number', () => {
    // Real mobile numbers of a few countries with their last four digits changed.
    const mobile = fc
      .tuple(fc.constantFrom('905321234567', '447911123456', '4915123456789', '14155552671', '33612345678'))
      .chain(([msisdn]) => fc.stringMatching(/^\d{4}$/).map((last) => msisdn.slice(0, -4) + last));
    let checked = 0;
    fc.assert(
      fc.property(mobile, (msisdn) => {
        const first = normaliseNumber(`+${msisdn}`, 'TR');
        if (!first.ok) return;
        checked += 1;
        expect(normaliseNumber(formatForPeople(first.msisdn), 'TR')).toEqual(first);
      }),
      { numRuns: 300 },
    );
    expect(checked).toBeGreaterThan(200);
  });

  it('never throws', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        expect(formatForPeople(s)).toMatch(/^\+/);
      }),
    );
  });
});

describe('isCountryCode', () => {
  it('tells supported country codes from anything else', () => {
    expect(isCountryCode('TR')).toBe(true);
    expect(isCountryCode('tr')).toBe(false);
    expect(isCountryCode('XX')).toBe(false);
  });
});
