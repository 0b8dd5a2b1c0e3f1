import type { App } from '@slack/bolt';
import { onBlockAction } from '../action-routes.js';
import type { SlackDeps } from '../deps.js';
import { userMessageFor } from '../errors.js';
import { denialText, roleOf, satisfies } from '../permissions.js';
import { prepareReport, type ReportRequest } from '../report-runner.js';
import { campaignReference } from '../ui/campaign.js';
import { REPORT_ACTIONS } from '../ui/sending-report.js';
import { type ActionArgs, actionValue, tellUser } from './batch.js';

/** What the button's card is about: one send by its outbox id, or a campaign by its id. */
async function scopeOf(
  deps: SlackDeps,
  kind: keyof typeof REPORT_ACTIONS,
  id: number,
): Promise<Pick<ReportRequest, 'scope' | 'what' | 'basename'> | undefined> {
  const timeZone = deps.settings.reportTimeZone;
  if (kind === 'campaign') {
    const campaign = await deps.store.campaigns.get(id);
    if (!campaign) return undefined;
    const ref = campaignReference(campaign);
    return {
      scope: { kind: 'campaign', campaignId: id, label: `campaign ${ref}`, timeZone },
      what: `campaign ${ref}`,
      basename: `sms-report-campaign-${ref}`,
    };
  }
  const row = await deps.store.outbox.get(id);
  if (!row) return undefined;
  const name = row.messageId ? `batch ${row.messageId}` : `send S-${row.id}`;
  return {
    scope: { kind: 'send', outboxId: id, label: name, timeZone },
    what: name,
    basename: `sms-report-${name.replace(/\s+/g, '-')}`,
  };
}

/**
 * The Report button of a delivery card or a campaign card: the report of that send alone, with the clicker's role
 * deciding the detail as for `/sms report`. Counts only (a viewer) is shared where the card is (in its thread when
 * it is in one); with texts and numbers it goes to the clicker's DM with the app, and the card's conversation is
 * told so.
 */
function reportHandler(deps: SlackDeps, kind: keyof typeof REPORT_ACTIONS) {
  return async function handleReportButton(args: ActionArgs): Promise<void> {
    await args.ack();
    const userId = args.body.user.id;
    const channelId = args.body.channel?.id;
    try {
      const role = await roleOf(deps, userId);
      if (!satisfies(role, 'viewer')) return void (await tellUser(args, denialText('viewer', role)));
      const id = Number(actionValue(args));
      const found = Number.isSafeInteger(id) && channelId ? await scopeOf(deps, kind, id) : undefined;
      if (!found || !channelId)
        return void (await tellUser(args, ':warning: smsops no longer knows the send of this card.'));
      const threadTs = (args.body.message as { thread_ts?: string } | undefined)?.thread_ts;
      const work = await prepareReport(deps, args.client, {
        ...found,
        detail: satisfies(role, 'sender') ? 'full' : 'counts',
        inboundDetails: false,
        format: 'xlsx',
        userId,
        channelId,
        ...(threadTs ? { threadTs } : {}),
      });
      await work();
    } catch (error) {
      deps.logger.warn(
        { err: error instanceof Error ? error.message : String(error) },
        'report button failed',
      );
      await tellUser(args, userMessageFor(error)).catch(() => undefined);
    }
  };
}

export function registerReportActions(app: App, deps: SlackDeps): void {
  onBlockAction(app, REPORT_ACTIONS.send, reportHandler(deps, 'send'));
  onBlockAction(app, REPORT_ACTIONS.campaign, reportHandler(deps, 'campaign'));
}
