import fc from 'fast-check';
import { type CountryCode, getCountryCallingCode, parsePhoneNumberFromString } from 'libphonenumber-js/max';
import mobileExamples from 'libphonenumber-js/mobile/examples';
import { describe, expect, it } from 'vitest';
import { fastMsisdn } from '../../src/sms/fast-number.js';
import { msisdnOf } from '../../src/sms/numbers.js';

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

// What a phone's contacts or WhatsApp leave around or inside a copied number, unseen: direction marks, embeddings
// and isolates, zero-width characters, a byte order mark. Listed here, not taken from the code under test.
const MARKS = [
  '\u200e',
  '\u200f',
  '\u202a',
  '\u202b',
  '\u202c',
  '\u202d',
  '\u202e',
  '\u2066',
  '\u2067',
  '\u2068',
  '\u2069',
  '\ufeff',
  '\u200b',
  '\u200c',
  '\u200d',
  '\u2060',
];
const NO_BREAK_SPACES = ['\u00a0', '\u202f'];

/** The number as libphonenumber takes it: the marks gone, no-break spaces plain. */
function plain(text: string): string {
  let out = text;
  for (const mark of MARKS) out = out.split(mark).join('');
  for (const space of NO_BREAK_SPACES) out = out.split(space).join(' ');
  return out;
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
    format: fc.constantFrom('', ' ', '-', '()', ...NO_BREAK_SPACES),
    marks: fc.oneof(
      { weight: 3, arbitrary: fc.constant([]) },
      {
        weight: 2,
        arbitrary: fc.array(fc.tuple(fc.constantFrom(...MARKS), fc.nat()), { minLength: 1, maxLength: 3 }),
      },
    ),
    around: fc.option(fc.tuple(fc.constantFrom(...MARKS), fc.constantFrom(...MARKS))),
  })
  .map(({ country, prefix, last, length, format, marks, around }) => {
    const example = mobileExamples[country] ?? '';
    const cc = getCountryCallingCode(country);
    const changed = example.slice(0, -3) + last;
    const digits = length >= 0 ? changed + last.slice(0, length) : changed.slice(0, length);
    const body =
      format === '()' ? `(${digits.slice(0, 3)}) ${digits.slice(3)}` : digits.split('').join(format);
    let text = prefix.replace('cc', cc) + body;
    // Inside the number, anywhere; and around it, as WhatsApp's U+202A … U+202C.
    for (const [mark, at] of marks) {
      const i = at % (text.length + 1);
      text = text.slice(0, i) + mark + text.slice(i);
    }
    if (around) text = around[0] + text + around[1];
    return { country, text };
  });

describe('fastMsisdn', () => {
  it('only ever answers what the full parser answers', () => {
    let answered = 0;
    fc.assert(
      fc.property(input, ({ country, text }) => {
        const fast = fastMsisdn(text, country);
        if (fast === undefined) return;
        answered += 1;
        expect(fast).toBe(fullParse(plain(text), country));
      }),
      { numRuns: 3000 },
    );
    // Not vacuous: the shortcut does settle a good share of these.
    expect(answered).toBeGreaterThan(200);
  });

  it('reads a number the same with the marks a phone leaves in it as without them, and settles most itself', () => {
    let marked = 0;
    let settled = 0;
    fc.assert(
      fc.property(input, ({ country, text }) => {
        if (plain(text) === text) return;
        marked += 1;
        expect(msisdnOf(text, country)).toBe(msisdnOf(plain(text), country));
        if (fastMsisdn(text, country) !== undefined) settled += 1;
      }),
      { numRuns: 3000 },
    );
    expect(marked).toBeGreaterThan(500);
    expect(settled).toBeGreaterThan(100);
    for (const text of [
      '\u202a+90 532 123 45 67\u202c',
      '\u200e0532\u00a0123\u00a045\u00a067\u200f',
      '\u2066+90\u202f532\u202f1234567\u2069',
    ]) {
      expect(fastMsisdn(text, 'TR'), JSON.stringify(text)).toBe('905321234567');
      expect(msisdnOf(text, 'TR'), JSON.stringify(text)).toBe('905321234567');
    }
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
