// Character tables from 3GPP TS 23.038. Costs are in septets; a character that a table cannot
// carry costs `undefined` so callers must decide what that means.

// 6.2.1 default alphabet, in code order (0x00..0x7F) with ESC (0x1B) left out: it is not a
// character but the prefix of every two-septet character below.
const BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?' +
  '¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';

// 6.2.1.1 default extension table (reached through ESC, so two septets each).
const DEFAULT_EXTENSION = '\f^{}\\[~]|€';

// A.2.1 Turkish national language single shift table. It replaces the default extension table,
// so it repeats those characters and adds the Turkish letters missing from the basic table.
// Note lower-case ç is here while upper-case Ç is basic (0x09).
const TURKISH_SINGLE_SHIFT = '\f^{}\\[~]|ĞİŞç€ğış';

export const GSM_BASIC: ReadonlySet<string> = new Set(BASIC);
export const GSM_EXTENSION: ReadonlySet<string> = new Set(DEFAULT_EXTENSION);
export const TURKISH_SHIFT: ReadonlySet<string> = new Set(TURKISH_SINGLE_SHIFT);

export function gsm7Septets(char: string): number | undefined {
  if (GSM_BASIC.has(char)) return 1;
  if (GSM_EXTENSION.has(char)) return 2;
  return undefined;
}

export function turkishSeptets(char: string): number | undefined {
  if (GSM_BASIC.has(char)) return 1;
  if (TURKISH_SHIFT.has(char)) return 2;
  return undefined;
}

// UTF-16 code units: the gateway's UCS2 really carries UTF-16, so astral characters take two.
export function ucs2Units(char: string): number {
  return char.length;
}
