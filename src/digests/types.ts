import type { Balance, BalanceLogEntry, MonthlyStats, Survey, SurveyAnswer } from '../gateway/index.js';
import type { DigestKind } from '../store/index.js';
import type { Runway, Spend } from './spend.js';

export type { Runway, Spend };

/**
 * What a digest says, as data: the jobs gather it from the gateway and the store, and whoever shows it
 * (Slack, through DigestPoster) decides how it looks. Nothing here knows about Block Kit.
 */

export interface BalanceDigest {
  kind: 'balance';
  at: Date;
  balance: Balance;
  /** Undefined when the balance log could not be read: the balance is still worth posting. */
  spend: Spend | undefined;
  runway: Runway | undefined;
  /** Usable credit now minus at the previous digest; or, before the first one, the log's net over the period. */
  change: { amount: number; since: Date; basis: 'previous-digest' | 'balance-log' } | undefined;
  period: { from: Date; to: Date };
  /** Largest first, at most LARGEST_ENTRIES each. */
  largestDebits: BalanceLogEntry[];
  largestCredits: BalanceLogEntry[];
}

export interface StatsDigest {
  kind: 'stats';
  at: Date;
  /** Oldest first, at most 12. */
  months: MonthlyStats[];
  current: MonthlyStats | undefined;
  /** The calendar month before `current`, when the gateway has it. */
  previous: MonthlyStats | undefined;
  /** Whether `current` is still running in the report zone, so its figures are "so far". */
  currentIsRunning: boolean;
}

export interface SurveyDigestEntry {
  survey: Survey;
  /** Answers since the previous digest; undefined on the first one. */
  newAnswers: number | undefined;
  /** Empty when they could not be read. */
  answers: SurveyAnswer[];
}

export interface SurveysDigest {
  kind: 'surveys';
  at: Date;
  /** The previous digest's time: only surveys answered since then are listed. Undefined: every survey. */
  since: Date | undefined;
  entries: SurveyDigestEntry[];
  /** Surveys left out because nothing changed (or beyond the most a message can show). */
  unchanged: number;
  omitted: number;
  totalSurveys: number;
  /** Every survey's answered count now, shown or not: what the next digest compares against. */
  answered: Record<string, number>;
}

export type DigestReport = BalanceDigest | StatsDigest | SurveysDigest;

/** How the report is framed when shown. */
export interface DigestFraming {
  timeZone: string;
  simulated: boolean;
  /** "daily at 09:00"; absent for a preview of a kind the channel has not subscribed to. */
  schedule?: string;
  /** The next time this digest comes. */
  nextRun?: Date;
  /** A preview (`/sms digest`): shown only to the person who asked, and not remembered. */
  preview?: boolean;
}

export type AlertChange = 'below' | 'recovered';

export interface LowBalanceAlert {
  change: AlertChange;
  threshold: number;
  balance: Balance;
  runway: Runway | undefined;
  at: Date;
}

/** What the jobs need of Slack: implemented over the Web API in src/slack/digest-poster.ts. */
export interface DigestPoster {
  /** Posts the digest in the channel (with a PNG chart where it has one and may upload files). */
  postDigest(channel: string, report: DigestReport, framing: DigestFraming): Promise<void>;
  postAlert(channel: string, alert: LowBalanceAlert, framing: DigestFraming): Promise<void>;
}

export const DIGEST_KINDS: readonly DigestKind[] = ['balance', 'stats', 'surveys'];
