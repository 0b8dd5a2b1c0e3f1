/**
 * Characters that phones and chat apps put around or inside a number they hand over, unseen: direction marks and
 * embeddings (WhatsApp wraps a copied number in U+202A…U+202C, a phone's contacts in U+202D or U+200E), isolates,
 * zero-width spaces and joiners, the word joiner, a byte order mark. They hold no digit, and libphonenumber refuses
 * a number with one, so they are removed rather than the number rejected.
 */
const INVISIBLE = /[\u200b-\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff]/g;
const HAS_INVISIBLE = /[\u200b-\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff]/;
/** No-break spaces (U+00A0, narrow U+202F, as phones group digits) and every other space are plain spaces. */
const SPACE = /[^\S ]/g;
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** A number's text as the parser reads it: invisible marks removed, every kind of space a plain one. */
export function plainNumberText(text: string): string {
  if (PRINTABLE_ASCII.test(text)) return text;
  return text.replace(INVISIBLE, '').replace(SPACE, ' ');
}

/** Text without the invisible marks, its spaces and line ends kept (a typed list of numbers). */
export function withoutInvisibleMarks(text: string): string {
  return HAS_INVISIBLE.test(text) ? text.replace(INVISIBLE, '') : text;
}
