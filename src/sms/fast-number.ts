import { type CountryCode, getCountries, getCountryCallingCode, Metadata } from 'libphonenumber-js/max';
import { plainNumberText } from './number-text.js';

// libphonenumber-js builds a new RegExp for every pattern it tries, so one number costs 15-30 µs
// and a 10,000-line recipient list a few hundred ms. This shortcut reads the default country's
// patterns once and settles the common shapes (`+90 532 …`, `0532 …`, `532 …`) in about a
// microsecond. It only says "this is mobile number X" where the full parser reaches the same
// answer (the reasoning is at each branch); for anything else it returns undefined and the caller
// parses properly. It relies on Metadata methods the library does not document, so it checks for them
// and switches itself off if they change; test/sms/fast-number.test.ts compares it with the
// full parser (on the number's plain text: number-text.ts).

interface Plan {
  callingCode: string;
  /** `+` and the calling code, as an international number starts. */
  international: string;
  nationalPrefix: string | undefined;
  /**
   * The calling code without the national prefix it ends with (`9` of `90` and `0`), else undefined: then
   * `0532…` in gateway form is that and the input as it stands, one string made instead of two.
   */
  beforeNationalPrefix: string | undefined;
  // Anchored at the start: input the full parser would strip something from.
  strippable: PrefixTest | undefined;
  idd: PrefixTest | undefined;
  general: RegExp;
  /**
   * The general and the mobile pattern in one expression (a lookahead): one match per number, not two. Sticky,
   * so that it matches from `lastIndex` (0, or past a national prefix) and nowhere else.
   */
  generalAndMobileFrom: RegExp;
  /** By length: whether a national number of it can be mobile (both the mobile and the general lengths). */
  mobileLength: readonly boolean[];
}

interface PrefixTest {
  test(text: string): boolean;
}

interface InternalType {
  pattern(): unknown;
  possibleLengths(): unknown;
}

interface InternalPlan {
  callingCode(): unknown;
  nationalNumberPattern(): unknown;
  possibleLengths(): unknown;
  nationalPrefix(): unknown;
  nationalPrefixForParsing(): unknown;
  nationalPrefixTransformRule(): unknown;
  IDDPrefix(): unknown;
  type(name: string): InternalType | undefined;
}

const plans = new Map<string, Plan | null>();

// Digits with blanks, hyphens and parentheses, optionally after a single leading '+'.
const SIMPLE_FORM = /^\+?[0-9(][0-9\s\-()]*$/;

export function fastMsisdn(input: string, country: CountryCode): string | undefined {
  const plan = planFor(country);
  if (!plan) return undefined;
  // Digits alone (what a spreadsheet column holds) need neither the form check nor the clean-up.
  let compact = input;
  if (!onlyDigits(input)) {
    // Marks a phone or chat app left in the number (number-text.ts), after the common forms: only then looked for.
    let form = input;
    if (!SIMPLE_FORM.test(input)) {
      form = plainNumberText(input);
      if (form === input || !SIMPLE_FORM.test(form)) return undefined;
    }
    compact = form.replace(/[\s\-()]/g, '');
  }
  if (compact.startsWith('+')) {
    if (!compact.startsWith(plan.international)) return undefined;
    return accept(plan, compact.slice(1 + plan.callingCode.length));
  }
  // International prefix, or a prefix that could be read as either trunk prefix or calling code.
  if (plan.idd?.test(compact)) return undefined;
  if (plan.nationalPrefix !== undefined && plan.callingCode.startsWith(plan.nationalPrefix)) return undefined;
  if (plan.nationalPrefix !== undefined && compact.startsWith(plan.nationalPrefix)) {
    // The parser strips it too whenever what remains is a valid number, which is demanded here. Checked in
    // place: no string for the national number alone.
    const offset = plan.nationalPrefix.length;
    if (!mobileNsnFrom(plan, compact, offset)) return undefined;
    return plan.beforeNationalPrefix !== undefined
      ? plan.beforeNationalPrefix + compact
      : plan.callingCode + compact.slice(offset);
  }
  const national = accept(plan, compact);
  if (national !== undefined) return national;
  // The gateway's own form (`905321234567`). The parser reads it so only when, as a national
  // number, it does not even match the country's general pattern.
  if (compact.startsWith(plan.callingCode) && !plan.general.test(compact)) {
    return accept(plan, compact.slice(plan.callingCode.length));
  }
  return undefined;
}

function onlyDigits(text: string): boolean {
  if (text.length === 0) return false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 48 || code > 57) return false;
  }
  return true;
}

