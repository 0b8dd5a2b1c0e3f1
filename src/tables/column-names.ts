import { foldCase } from '../sms/fold.js';

/**
 * What a column's header says it holds, as a Turkish office names columns:
 * - mobile: Cep, Cep Telefonu, GSM, Mobil, Mobil No, Mobile, MSISDN;
 * - phone: Telefon, Tel, Phone, Numara alone (could be either);
 * - landline: Sabit, Ev Tel, İş Telefonu, Fax, Faks;
 * - identity: TC Kimlik No, TCKN, T.C. No, Kimlik, Vergi No, VKN, IBAN, Müşteri No, Sicil (digits that are
 *   never a recipient, however much they look like a number).
 */
export type ColumnNameKind = 'mobile' | 'phone' | 'landline' | 'identity' | 'other';

/** Words of a header, case and Turkish letters folded: "İş Telefonu" → ["is", "telefonu"]. */
function wordsOf(name: string): string[] {
  return foldCase(name)
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== '');
}

const MOBILE_PREFIXES = ['cep', 'gsm', 'mobil', 'msisdn', 'cell'];
const PHONE_PREFIXES = ['tel', 'phone'];
// "Numara" alone is a phone column; beside another word it is that word's number ("Müşteri Numarası",
// "Sipariş Numarası", "TC Kimlik Numarası"), a phone only when the other word names one ("Cep Numarası").
const isNumberWord = (word: string) => word.startsWith('numara') || /^[0-9]+$/.test(word);
const LANDLINE_PREFIXES = ['sabit', 'fax', 'faks', 'landline'];
// Where a phone is, not what kind: a landline only beside a phone word ("Ev Adresi" names no phone).
const PLACE_WORDS = new Set(['ev', 'is', 'isyeri', 'home', 'work', 'office', 'ofis', 'fixed']);
const IDENTITY_STEMS = ['kimlik', 'tckn', 'vergi', 'vkn', 'iban', 'sicil'];
const IDENTITY_WHOLE = /^(tc(no|num|numarasi)?|musteri(no|num|numarasi|kodu|id)|customer(no|id|number))$/;

const startsWithAny = (word: string, prefixes: readonly string[]) => prefixes.some((p) => word.startsWith(p));

export function columnNameKind(name: string): ColumnNameKind {
  const words = wordsOf(name);
  if (words.length === 0) return 'other';
  const compact = words.join('');
  const mobile = words.some((w) => startsWithAny(w, MOBILE_PREFIXES)) || compact.includes('gsm');
  const phoneWord =
    mobile ||
    words.some((w) => startsWithAny(w, PHONE_PREFIXES)) ||
    (words.some((w) => w.startsWith('numara')) && words.every(isNumberWord)) ||
    compact.includes('telefon') ||
    compact.includes('phone');
  if (!phoneWord && (IDENTITY_STEMS.some((s) => compact.includes(s)) || IDENTITY_WHOLE.test(compact))) {
    return 'identity';
  }
  if (mobile) return 'mobile';
  if (words.some((w) => startsWithAny(w, LANDLINE_PREFIXES))) return 'landline';
  if (phoneWord && words.some((w) => PLACE_WORDS.has(w))) return 'landline';
  if (phoneWord || compact === 'number') return 'phone';
  return 'other';
}

/**
 * How strongly a header speaks for a column of recipients' numbers when the content leaves a choice: a mobile
 * name over a plain phone name over no name at all over a landline's name. Identity columns are never chosen.
 */
export function nameRank(name: string): number {
  switch (columnNameKind(name)) {
    case 'mobile':
      return 3;
    case 'phone':
      return 2;
    case 'other':
      return 1;
    case 'landline':
      return 0;
    case 'identity':
      return -1;
  }
}

/** Index of the column whose name says best that it holds phone numbers (mobile, then phone, then landline), or -1. */
export function phoneColumnByName(names: readonly string[]): number {
  const order: ColumnNameKind[] = ['mobile', 'phone', 'landline'];
  const kinds = names.map(columnNameKind);
  for (const kind of order) {
    const index = kinds.indexOf(kind);
    if (index >= 0) return index;
  }
  return -1;
}
