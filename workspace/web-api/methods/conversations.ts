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

export const conversationMethods: Record<string, MethodHandler> = {
  'conversations.join': join,
  'conversations.info': info,
  'conversations.list': list,
};
