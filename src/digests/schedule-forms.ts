import { compileSchedule, InvalidScheduleError } from './schedule.js';

/**
 * The schedule forms people type after `/sms subscribe digest [kind]`, turned into cron expressions,
 * and cron expressions turned back into those words for listings.
 */
export const SCHEDULE_EXAMPLES = [
  'daily 09:00',
  'weekdays 08:30',
  'weekly monday 09:00',
  'monthly 1 09:00',
  'monthly last 18:00',
  'cron "0 9 * * 1-5"',
] as const;

/** What a subscription gets when no schedule is typed. */
export const DEFAULT_SCHEDULE = 'daily 09:00';

const DAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;
const DAY_LABELS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;

export interface ParsedSchedule {
  cron: string;
  /** "daily at 09:00", "weekly on Monday at 09:00", `cron "…"`. */
  description: string;
}

function time(word: string | undefined, form: string): { hour: number; minute: number } {
  const m = /^(\d{1,2})[:.](\d{2})$/.exec(word ?? '');
  const hour = Number(m?.[1]);
  const minute = Number(m?.[2]);
  if (!m || hour > 23 || minute > 59) {
    throw new InvalidScheduleError(
      `${word ? `“${word}” is not a time` : 'a time is missing'}: write it as HH:MM on the 24-hour clock, e.g. \`${form} 09:00\``,
    );
  }
  return { hour, minute };
}

function day(word: string | undefined): number {
  const w = (word ?? '').toLowerCase();
  const index = w.length >= 3 ? DAYS.findIndex((d) => d.startsWith(w)) : -1;
  if (index < 0) {
    throw new InvalidScheduleError(
      `${word ? `“${word}” is not a day of the week` : 'the day is missing'}: e.g. \`weekly monday 09:00\``,
    );
  }
  return index;
}

function dayOfMonth(word: string | undefined): string {
  const w = (word ?? '').toLowerCase();
  if (w === 'last') return 'L';
  const n = /^\d{1,2}$/.test(w) ? Number(w) : Number.NaN;
  if (!(n >= 1 && n <= 28)) {
    throw new InvalidScheduleError(
      `${word ? `“${word}” is not a day I can use` : 'the day of the month is missing'}: give 1 to 28 (every month has them) or \`last\`, e.g. \`monthly 1 09:00\` or \`monthly last 18:00\``,
    );
  }
  return String(n);
}

const pad = (n: number) => String(n).padStart(2, '0');

/** `words` are what follows the digest kind; empty gives DEFAULT_SCHEDULE. Throws InvalidScheduleError. */
export function parseScheduleWords(words: readonly string[], timeZone: string): ParsedSchedule {
  const [formWord, ...rest] = words.length === 0 ? DEFAULT_SCHEDULE.split(' ') : words;
  const form = formWord!.toLowerCase();
  let cron: string;
  switch (form) {
    case 'daily':
    case 'weekdays': {
      const { hour, minute } = time(rest[0], form);
      cron = `${minute} ${hour} * * ${form === 'daily' ? '*' : '1-5'}`;
      extra(rest, 1, form);
      break;
    }
    case 'weekly': {
      const d = day(rest[0]);
      const { hour, minute } = time(rest[1], `weekly ${DAYS[d]}`);
      cron = `${minute} ${hour} * * ${d}`;
      extra(rest, 2, form);
      break;
    }
    case 'monthly': {
      const dom = dayOfMonth(rest[0]);
      const { hour, minute } = time(rest[1], `monthly ${rest[0]}`);
      cron = `${minute} ${hour} ${dom} * *`;
      extra(rest, 2, form);
      break;
    }
    case 'cron': {
      // Quoted, it is one word; typed bare, its fields arrive as several.
      cron = rest.join(' ').trim();
      if (cron === '')
        throw new InvalidScheduleError('the cron expression is missing: e.g. `cron "0 9 * * 1-5"`');
      try {
        compileSchedule(cron, timeZone);
      } catch (error) {
        throw new InvalidScheduleError(
          `“${cron}” is not a cron expression I can use (${error instanceof Error ? error.message : String(error)}): five fields, minute hour day-of-month month day-of-week, e.g. \`cron "0 9 * * 1-5"\``,
        );
      }
      break;
    }
    default:
      throw new InvalidScheduleError(
        `“${formWord}” is not a schedule: use daily HH:MM, weekdays HH:MM, weekly DAY HH:MM, monthly D HH:MM or cron "EXPR", e.g. \`daily 09:00\``,
      );
  }
  const normalised = cron.replace(/\s+/g, ' ');
  compileSchedule(normalised, timeZone);
  return { cron: normalised, description: describeCron(normalised) };
}

function extra(rest: readonly string[], used: number, form: string): void {
  if (rest.length > used) {
    throw new InvalidScheduleError(
      `I did not understand “${rest.slice(used).join(' ')}” after the ${form} schedule: e.g. \`${SCHEDULE_EXAMPLES.find((e) => e.startsWith(form)) ?? 'daily 09:00'}\``,
    );
  }
}

/** The words a person would use for an expression: the typed forms come back as typed, anything else as cron. */
export function describeCron(cron: string): string {
  const text = cron.trim().replace(/\s+/g, ' ');
  const m = /^(\d{1,2}) (\d{1,2}) (\S+) \* (\S+)$/.exec(text);
  if (m) {
    const at = `${pad(Number(m[2]))}:${pad(Number(m[1]))}`;
    const [, , , dom, dow] = m;
    if (dom === '*' && dow === '*') return `daily at ${at}`;
    if (dom === '*' && dow === '1-5') return `weekdays at ${at}`;
    if (dom === '*' && /^[0-7]$/.test(dow!)) return `weekly on ${DAY_LABELS[Number(dow) % 7]} at ${at}`;
    if (dow === '*' && dom === 'L') return `monthly on the last day at ${at}`;
    if (dow === '*' && /^\d{1,2}$/.test(dom!)) return `monthly on day ${Number(dom)} at ${at}`;
  }
  return `cron "${text}"`;
}
