import { PeriodError, parsePeriod } from '../../reports/period.js';
import { ensureBotCanPost } from '../conversation-access.js';
import { UserInputError } from '../errors.js';
import { satisfies } from '../permissions.js';
import { isPersonalReport, prepareReport, type ReportRequest } from '../report-runner.js';
import { escapeMrkdwn } from '../ui/format.js';
import { reportStartedText } from '../ui/sending-report.js';
import { usageError } from './arguments.js';
import { removeChannelSubscriptions, replaceChannelSubscription } from './channel-subscription.js';
import type { CommandContext, SubcommandHandlers } from './context.js';

/** Words of `/sms report` that are not the period. */
const FLAGS = new Set(['csv', 'xlsx', 'inbound-details', 'counts']);

/**
 * `/sms report [period] [csv] [counts] [inbound-details]`: answers at once, then builds the file in the background
 * with its progress in a message. A counts-only report (a viewer's, or anyone's with `counts`) is shared in the
 * conversation; one with texts and numbers (the sender role) or inbound details (an admin who asks) goes to the
 * asker alone, in their DM with the app, since everyone in a channel would see it.
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
  if (inboundDetails && flags.has('counts'))
    throw usageError(
      'report',
      'Ask for `counts` (shared here) or `inbound-details` (sent to you alone), not both.',
    );
  const detail = satisfies(ctx.role, 'sender') && !flags.has('counts') ? 'full' : 'counts';
  const request = {
    scope: { kind: 'period', period } as const,
    what: period.label,
    basename: `sms-report-${period.slug}`,
    detail,
    inboundDetails,
    format: flags.has('csv') ? 'csv' : 'xlsx',
    userId: ctx.userId,
    channelId: ctx.channelId,
  } satisfies ReportRequest;
  const work = await prepareReport(ctx.deps, ctx.client, request);
  await ctx.respond({
    response_type: 'ephemeral',
    text: reportStartedText(period.label, isPersonalReport(request)),
  });
  await work();
}

export const REPORT_HANDLERS = { report: reportCommand } satisfies SubcommandHandlers;

/** `/sms subscribe report [with-texts]`: last month's report in this channel on the first day of each month. */
export async function subscribeReport(ctx: CommandContext): Promise<void> {
  const words = ctx.args.slice(1).map((w) => w.toLowerCase());
  if (words.some((w) => w !== 'with-texts'))
    throw new UserInputError(
      'Subscribe as `/sms subscribe report` (counts only) or `/sms subscribe report with-texts` (texts and numbers too: everyone in this channel sees them).',
    );
  const detail = words.includes('with-texts') ? 'full' : 'counts';
  // Posted by the job with nobody at hand: a conversation it could never post in is refused now.
  await ensureBotCanPost(ctx.client, ctx.channelId);
  const timezone = ctx.deps.settings.reportTimeZone;
  const existing = (await ctx.deps.store.subscriptions.listByChannel(ctx.channelId)).filter(
    (s) => s.kind === 'report',
  );
  if (existing.some((s) => s.kind === 'report' && s.detail === detail && s.timezone === timezone)) {
    await ctx.respond({
      response_type: 'ephemeral',
      text: ':information_source: This channel already gets the monthly SMS report. `/sms subscriptions` lists what it gets.',
    });
    return;
  }
  await replaceChannelSubscription(
    ctx,
    existing,
    { kind: 'report', detail, timezone },
    { action: 'report.subscribe', details: { detail, timezone } },
  );
  await ctx.respond({
    response_type: 'in_channel',
    text: `:bar_chart: <@${ctx.userId}> subscribed this channel to the monthly SMS report (${detail === 'full' ? 'with texts and numbers' : 'counts only'}): last month's .xlsx on the first day of each month (${escapeMrkdwn(timezone)}). \`/sms unsubscribe report\` stops it.`,
  });
}

/** `/sms unsubscribe report`. */
export async function unsubscribeReport(ctx: CommandContext): Promise<void> {
  const existing = (await ctx.deps.store.subscriptions.listByChannel(ctx.channelId)).filter(
    (s) => s.kind === 'report',
  );
  if (existing.length === 0)
    throw new UserInputError('This channel has no monthly report. `/sms subscriptions` lists what it has.');
  await removeChannelSubscriptions(ctx, existing, 'report.unsubscribe');
  await ctx.respond({
    response_type: 'in_channel',
    text: `:wave: <@${ctx.userId}> stopped the monthly SMS report in this channel.`,
  });
}
