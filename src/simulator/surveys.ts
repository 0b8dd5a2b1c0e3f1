import type { Survey } from './types.js';

/**
 * Finds the survey an inbound SMS answers: its Keyword, or failing that the first word of its text,
 * equals a survey's keyword (case-insensitive, Turkish dotted/dotless i folded alike).
 */
export function matchSurvey(surveys: readonly Survey[], keyword: string, text: string): Survey | undefined {
  const candidates = [keyword, firstWord(text)].map(fold).filter((k) => k !== '');
  return surveys.find((s) => candidates.includes(fold(s.keyword)));
}

/** The answer is what follows the keyword; a message without the keyword in front is all answer. */
export function answerFromText(surveyKeyword: string, text: string): string {
  const trimmed = text.trim();
  const first = firstWord(trimmed);
  const rest = fold(first) === fold(surveyKeyword) ? trimmed.slice(first.length).trim() : trimmed;
  return rest.toUpperCase();
}

function firstWord(text: string): string {
  return text.trim().split(/\s+/)[0] ?? '';
}

function fold(word: string): string {
  return word.replace(/[\u0130I\u0131]/g, 'i').toLowerCase();
}
