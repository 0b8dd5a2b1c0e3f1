import type { WebClient } from '@slack/web-api';
import { isCampaign, startCampaign } from '../sending/campaign.js';
import {
  type CampaignStarted,
  type ScheduledCampaignOutcome,
  startScheduledCampaign,
} from '../sending/scheduled-campaign.js';
import { executeSend, type SendOutcome, type SendRequest } from '../sending/send.js';
import { postCampaignCard } from './campaign-cards.js';
import { postCard, updateCard } from './delivery-cards.js';
import type { SlackDeps } from './deps.js';
import { sendPolicyOf } from './permissions.js';

export type FlowOutcome = SendOutcome | CampaignStarted;

/**
 * The one entry point of a confirmed send made from Slack: the compose modal's Send (or its confirmation),
 * and a scheduled send when it is due or when someone presses its Send now. It decides, here only, whether the
 * send is one gateway call or a campaign of chunks (more recipients than SUBMIT_CHUNK_SIZE), then:
 * - one call: runs the one send path (executeSend: checks at sending, outbox, one gateway call), then shows
 *   the result on the send's card: posted for a new send that went (or may have gone), brought up to date
 *   when the send already has one (a scheduled send's card says what happened, a refusal included);
 * - a campaign: starts it (a scheduled send is claimed and checked first, see scheduled-campaign.ts), posts
 *   its card, wakes the campaign runner, and turns a scheduled send's card into a pointer to it.
 * `beforeCard` lets the modal show the outcome first. A repeated request (`duplicate`) changes no card.
 */
export async function sendAndShow(
  deps: SlackDeps,
  client: WebClient,
  request: SendRequest,
  beforeCard?: (outcome: FlowOutcome) => Promise<void>,
): Promise<FlowOutcome> {
  const chunkSize = deps.settings.sending.submitChunkSize;
  if (isCampaign(request.plan, chunkSize) || request.scheduled?.asCampaign) {
    return campaignAndShow(deps, client, request, beforeCard);
  }
  const outcome = await executeSend({ ...deps, policy: sendPolicyOf(deps) }, request);
  if (beforeCard) await beforeCard(outcome);
  if (outcome.kind === 'duplicate') return outcome;
  const row = (await deps.store.outbox.get(outcome.row.id).catch(() => undefined)) ?? outcome.row;
  const goes = outcome.kind === 'submitted' || outcome.kind === 'unknown';
  if (row.messageTs || goes) {
    // A send taken for abandoned while its reply was slow, or a scheduled one, already has its card.
    const shown = row.messageTs
      ? updateCard(deps, client, row)
      : postCard(deps, client, row, request.threadTs);
    await shown.catch((error: unknown) => warnCard(deps, row.id, error));
  }
  if (outcome.kind === 'submitted') deps.nudgeTracker(row.id);
  return outcome;
}

function warnCard(deps: SlackDeps, outboxId: number, error: unknown): void {
  deps.logger.warn(
    { outboxId, err: error instanceof Error ? error.message : String(error) },
    'delivery card not posted',
  );
}

async function campaignAndShow(
  deps: SlackDeps,
  client: WebClient,
  request: SendRequest,
  beforeCard?: (outcome: FlowOutcome) => Promise<void>,
): Promise<FlowOutcome> {
  const chunkSize = deps.settings.sending.submitChunkSize;
  let outcome: ScheduledCampaignOutcome | CampaignStarted;
  if (request.scheduled) {
    outcome = await startScheduledCampaign({ ...deps, policy: sendPolicyOf(deps) }, request, chunkSize);
  } else {
    outcome = { kind: 'campaign', ...(await startCampaign(deps, request, chunkSize)) };
  }
  if (beforeCard) await beforeCard(outcome);
  if (outcome.kind === 'duplicate') return outcome;
  if (outcome.kind === 'campaign' && outcome.created) {
    await postCampaignCard(deps, client, outcome.campaign.id).catch((error: unknown) =>
      deps.logger.warn(
        { campaignId: outcome.campaign.id, err: error instanceof Error ? error.message : String(error) },
        'campaign card not posted',
      ),
    );
    deps.nudgeCampaigns?.();
  }
  // A scheduled send's card says it was refused, or that it went as this campaign.
  if (outcome.row?.messageTs) {
    const row = outcome.row;
    await updateCard(deps, client, row).catch((error: unknown) => warnCard(deps, row.id, error));
  }
  return outcome;
}
