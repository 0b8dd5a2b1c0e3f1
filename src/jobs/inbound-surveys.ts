import type { Gateway, InboundMessage, Survey } from '../gateway/index.js';
import { keywordOf, sameWord } from './inbound-routing.js';

/**
 * GetSurveys does not say which keyword a survey listens to, so the match is a rule of ours:
 * SURVEY_KEYWORDS ("ANKET=301,KATIL=302") names them. Without it, a keyword matches a survey whose name
 * starts with that word ("Anket 2024" for ANKET); with it, only the keywords it names match, so a text
 * that merely starts like a survey's name is never taken for an answer.
 */
export function parseSurveyKeywords(text: string | undefined): Record<string, number> {
  const map: Record<string, number> = {};
  for (const part of (text ?? '').split(',')) {
    if (part.trim() === '') continue;
    const match = /^\s*([^\s=]+)\s*=\s*(\d+)\s*$/u.exec(part);
    if (!match)
      throw new Error(`expected KEYWORD=surveyId pairs such as ANKET=301,KATIL=302 (got "${part}")`);
    map[match[1]!] = Number(match[2]);
  }
  return map;
}

const LIST_TTL_MS = 10 * 60_000;
const FAILED_TTL_MS = 60_000;

/** Finds the survey an SMS answers; reads GetSurveys at most every 10 minutes, and never fails a poll. */
export class SurveyMatcher {
  #surveys: Survey[] = [];
  #freshUntil = 0;

  constructor(
    private readonly gateway: Pick<Gateway, 'getSurveys'>,
    private readonly keywords: Readonly<Record<string, number>>,
    private readonly clock: () => number,
  ) {}

  /** `signal` ends a GetSurveys in progress (the relay's stop): the post then lacks the survey's name, as on a failure. */
  async surveyFor(
    message: InboundMessage,
    signal?: AbortSignal,
  ): Promise<{ id: number; name?: string } | undefined> {
    const keyword = keywordOf(message);
    if (keyword === '') return undefined;
    const mapped = Object.entries(this.keywords);
    const named = mapped.find(([k]) => sameWord(k, keyword))?.[1];
    if (mapped.length > 0 && named === undefined) return undefined;
    const surveys = await this.#list(signal);
    if (named !== undefined) return { id: named, name: surveys.find((s) => s.id === named)?.name };
    const byName = surveys.find((s) => sameWord(s.name.trim().split(/\s+/u, 1)[0] ?? '', keyword));
    return byName ? { id: byName.id, name: byName.name } : undefined;
  }

  async #list(signal: AbortSignal | undefined): Promise<Survey[]> {
    if (this.clock() < this.#freshUntil) return this.#surveys;
    try {
      this.#surveys = await this.gateway.getSurveys(signal ? { signal } : undefined);
      this.#freshUntil = this.clock() + LIST_TTL_MS;
    } catch {
      // Without the list a post only lacks the survey's name (or, unnamed, the survey line).
      this.#freshUntil = this.clock() + FAILED_TTL_MS;
    }
    return this.#surveys;
  }
}
