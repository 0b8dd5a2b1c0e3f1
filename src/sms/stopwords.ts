import { foldCase } from './fold.js';

export const DEFAULT_STOP_WORDS: readonly string[] = ['STOP', 'UNSUBSCRIBE', 'IPTAL', 'DUR'];

/**
 * True when the reply's first word is a stop word, in any case (Turkish dotted and dotless I
 * included). Punctuation around the word is ignored so 'Stop.' and '"İptal"' count; 'STOPS' and
 * 'DURUM' do not.
 */
export function isStopWord(text: string, words: readonly string[] = DEFAULT_STOP_WORDS): boolean {
  const first = text.trim().split(/\s+/u, 1)[0] ?? '';
  const word = foldCase(first).replace(/^[\p{P}\p{S}]+|[\p{P}\p{S}]+$/gu, '');
  if (word === '') return false;
  return words.some((w) => foldCase(w.trim()) === word);
}
