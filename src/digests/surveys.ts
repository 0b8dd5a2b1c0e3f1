import type { Gateway, Survey, SurveyAnswer } from '../gateway/index.js';
import type { DigestMemory } from './memory.js';
import type { SurveyDigestEntry, SurveysDigest } from './types.js';

/** Surveys whose answers a digest reads and shows: one GetSurveyAnswers call each, and room in one message. */
export const MAX_DIGEST_SURVEYS = 8;

/** Which surveys to show: those answered since the previous digest, most new answers first; all before the first. */
export function surveysToShow(
  surveys: readonly Survey[],
  previous: DigestMemory | undefined,
): { shown: Array<{ survey: Survey; newAnswers: number | undefined }>; unchanged: number; omitted: number } {
  const known = previous?.answered;
  const candidates = surveys
    .map((survey) => ({
      survey,
      newAnswers: known ? survey.answered - (known[String(survey.id)] ?? 0) : undefined,
    }))
    .filter((s) => s.newAnswers === undefined || s.newAnswers > 0)
    .sort((a, b) => (b.newAnswers ?? 0) - (a.newAnswers ?? 0) || b.survey.id - a.survey.id);
  const shown = candidates.slice(0, MAX_DIGEST_SURVEYS);
  return { shown, unchanged: surveys.length - candidates.length, omitted: candidates.length - shown.length };
}

export async function buildSurveysDigest(
  gateway: Gateway,
  now: Date,
  previous: DigestMemory | undefined,
): Promise<SurveysDigest> {
  const surveys = await gateway.getSurveys();
  const { shown, unchanged, omitted } = surveysToShow(surveys, previous);
  const entries: SurveyDigestEntry[] = await Promise.all(
    shown.map(async ({ survey, newAnswers }) => ({
      survey,
      newAnswers,
      // One survey's answers failing to load still leaves its counts worth showing.
      answers: await gateway.getSurveyAnswers(survey.id).catch((): SurveyAnswer[] => []),
    })),
  );
  return {
    kind: 'surveys',
    at: now,
    since: previous?.answered ? new Date(previous.at) : undefined,
    entries,
    unchanged,
    omitted,
    totalSurveys: surveys.length,
    answered: answeredBySurvey(surveys),
  };
}

/** What the next digest compares against: every survey's count, shown or not. */
export function answeredBySurvey(surveys: readonly Survey[]): Record<string, number> {
  return Object.fromEntries(surveys.map((s) => [String(s.id), s.answered]));
}
