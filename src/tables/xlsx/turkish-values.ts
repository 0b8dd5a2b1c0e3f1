import { getLocale } from 'numfmt';

/**
 * Logical values as a Turkish Excel shows them: numfmt's Turkish locale data, the same that names its months
 * and days in dates (DOĞRU, YANLIŞ).
 */
const [TRUE_TEXT, FALSE_TEXT] = getLocale('tr')?.bool ?? ['DOĞRU', 'YANLIŞ'];

export function logicalText(raw: string): string {
  return raw === '1' || raw === 'true' ? TRUE_TEXT : FALSE_TEXT;
}

/**
 * Error values as a Turkish Excel shows them. A workbook stores them in English whatever the language of the
 * Excel that wrote it; the Turkish names are those of Microsoft's Turkish help for the IS functions
 * (support.microsoft.com/tr-tr, "DIR işlevleri": #YOK, #DEĞER!, #BAŞV!, #SAYI/0!, #SAYI!, #AD?, #BOŞ!), and
 * #TAŞMA! for #SPILL! as HyperFormula's Turkish dictionary has it. Others stay as stored.
 */
const TURKISH_ERRORS: ReadonlyMap<string, string> = new Map([
  ['#N/A', '#YOK'],
  ['#VALUE!', '#DEĞER!'],
  ['#REF!', '#BAŞV!'],
  ['#DIV/0!', '#SAYI/0!'],
  ['#NUM!', '#SAYI!'],
  ['#NAME?', '#AD?'],
  ['#NULL!', '#BOŞ!'],
  ['#SPILL!', '#TAŞMA!'],
]);

export function errorText(stored: string): string {
  const trimmed = stored.trim();
  return TURKISH_ERRORS.get(trimmed.toUpperCase()) ?? trimmed;
}
