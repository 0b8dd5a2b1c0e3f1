import type { KnownBlock } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import type { OutboxRow } from '../store/index.js';
import type { CardUpdater } from './card-updates.js';
import type { SlackDeps } from './deps.js';
import { withRetryAfter } from './retry-after.js';
import { type CardOptions, cardMovedText, deliveryCard } from './ui/card.js';

function slackError(error: unknown): string | undefined {
  return (error as { data?: { error?: string } }).data?.error;
}

type CardMessage = { text: string; blocks: KnownBlock[] };

/**
 * Posts a card where the send was made: the channel (a thread for replies), joining a public channel first
 * if needed; failing that, the sender's DM, so the card is never lost. Delivery and campaign cards alike.
 */
export async function postCardWhereSent(
  client: WebClient,
  where: { channel: string; threadTs?: string | null; slackUser: string },
  card: CardMessage,
): Promise<{ channel?: string; ts?: string }> {
  const post = (target: string, thread?: string | null) =>
    withRetryAfter(() =>
      client.chat.postMessage({
        channel: target,
        ...card,
        ...(thread ? { thread_ts: thread } : {}),
        unfurl_links: false,
      }),
    );
  try {
    return await post(where.channel, where.threadTs);
  } catch (error) {
    const code = slackError(error);
    if (code === 'not_in_channel' && where.channel.startsWith('C')) {
      await client.conversations.join({ channel: where.channel });
      return await post(where.channel, where.threadTs);
    }
    if (code === 'not_in_channel' || code === 'channel_not_found') {
      // Said privately, once, with what to do: the card itself is rebuilt at every update.
      await withRetryAfter(() =>
        client.chat.postMessage({ channel: where.slackUser, text: cardMovedText() }),
      );
      return await post(where.slackUser);
    }
    throw error;
  }
}

/** What a delivery card is drawn with, from the settings. */
function cardOptionsOf(deps: SlackDeps): CardOptions {
  return {
    reportTimeZone: deps.settings.reportTimeZone,
    simulated: deps.settings.simulated,
    graceMinutes: deps.settings.scheduleGraceMinutes,
    chunkSize: deps.settings.sending.submitChunkSize,
    chunkIntervalMs: deps.settings.sending.chunkIntervalMs,
  };
}

/** Posts the delivery card of a send where it was made (see postCardWhereSent). */
export async function postCard(
  deps: SlackDeps,
  client: WebClient,
  row: OutboxRow,
  threadTs?: string,
): Promise<void> {
  const card = deliveryCard(row, cardOptionsOf(deps));
  const result = await postCardWhereSent(
    client,
    { channel: row.channel ?? row.slackUser, threadTs, slackUser: row.slackUser },
    card,
  );
  if (result.channel && result.ts) await deps.store.outbox.setCardMessage(row.id, result.channel, result.ts);
}

export async function updateCard(deps: SlackDeps, client: WebClient, row: OutboxRow): Promise<void> {
  if (!row.channel || !row.messageTs) return;
  const card = deliveryCard(row, cardOptionsOf(deps));
  await client.chat.update({ channel: row.channel, ts: row.messageTs, ...card });
}

/** How long the send flow may take to post a delivery card before the tracker posts a missing one. */
export const CARD_GRACE_MS = 120_000;

/**
 * What the delivery tracker does after each recorded change: update the card, or post one for a send
 * whose card was never posted (a crash right after Submit). The send flow posts the card itself, waiting
 * out Slack's rate limits if it must, so a missing card is only posted once that flow is long over.
 */
export function cardOnProgress(
  deps: SlackDeps,
  client: WebClient,
  cards: Pick<CardUpdater, 'update'>,
  graceMs = CARD_GRACE_MS,
): (row: OutboxRow) => Promise<void> {
  return async (row) => {
    // Updates are coalesced and paced within chat.update's tier.
    if (row.messageTs) {
      cards.update(row);
      return;
    }
    const age = deps.now().getTime() - (row.submittedAt ?? row.createdAt).getTime();
    if (age > graceMs) await postCard(deps, client, row);
  };
}
