import { spendOf, spendWindow } from '../../digests/spend.js';
import { GatewayRejected, type SurveyAnswer } from '../../gateway/index.js';
import { withoutForgottenSenders } from '../../sms/forgotten-senders.js';
import { UserInputError } from '../errors.js';
import { inboxWindow, logWindow, newestInbound } from '../lookup-windows.js';
import { escapeMrkdwn, truncate } from '../ui/format.js';
import { balanceLogMessage, balanceMessage } from '../ui/lookup-balance.js';
import type { LookupView } from '../ui/lookup-common.js';
import { inboxMessage } from '../ui/lookup-inbox.js';
import { sendersMessage } from '../ui/lookup-senders.js';
import { statsMessage } from '../ui/lookup-stats.js';
import { surveyAnswersMessage, surveysMessage } from '../ui/lookup-surveys.js';
import { type CommandContext, reply, type SubcommandHandlers } from './context.js';

interface CountRule {
  command: string;
  what: string;
  min: number;
  max: number;
  fallback: number;
  example: number;
}

const LOG_DAYS: CountRule = {
  command: 'log',
  what: 'number of days',
  min: 1,
  max: 90,
  fallback: 7,
  example: 30,
};
const INBOX_COUNT: CountRule = {
  command: 'inbox',
  what: 'number of SMS',
  min: 1,
  max: 50,
  fallback: 10,
  example: 20,
};

/** What the user typed, safe to echo back in mrkdwn. */
function typed(text: string): string {
  return escapeMrkdwn(truncate(text, 40));
}

/** An optional whole number typed by a person; absent gives the default, anything odd says what is accepted. */
export function parseCount(raw: string | undefined, rule: CountRule): number {
  const text = (raw ?? '').trim();
  if (text === '') return rule.fallback;
  const n = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < rule.min || n > rule.max) {
    throw new UserInputError(
      `“${typed(text)}” is not a ${rule.what} I can use: give a whole number from ${rule.min} to ${rule.max} ` +
        `(default ${rule.fallback}), e.g. \`/sms ${rule.command} ${rule.example}\`.`,
    );
  }
  return n;
}

export function parseSurveyId(raw: string | undefined): number {
  const text = (raw ?? '').trim();
  if (text === '') {
    throw new UserInputError(
      'Which survey? Usage: `/sms survey &lt;id&gt;`, e.g. `/sms survey 301`; `/sms surveys` lists the ids.',
    );
  }
  const id = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(id) || id <= 0) {
    throw new UserInputError(
      `“${typed(text)}” is not a survey id: it is a whole number such as 301 (\`/sms survey 301\`); \`/sms surveys\` lists them.`,
    );
  }
  return id;
}

function viewOf(ctx: CommandContext): LookupView {
  return {
    now: ctx.deps.now(),
    timeZone: ctx.deps.settings.reportTimeZone,
    simulated: ctx.deps.settings.simulated,
  };
}

export async function balanceCommand(ctx: CommandContext): Promise<void> {
  const view = viewOf(ctx);
  // Spend is a side note: a balance log that cannot be read must not hide the balance itself.
  const spend = ctx.deps.gateway.getBalanceLog(spendWindow(view.now)).then(
    (entries) => spendOf(entries, view.now, view.timeZone),
    (error: unknown) => {
      ctx.deps.logger.warn(
        { err: error instanceof Error ? error.message : String(error) },
        'balance log unavailable',
      );
      return undefined;
    },
  );
  const balance = await ctx.deps.gateway.getBalance();
  await reply(ctx, balanceMessage(balance, await spend, view));
}

export async function logCommand(ctx: CommandContext): Promise<void> {
  const days = parseCount(ctx.args[0], LOG_DAYS);
  const view = viewOf(ctx);
  const entries = await ctx.deps.gateway.getBalanceLog(logWindow(view.now, days));
  await reply(ctx, balanceLogMessage(entries, days, view));
}

export async function sendersCommand(ctx: CommandContext): Promise<void> {
  await reply(ctx, sendersMessage(await ctx.deps.gateway.getSenders(), viewOf(ctx)));
}

export async function statsCommand(ctx: CommandContext): Promise<void> {
  await reply(ctx, statsMessage(await ctx.deps.gateway.queryStats(), viewOf(ctx)));
}

export async function surveysCommand(ctx: CommandContext): Promise<void> {
  await reply(ctx, surveysMessage(await ctx.deps.gateway.getSurveys(), viewOf(ctx)));
}

/** The gateway's 404 for an unknown SurveyId is the user's typo, not a gateway failure. */
async function answersOf(ctx: CommandContext, id: number): Promise<SurveyAnswer[]> {
  try {
    return await ctx.deps.gateway.getSurveyAnswers(id);
  } catch (error) {
    if (error instanceof GatewayRejected && error.code === 404) {
      throw new UserInputError(`There is no survey ${id}. \`/sms surveys\` lists the surveys and their ids.`);
    }
    throw error;
  }
}

export async function surveyCommand(ctx: CommandContext): Promise<void> {
  const id = parseSurveyId(ctx.args[0]);
  const [surveys, answers] = await Promise.all([ctx.deps.gateway.getSurveys(), answersOf(ctx, id)]);
  await reply(
    ctx,
    surveyAnswersMessage(
      id,
      surveys.find((s) => s.id === id),
      answers,
      viewOf(ctx),
    ),
  );
}

export async function inboxCommand(ctx: CommandContext): Promise<void> {
  const n = parseCount(ctx.args[0], INBOX_COUNT);
  const view = viewOf(ctx);
  // The gateway keeps what `/sms forget` erased from smsops: a forgotten sender's SMS are not shown.
  const received = await withoutForgottenSenders(
    await ctx.deps.gateway.receive({ range: inboxWindow(view.now) }),
    ctx.deps.store.forgottenNumbers,
    ctx.deps.settings.defaultCountry,
  );
  await reply(ctx, inboxMessage(newestInbound(received, n), received.length, view));
}

/** balance, log, senders, stats, surveys, survey, inbox. */
export const LOOKUP_HANDLERS = {
  balance: balanceCommand,
  log: logCommand,
  senders: sendersCommand,
  stats: statsCommand,
  surveys: surveysCommand,
  survey: surveyCommand,
  inbox: inboxCommand,
} satisfies SubcommandHandlers;
