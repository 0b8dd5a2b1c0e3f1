import fc from 'fast-check';
import { type CountryCode, getCountryCallingCode, parsePhoneNumberFromString } from 'libphonenumber-js/max';
import mobileExamples from 'libphonenumber-js/mobile/examples';
import { describe, expect, it } from 'vitest';
import { fastMsisdn } from '../../src/sms/fast-number.js';

// The shortcut may only ever agree with the full parser; these compare the two on inputs built
// around real mobile numbers, in the shapes people type, for countries with different rules.
const COUNTRIES: CountryCode[] = [
  'TR',
  'DE',
  'FR',
  'IT',
  'HU',
  'IN',
  'NG',
  'CI',
  'AZ',
  'MX',
  'BR',
  'AR',
  'US',
  'GB',
  // Calling codes that end in the national prefix (20 and 0, 380 and 0): `0…` becomes the code's other digits
  // and the input, with no string for the national number alone.
  'EG',
  'RO',
  'UA',
  'MY',
  'BD',
];

function fullParse(input: string, country: CountryCode): string | undefined {
  const phone = parsePhoneNumberFromString(input, { defaultCountry: country, extract: false });
  const type = phone?.getType();
  return type === 'MOBILE' || type === 'FIXED_LINE_OR_MOBILE' ? phone!.number.slice(1) : undefined;
}

const input = fc
  .record({
    country: fc.constantFrom(...COUNTRIES),
    prefix: fc.constantFrom('', '0', '06', '00', '8', '+', 'cc', '+cc', '00cc', '+cc0'),
    // A real mobile number with its last digits changed, and often its length too.
    last: fc.stringMatching(/^\d{3}$/),
    length: fc.oneof(
      { weight: 3, arbitrary: fc.constant(0) },
      { weight: 2, arbitrary: fc.integer({ min: -3, max: 3 }) },
    ),
    format: fc.constantFrom('', ' ', '-', '()'),
  })
  .map(({ country, prefix, last, length, format }) => {
    const example = mobileExamples[country] ?? '';
    const cc = getCountryCallingCode(country);
    const changed = example.slice(0, -3) + last;
    const digits = length >= 0 ? changed + last.slice(0, length) : changed.slice(0, length);
    const body =
      format === '()' ? `(${digits.slice(0, 3)}) ${digits.slice(3)}` : digits.split('').join(format);
    return { country, text: prefix.replace('cc', cc) + body };
  });

describe('fastMsisdn', () => {
  it('only ever answers what the full parser answers', () => {
    let answered = 0;
    fc.assert(
      fc.property(input, ({ country, text }) => {
        const fast = fastMsisdn(text, country);
        if (fast === undefined) return;
        answered += 1;
        expect(fast).toBe(fullParse(text, country));
      }),
      { numRuns: 3000 },
    );
    // Not vacuous: the shortcut does settle a good share of these.
    expect(answered).toBeGreaterThan(200);
  });

  it('settles the usual Turkish forms itself', () => {
    for (const text of [
      '+90 532 123 45 67',
      '0532 123 45 67',
      '5321234567',
      '(532) 123-4567',
      '905321234567',
    ]) {
      expect(fastMsisdn(text, 'TR'), text).toBe('905321234567');
    }
  });

  it('leaves countries with shared calling codes or rewriting rules to the full parser', () => {
    expect(fastMsisdn('+1 415 555 2671', 'US')).toBeUndefined();
    expect(fastMsisdn('07911 123456', 'GB')).toBeUndefined();
    expect(fastMsisdn('011 15 2345 6789', 'AR')).toBeUndefined();
  });

  it('leaves fixed lines and other shapes to the full parser', () => {
    expect(fastMsisdn('0212 123 45 67', 'TR')).toBeUndefined();
    expect(fastMsisdn('0090 532 123 45 67', 'TR')).toBeUndefined();
    expect(fastMsisdn('+44 7911 123456', 'TR')).toBeUndefined();
  });
});
