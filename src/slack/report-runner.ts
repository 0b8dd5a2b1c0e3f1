import type { WebClient } from '@slack/web-api';
import type { MonthlyReportPoster } from '../jobs/monthly-report.js';
import type { ReportScope } from '../reports/build.js';
import type { ReportDetail } from '../reports/send-lines.js';
import { ensureBotCanPost } from './conversation-access.js';
import type { SlackDeps } from './deps.js';
import { slackRefusalOf, UserInputError, userMessageFor } from './errors.js';
import { shareFile } from './file-upload.js';
import { formatTime } from './ui/format.js';
import {
  REPORT_BUSY_TEXT,
  reportDoneMessage,
  reportFailedMessage,
  reportInDmNote,
  reportProgressMessage,
} from './ui/sending-report.js';

/** Reports built at once by one instance: each holds a gateway pace and a file in memory. */
const MAX_RUNNING = 2;
/** chat.update is Tier 3 (about 50 a minute): the progress line moves at most this often. */
const PROGRESS_EVERY_MS = 3_000;

let running = 0;

export interface ReportRequest {
  scope: ReportScope;
  /** How the report is named in messages and the file's title. */
  what: string;
  /** The file name without its extension. */
  basename: string;
  detail: ReportDetail;
  inboundDetails: boolean;
  format: 'xlsx' | 'csv';
  userId: string;
  channelId: string;
  threadTs?: string;
  /** Posted by a `report` subscription: `userId` is who subscribed the channel. */
  monthly?: boolean;
}

/** Where the report's progress message and file go. */
interface Destination {
  channelId: string;
  threadTs?: string;
}

/**
 * Texts and numbers (and inbound details) are for the asker alone: everyone in a channel, guests and people
 * without any smsops role among them, sees what is shared there. The monthly `with-texts` subscription is the one
 * exception: an admin chose that channel for it, warned that everyone there sees them.
 */
export function isPersonalReport(
  request: Pick<ReportRequest, 'detail' | 'inboundDetails' | 'monthly'>,
): boolean {
  return request.monthly !== true && (request.detail === 'full' || request.inboundDetails);
}

const NO_DM_TEXT =
  'This app may not send you direct messages yet (its Slack app lacks the `im:write` permission), and a report with texts and numbers goes only there: an admin must update the app from the current manifest and reinstall it. Ask with `counts` for a report shared here.';

/** The asker's DM with the app (conversations.open, scope im:write). */
async function directMessageOf(client: WebClient, userId: string): Promise<string> {
  try {
    const dm = await client.conversations.open({ users: userId });
    if (!dm.channel?.id) throw new Error('conversations.open gave no channel');
    return dm.channel.id;
  } catch (error) {
    if (slackRefusalOf(error) === 'missing_scope') throw new UserInputError(NO_DM_TEXT);
    throw error;
  }
}

/** A Slack user's name as a report shows it (users.info, scope users:read), or the id when Slack will not say. */
function personNamer(client: WebClient): (userId: string) => Promise<string> {
  return async (userId) => {
    try {
      const info = await client.users.info({ user: userId });
      const user = info.user as
        | { real_name?: string; name?: string; profile?: { display_name?: string; real_name?: string } }
        | undefined;
      return (
        user?.real_name || user?.profile?.real_name || user?.profile?.display_name || user?.name || userId
      );
    } catch {
      return userId;
    }
  };
}

/**
 * Checks that the report can be posted where it was asked and that a slot is free; throws a UserInputError that
 * says why not. Then returns the work, for the caller to run after its answer (never before an ack).
 */
export async function prepareReport(
  deps: SlackDeps,
  client: WebClient,
  request: ReportRequest,
): Promise<() => Promise<void>> {
  if (running >= MAX_RUNNING) throw new UserInputError(REPORT_BUSY_TEXT.replace(/^:hourglass: /, ''));
  const personal = isPersonalReport(request);
  const destination: Destination = personal
    ? { channelId: await directMessageOf(client, request.userId) }
    : { channelId: request.channelId, ...(request.threadTs ? { threadTs: request.threadTs } : {}) };
  if (!personal) await ensureBotCanPost(client, request.channelId);
  running++;
  return async () => {
    try {
      if (personal && destination.channelId !== request.channelId) await noteInChannel(deps, client, request);
      await runReport(deps, client, request, destination);
    } finally {
      running--;
    }
  };
}

/**
 * Tells the conversation where the report was asked that it went to the asker's DM. Best effort: the asker was
 * told already, and a report for their DM needs no post where it was asked (the app may not be in that channel).
 */
async function noteInChannel(deps: SlackDeps, client: WebClient, request: ReportRequest): Promise<void> {
  await client.chat
    .postMessage({
      channel: request.channelId,
      ...(request.threadTs ? { thread_ts: request.threadTs } : {}),
      ...reportInDmNote(request.userId, request.what),
    })
    .catch((error: unknown) => deps.logger.debug({ err: String(error) }, 'report note not shown'));
}

