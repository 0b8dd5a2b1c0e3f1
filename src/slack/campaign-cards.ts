import type { WebClient } from '@slack/web-api';
import type { CampaignReporter } from '../jobs/campaigns.js';
import { campaignProgress } from '../sending/campaign.js';
import type { Campaign } from '../store/index.js';
import type { CardUpdater } from './card-updates.js';
import { CARD_GRACE_MS } from './delivery-cards.js';
import type { SlackDeps } from './deps.js';
import { withRetryAfter } from './retry-after.js';
import { campaignCard } from './ui/campaign.js';
import { cardMovedText } from './ui/card.js';

function slackError(error: unknown): string | undefined {
  return (error as { data?: { error?: string } }).data?.error;
}

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
  const post = (target: string, thread?: string | null) =>
    withRetryAfter(() =>
      client.chat.postMessage({
        channel: target,
        ...card,
        ...(thread ? { thread_ts: thread } : {}),
        unfurl_links: false,
      }),
    );
  let result: Awaited<ReturnType<typeof post>>;
  try {
    result = await post(campaign.channel, campaign.threadTs);
  } catch (error) {
    const code = slackError(error);
    if (code === 'not_in_channel' && campaign.channel.startsWith('C')) {
      await client.conversations.join({ channel: campaign.channel });
      result = await post(campaign.channel, campaign.threadTs);
    } else if (code === 'not_in_channel' || code === 'channel_not_found') {
      await withRetryAfter(() =>
        client.chat.postMessage({ channel: campaign.slackUser, text: cardMovedText() }),
      );
      result = await post(campaign.slackUser);
    } else {
      throw error;
    }
  }
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
