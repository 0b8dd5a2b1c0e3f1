import { cancelCampaign } from '../../sending/campaign.js';
import type { Campaign } from '../../store/index.js';
import { updateCampaignCard } from '../campaign-cards.js';
import type { SlackDeps } from '../deps.js';
import { userMessageFor } from '../errors.js';
import { denialText, mayCancel, roleOf, satisfies } from '../permissions.js';
import { campaignReference } from '../ui/campaign.js';
import { formatCount } from '../ui/format.js';
import { type ActionArgs, actionValue, allowedOrTold, tellUser } from './batch.js';

/** At most this many chunks are polled at once on Refresh; the tracker's own rounds reach the rest. */
const REFRESH_POLLS = 10;

/** The campaign a card's button names, or a word to the user when smsops no longer knows it. */
async function campaignOf(deps: SlackDeps, args: ActionArgs): Promise<Campaign | undefined> {
  const id = Number(actionValue(args));
  const campaign = Number.isSafeInteger(id) ? await deps.store.campaigns.get(id) : undefined;
  if (!campaign) await tellUser(args, ':warning: This card belongs to a campaign smsops no longer knows.');
  return campaign;
}

/** Checked on every click: anyone in the channel can press the buttons. The campaign's sender, or an admin. */
async function mayAct(deps: SlackDeps, args: ActionArgs, campaign: Campaign, what: string): Promise<boolean> {
  const userId = args.body.user.id;
  const role = await roleOf(deps, userId);
  if (!satisfies(role, 'sender')) {
    await tellUser(args, denialText('sender', role));
    return false;
  }
  if (!mayCancel(role, userId, campaign.slackUser)) {
    await tellUser(
      args,
      `:no_entry: Only the sender of campaign ${campaignReference(campaign)} (<@${campaign.slackUser}>) or an admin may ${what} it.`,
    );
    return false;
  }
  return true;
}

async function refreshCard(deps: SlackDeps, args: ActionArgs, campaignId: number): Promise<void> {
  await updateCampaignCard(deps, args.client, campaignId).catch((error: unknown) =>
    deps.logger.warn(
      { campaignId, err: error instanceof Error ? error.message : String(error) },
      'campaign card not updated',
    ),
  );
}

export function campaignCancelHandler(deps: SlackDeps) {
  return async function handleCampaignCancel(args: ActionArgs): Promise<void> {
    await args.ack();
    const campaign = await campaignOf(deps, args);
    if (!campaign || !(await mayAct(deps, args, campaign, 'cancel'))) return;
    const userId = args.body.user.id;
    let result: Awaited<ReturnType<typeof cancelCampaign>>;
    try {
      result = await cancelCampaign(deps, campaign.id, userId);
    } catch (error) {
      await tellUser(args, userMessageFor(error));
      return;
    }
    if (result.changed) {
      await deps.store.audit.append({
        actor: userId,
        action: 'campaign_cancel',
        target: `campaign ${campaign.id}`,
        details: { chunksCancelled: result.cancelled, chunksNotCancelled: result.failed },
        at: deps.now(),
      });
      deps.logger.info({ campaignId: campaign.id, user: userId, ...result }, 'campaign cancelled');
    }
    await refreshCard(deps, args, campaign.id);
    await tellUser(
      args,
      `:no_entry_sign: Campaign ${campaignReference(campaign)} cancelled: no further chunk is sent; ${formatCount(result.cancelled)} sent chunk(s) cancelled at the gateway.` +
        (result.failed > 0
          ? ` ${formatCount(result.failed)} could not be cancelled now (the gateway did not answer): press Cancel again.`
          : ''),
    );
  };
}

export function campaignSendRestHandler(deps: SlackDeps) {
  return async function handleCampaignSendRest(args: ActionArgs): Promise<void> {
    await args.ack();
    const campaign = await campaignOf(deps, args);
    if (!campaign || !(await mayAct(deps, args, campaign, 'send the rest of'))) return;
    const userId = args.body.user.id;
    if (!(await deps.store.campaigns.resume(campaign.id, userId, deps.now()))) {
      await tellUser(
        args,
        `:information_source: Campaign ${campaignReference(campaign)} is ${campaign.state === 'stopped' || campaign.state === 'cancelled' ? 'already being sent again' : campaign.state}: there is nothing to send again.`,
      );
      return;
    }
    await deps.store.audit.append({
      actor: userId,
      action: 'campaign_send_rest',
      target: `campaign ${campaign.id}`,
      details: { round: campaign.round + 1 },
      at: deps.now(),
    });
    deps.logger.info({ campaignId: campaign.id, user: userId }, 'campaign: the rest is sent');
    await refreshCard(deps, args, campaign.id);
    deps.nudgeCampaigns?.();
    await tellUser(
      args,
      `:arrow_forward: Campaign ${campaignReference(campaign)}: the chunks never sent${campaign.state === 'cancelled' ? ' before the cancel' : ''} go now. Chunks that were sent, or may have been, are not sent again.`,
    );
  };
}

export function campaignRefreshHandler(deps: SlackDeps) {
  return async function handleCampaignRefresh(args: ActionArgs): Promise<void> {
    await args.ack();
    if (!(await allowedOrTold(deps, args, 'viewer'))) return;
    const id = Number(actionValue(args));
    if (!Number.isSafeInteger(id)) return;
    // The chunks still being delivered are asked about now (a few, oldest first: each is one QueryMulti);
    // the tracker brings the card up to date as their answers come.
    const open = (await deps.store.campaigns.chunks(id)).filter(
      (c) => c.state === 'submitted' && !c.final && c.messageId,
    );
    for (const chunk of open.slice(0, REFRESH_POLLS)) deps.nudgeTracker(chunk.outboxId);
    await refreshCard(deps, args, id);
  };
}