// For a national significant number the parser would not strip a prefix from.
function accept(plan: Plan, nsn: string): string | undefined {
  if (plan.strippable?.test(nsn)) return undefined;
  return mobileNsn(plan, nsn) ? plan.callingCode + nsn : undefined;
}

// The same checks, in effect, as the library's getNumberType() reaching MOBILE or
// FIXED_LINE_OR_MOBILE.
function mobileNsn(plan: Plan, nsn: string): boolean {
  return mobileNsnFrom(plan, nsn, 0);
}

/** mobileNsn of `text` from `offset` on. */
function mobileNsnFrom(plan: Plan, text: string, offset: number): boolean {
  if (plan.mobileLength[text.length - offset] !== true) return false;
  plan.generalAndMobileFrom.lastIndex = offset;
  return plan.generalAndMobileFrom.test(text);
}

function planFor(country: CountryCode): Plan | null {
  let plan = plans.get(country);
  if (plan === undefined) {
    try {
      plan = buildPlan(country);
    } catch {
      plan = null;
    }
    plans.set(country, plan);
  }
  return plan;
}

function buildPlan(country: CountryCode): Plan | null {
  const callingCode = getCountryCallingCode(country);
  // With a shared calling code (+1, +7, +44) the parser picks the country from the number.
  if (getCountries().filter((c) => getCountryCallingCode(c) === callingCode).length !== 1) return null;

  const metadata = new Metadata();
  metadata.selectNumberingPlan(country);
  const numbering = metadata.numberingPlan as unknown as Partial<InternalPlan> | undefined;
  const methods = [
    'callingCode',
    'nationalNumberPattern',
    'possibleLengths',
    'nationalPrefix',
    'nationalPrefixForParsing',
    'nationalPrefixTransformRule',
    'IDDPrefix',
    'type',
  ] as const;
  if (!numbering || methods.some((m) => typeof numbering[m] !== 'function')) return null;
  const p = numbering as InternalPlan;
  if (p.callingCode() !== callingCode) return null;

  // Minified metadata writes an absent value as 0, so only a string counts.
  const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);
  const lengths = (value: unknown) =>
    Array.isArray(value) && value.every((n) => typeof n === 'number') ? (value as number[]) : undefined;

  const nationalPrefix = text(p.nationalPrefix());
  const forParsing = text(p.nationalPrefixForParsing());
  // Carrier codes and transform rules (AR, BR, …) rewrite national numbers: leave them alone.
  if (text(p.nationalPrefixTransformRule()) !== undefined) return null;
  if (forParsing !== undefined && forParsing !== nationalPrefix) return null;
  if (nationalPrefix !== undefined && !/^\d+$/.test(nationalPrefix)) return null;

  const mobileType = p.type('MOBILE');
  const general = text(p.nationalNumberPattern());
  const mobile = text(mobileType?.pattern());
  const generalLengths = lengths(p.possibleLengths());
  const mobileLengths = lengths(mobileType?.possibleLengths()) ?? generalLengths;
  const idd = text(p.IDDPrefix());
  if (!general || !mobile || !generalLengths || !mobileLengths) return null;

  const mobileLength: boolean[] = [];
  for (const length of mobileLengths) if (generalLengths.includes(length)) mobileLength[length] = true;
  return {
    callingCode,
    international: `+${callingCode}`,
    nationalPrefix,
    beforeNationalPrefix:
      nationalPrefix !== undefined && callingCode.endsWith(nationalPrefix)
        ? callingCode.slice(0, callingCode.length - nationalPrefix.length)
        : undefined,
    strippable: forParsing === undefined ? undefined : prefixTest(forParsing),
    idd: idd === undefined ? undefined : prefixTest(idd),
    general: new RegExp(`^(?:${general})$`),
    generalAndMobileFrom: new RegExp(`(?=(?:${general})$)(?:${mobile})$`, 'y'),
    mobileLength,
  };
}

/**
 * A test for input starting with `pattern`: a plain comparison when the pattern is digits alone (`0`, `00`,
 * as most countries' are), which costs a fraction of a regular expression's match, asked of every number.
 */
function prefixTest(pattern: string): PrefixTest {
  if (/^\d+$/.test(pattern)) return { test: (text) => text.startsWith(pattern) };
  return new RegExp(`^(?:${pattern})`);
}
