import { imIdFor } from '../../state/directory.js';
import type { Channel } from '../../state/model.js';
import { SlackApiError } from '../api-error.js';
import { presentChannel } from '../presenters.js';
import { flag, type MethodHandler, optionalString, visibleConversation } from './context.js';

const join: MethodHandler = (ctx) => {
  const channel = visibleConversation(ctx, optionalString(ctx.args, 'channel'));
  const botUserId = ctx.state.identity.botUserId;
  if (channel.kind !== 'public') throw new SlackApiError('method_not_supported_for_channel_type');
  if (channel.isArchived) throw new SlackApiError('is_archived');
  if (channel.members.has(botUserId)) {
    return {
      channel: presentChannel(channel, botUserId),
      warning: 'already_in_channel',
      response_metadata: { warnings: ['already_in_channel'] },
    };
  }
  ctx.state.directory.join(channel.id, botUserId);
  return { channel: presentChannel(channel, botUserId) };
};

const info: MethodHandler = (ctx) => {
  const channel = visibleConversation(ctx, optionalString(ctx.args, 'channel'));
  return { channel: presentChannel(channel, ctx.state.identity.botUserId) };
};

const TYPE_OF_KIND: Record<Channel['kind'], string> = {
  public: 'public_channel',
  private: 'private_channel',
  mpim: 'mpim',
  im: 'im',
};

/** One page only: the seeded workspace is small, so next_cursor is always empty. */
const list: MethodHandler = (ctx) => {
  const botUserId = ctx.state.identity.botUserId;
  const types = new Set(
    (optionalString(ctx.args, 'types') ?? 'public_channel').split(',').map((t) => t.trim()),
  );
  const excludeArchived = flag(ctx.args, 'exclude_archived');
  const channels = ctx.state.directory
    .channels()
    .filter((c) => types.has(TYPE_OF_KIND[c.kind]))
    .filter((c) => c.kind === 'public' || c.members.has(botUserId))
    .filter((c) => !(excludeArchived && c.isArchived))
    .map((c) => presentChannel(c, botUserId));
  return { channels, response_metadata: { next_cursor: '' } };
};

/**
 * conversations.open (docs.slack.dev/reference/methods/conversations.open): the bot's direct message with one
 * person, created on first use, or a DM the bot is in resumed by its id. The answer carries the conversation's id
 * only, as Slack's does without return_im. Several users (a group DM) are not implemented here.
 */
const open: MethodHandler = (ctx) => {
  const { directory, identity } = ctx.state;
  const channelRef = optionalString(ctx.args, 'channel');
  const usersArg = optionalString(ctx.args, 'users');
  if (channelRef !== undefined && usersArg === undefined) {
    const channel = directory.resolve(channelRef);
    if (!channel || !channel.members.has(identity.botUserId)) throw new SlackApiError('channel_not_found');
    if (channel.kind !== 'im' && channel.kind !== 'mpim') {
      throw new SlackApiError('method_not_supported_for_channel_type');
    }
    return { channel: { id: channel.id }, already_open: true, no_op: true };
  }
  if (usersArg === undefined) throw new SlackApiError('users_list_not_supplied');
  const ids = usersArg
    .split(',')
    .map((id) => id.trim())
    .filter((id) => id !== '');
  if (ids.length === 0) throw new SlackApiError('users_list_not_supplied');
  if (ids.length > 8) throw new SlackApiError('too_many_users');
  if (ids.length > 1)
    throw new Error('conversations.open with several users (a group DM) is not implemented');
  const user = directory.user(ids[0]!);
  if (!user || user.isBot) throw new SlackApiError('user_not_found');
  const existing = directory.channel(imIdFor(user.id));
  if (existing) return { channel: { id: existing.id }, already_open: true, no_op: true };
  const created = directory.addIm(user.id, identity.botUserId, Math.floor(ctx.state.clock() / 1000));
  return { channel: { id: created.id } };
};

export const conversationMethods: Record<string, MethodHandler> = {
  'conversations.open': open,
  'conversations.join': join,
  'conversations.info': info,
  'conversations.list': list,
};
