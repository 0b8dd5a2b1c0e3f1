import type { WebClient } from '@slack/web-api';
import { UserInputError } from './errors.js';

/** What the person is told where the bot cannot see the conversation, whatever kind it is. */
export const CANNOT_SEE_TEXT =
  'I cannot post in this conversation. In a private channel, `/invite @smsops` first, then try again; ' +
  'a direct message or group DM between people is closed to apps, so run this in a channel I am in (or in my DM).';

export const ARCHIVED_TEXT = 'This channel is archived, so nothing can be posted in it. Use another channel.';

const INVITE_TEXT = 'I am not in this private channel: `/invite @smsops` first, then try again.';

interface ConversationInfo {
  is_im?: boolean;
  is_mpim?: boolean;
  is_member?: boolean;
  is_private?: boolean;
  is_archived?: boolean;
  is_channel?: boolean;
}

/**
 * Makes sure the bot can post in a conversation before something that posts there later, without a person at hand
 * to fix it, is accepted (an inbound subscription, a digest). The conversation's kind is read from Slack, not from
 * its id: private channels have C… ids too. A public channel is joined; anywhere else the bot must already be in
 * it. Throws a UserInputError that says what to do.
 */
export async function ensureBotCanPost(
  client: WebClient,
  channelId: string,
  /** Set where only a channel will do (something a team must see): the refusal for a DM or a group DM. */
  options: { channelsOnly?: string } = {},
): Promise<void> {
  let channel: ConversationInfo | undefined;
  try {
    channel = (await client.conversations.info({ channel: channelId })).channel as
      | ConversationInfo
      | undefined;
  } catch (error) {
    const code = (error as { data?: { error?: string } }).data?.error;
    if (code === 'channel_not_found') throw new UserInputError(CANNOT_SEE_TEXT);
    throw error;
  }
  if (!channel) throw new UserInputError(CANNOT_SEE_TEXT);
  if (options.channelsOnly && (channel.is_im || channel.is_mpim))
    throw new UserInputError(options.channelsOnly);
  if (channel.is_archived) throw new UserInputError(ARCHIVED_TEXT);
  // A bot sees only its own DMs, and only the group DMs it is in.
  if (channel.is_im || channel.is_member) return;
  if (channel.is_private || !channel.is_channel) throw new UserInputError(INVITE_TEXT);
  await client.conversations.join({ channel: channelId });
}
