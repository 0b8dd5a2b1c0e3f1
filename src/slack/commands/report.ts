import { PeriodError, parsePeriod } from '../../reports/period.js';
import { UserInputError } from '../errors.js';
import { satisfies } from '../permissions.js';
import { prepareReport } from '../report-runner.js';
import { reportStartedText } from '../ui/sending-report.js';
import { usageError } from './arguments.js';
import type { CommandContext, SubcommandHandlers } from './context.js';

/** Words of `/sms report` that are not the period. */
const FLAGS = new Set(['csv', 'xlsx', 'inbound-details']);

/**
 * `/sms report [period] [csv] [inbound-details]`: answers at once, then builds the file in the background with its
 * progress in a message of the conversation, and shares it there. A viewer gets counts; texts and numbers need the
 * sender role; inbound numbers and texts need an admin who asks for them.
 */
export async function reportCommand(ctx: CommandContext): Promise<void> {
  const words = ctx.args.map((w) => w.toLowerCase());
  const flags = new Set(words.filter((w) => FLAGS.has(w)));
  let period: ReturnType<typeof parsePeriod>;
  try {
    period = parsePeriod(
      ctx.args.filter((w) => !FLAGS.has(w.toLowerCase())),
      ctx.deps.now(),
      ctx.deps.settings.reportTimeZone,
    );
  } catch (error) {
    if (error instanceof PeriodError) throw usageError('report', error.message);
    throw error;
  }
  if (flags.has('csv') && flags.has('xlsx'))
    throw usageError('report', 'Ask for one file: `csv`, or nothing for the .xlsx.');
  const inboundDetails = flags.has('inbound-details');
  if (inboundDetails && ctx.role !== 'admin')
    throw new UserInputError(
      'Inbound numbers and texts are personal data: only an admin may ask for them. Ask without `inbound-details` for the counts.',
    );
  if (inboundDetails && flags.has('csv'))
    throw usageError('report', 'The .csv holds the sends alone: ask for `inbound-details` in the .xlsx.');
  const work = await prepareReport(ctx.deps, ctx.client, {
    scope: { kind: 'period', period },
    what: period.label,
    basename: `sms-report-${period.slug}`,
    detail: satisfies(ctx.role, 'sender') ? 'full' : 'counts',
    inboundDetails,
    format: flags.has('csv') ? 'csv' : 'xlsx',
    userId: ctx.userId,
    channelId: ctx.channelId,
  });
  await ctx.respond({ response_type: 'ephemeral', text: reportStartedText(period.label) });
  await work();
}

export const REPORT_HANDLERS = { report: reportCommand } satisfies SubcommandHandlers;
