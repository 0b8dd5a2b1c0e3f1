import type { WebClient } from '@slack/web-api';
import type { CampaignReporter } from '../jobs/campaigns.js';
import { campaignProgress } from '../sending/campaign.js';
import type { Campaign } from '../store/index.js';
import type { CardUpdater } from './card-updates.js';
import { CARD_GRACE_MS, postCardWhereSent } from './delivery-cards.js';
import type { SlackDeps } from './deps.js';
import { campaignCard } from './ui/campaign.js';

async function cardOf(deps: SlackDeps, campaign: Campaign) {
  const progress = campaignProgress(campaign, await deps.store.campaigns.chunks(campaign.id));
  return campaignCard(campaign, progress, {
    reportTimeZone: deps.settings.reportTimeZone,
    simulated: deps.settings.simulated,
  });
}

/**
 * Posts a campaign's one card where the send was made (a thread for replies), joining a public channel if
 * needed, or in the sender's DM when the conversation is closed to the bot, as delivery cards do.
 */
export async function postCampaignCard(
  deps: SlackDeps,
  client: WebClient,
  campaignId: number,
): Promise<void> {
  const campaign = await deps.store.campaigns.get(campaignId);
  if (!campaign || campaign.messageTs) return;
  const card = await cardOf(deps, campaign);
  const result = await postCardWhereSent(client, campaign, card);
  if (result.channel && result.ts)
    await deps.store.campaigns.setCardMessage(campaign.id, result.channel, result.ts);
}

/** Brings the card up to date at once (after a click on it); the runner's updates go through the pace. */
export async function updateCampaignCard(
  deps: SlackDeps,
  client: WebClient,
  campaignId: number,
): Promise<void> {
  const campaign = await deps.store.campaigns.get(campaignId);
  if (!campaign?.messageTs) return;
  const card = await cardOf(deps, campaign);
  await client.chat.update({ channel: campaign.channel, ts: campaign.messageTs, ...card });
}

/**
 * What the campaign runner and the delivery tracker call when a campaign changed: its card is updated through
 * the card updater, so all cards together stay within chat.update's tier, and each card is built from the store
 * when its turn comes (its latest state, however many changes came meanwhile). A card never posted (a crash
 * right after the start, or a campaign started by a schedule) is posted once the starting flow is long over.
 */
export function campaignReporter(
  deps: SlackDeps,
  client: WebClient,
  cards: Pick<CardUpdater, 'updateCard'>,
  graceMs = CARD_GRACE_MS,
): CampaignReporter {
  return {
    changed: async (campaignId) => {
      const campaign = await deps.store.campaigns.get(campaignId);
      if (!campaign) return;
      if (campaign.messageTs) {
        cards.updateCard(`campaign:${campaignId}`, () => updateCampaignCard(deps, client, campaignId));
        return;
      }
      if (deps.now().getTime() - campaign.createdAt.getTime() > graceMs) {
        await postCampaignCard(deps, client, campaignId);
      }
    },
  };
}