/** Posts last month's report where a `report` subscription asks for it (src/jobs/monthly-report.ts). */
export function monthlyReportPoster(deps: SlackDeps, client: WebClient): MonthlyReportPoster {
  return {
    async post(subscription, period) {
      const made = await runReport(
        deps,
        client,
        {
          scope: { kind: 'period', period },
          what: period.label,
          basename: `sms-report-${period.slug}`,
          detail: subscription.detail,
          inboundDetails: false,
          format: 'xlsx',
          userId: subscription.createdBy,
          channelId: subscription.channel,
          monthly: true,
        },
        { channelId: subscription.channel },
      );
      if (!made) throw new Error(`the report of ${period.label} was not made`);
    },
  };
}

/** Builds and shares the report; true once it is shared, false when it was not (its message says why). */
async function runReport(
  deps: SlackDeps,
  client: WebClient,
  request: ReportRequest,
  destination: Destination,
): Promise<boolean> {
  const log = deps.logger.child({
    user: request.userId,
    channel: request.channelId,
    report: request.basename,
  });
  const { what, userId, detail } = request;
  const asked = { userId, monthly: request.monthly === true };
  const posted = await client.chat.postMessage({
    channel: destination.channelId,
    ...(destination.threadTs ? { thread_ts: destination.threadTs } : {}),
    ...reportProgressMessage(asked, what, detail, 0, 0),
  });
  const ts = posted.ts;
  const update = async (message: { text: string; blocks: unknown[] }) => {
    if (!ts) return;
    await client.chat
      .update({ channel: destination.channelId, ts, text: message.text, blocks: message.blocks as never })
      .catch((error: unknown) => log.debug({ err: String(error) }, 'report progress not shown'));
  };
  try {
    // Loaded with the first report: production without reports never loads exceljs.
    const [
      { buildReport, timeZoneOf },
      { DeliveryLookup, realPace },
      { XlsxReportWriter },
      { CsvReportWriter },
    ] = await Promise.all([
      import('../reports/build.js'),
      import('../reports/delivery.js'),
      import('../reports/xlsx-writer.js'),
      import('../reports/csv-writer.js'),
    ]);
    const timeZone = timeZoneOf(request.scope);
    const xlsx = request.format === 'xlsx' ? new XlsxReportWriter(detail, timeZone) : undefined;
    const csv = request.format === 'csv' ? new CsvReportWriter(detail, timeZone) : undefined;
    await xlsx?.open();
    let lastShown = Date.now();
    const retentionDays = deps.settings.retentionDays;
    const built = await buildReport(
      {
        store: deps.store,
        gateway: deps.gateway,
        delivery: new DeliveryLookup(deps.gateway, realPace()),
        personName: personNamer(client),
        defaultCountry: deps.settings.defaultCountry,
        logger: log,
      },
      {
        scope: request.scope,
        detail,
        inboundDetails: request.inboundDetails,
        ...(retentionDays
          ? { retainedSince: new Date(deps.now().getTime() - retentionDays * 86_400_000) }
          : {}),
      },
      { addSend: (line) => (xlsx ?? csv)!.addSend(line) },
      async ({ done, total }) => {
        if (Date.now() - lastShown < PROGRESS_EVERY_MS || done >= total) return;
        lastShown = Date.now();
        await update(reportProgressMessage(asked, what, detail, done, total));
      },
    );
    const heading = {
      title: `SMS report: ${what}`,
      lines: [
        `Made ${formatTime(deps.now(), timeZone)} (${timeZone}) for Slack user ${userId}; every time in this file is in ${timeZone}.`,
        detail === 'full'
          ? 'Texts and numbers included: this file holds personal data.'
          : 'Counts only: texts and numbers need the sender or admin role.',
        'Delivery figures are as the gateway reported them when the report was made.',
        ...(built.unread.length > 0 ? [`Not read from the gateway: ${built.unread.join(', ')}.`] : []),
        ...(deps.settings.simulated ? ['SIMULATED gateway: nothing here was really sent.'] : []),
      ],
    };
    const bytes = xlsx ? await xlsx.finish(built, heading, timeZone) : await csv!.finish();
    const filename = `${request.basename}.${request.format}`;
    await shareFile(client, {
      bytes,
      filename,
      title: `SMS report: ${what}`,
      altText: `SMS report of ${what}`,
      channelId: destination.channelId,
      ...(destination.threadTs ? { threadTs: destination.threadTs } : {}),
    });
    await update(reportDoneMessage(asked, what, detail, built.sends, filename, built.unread));
    log.info({ sends: built.sends, bytes: bytes.length }, 'report shared');
    return true;
  } catch (error) {
    log.warn({ err: error instanceof Error ? error.message : String(error) }, 'report not made');
    await update(reportFailedMessage(asked, what, userMessageFor(error).replace(/^:\w+: /, '')));
    return false;
  }
}
