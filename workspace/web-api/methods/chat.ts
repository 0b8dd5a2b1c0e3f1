import { checkMessageContent } from '../../block-kit/message-limits.js';
import { SlackApiError } from '../api-error.js';
import { permalink } from '../presenters.js';
import {
  botAuthor,
  type MethodContext,
  type MethodHandler,
  optionalString,
  postableConversation,
  requiredString,
  visibleConversation,
} from './context.js';

function metadataOf(args: Record<string, unknown>): { metadata?: Record<string, unknown> } {
  const metadata = args.metadata;
  return typeof metadata === 'object' && metadata !== null
    ? { metadata: metadata as Record<string, unknown> }
    : {};
}

const postMessage: MethodHandler = (ctx) => {
  const channel = postableConversation(ctx, optionalString(ctx.args, 'channel'));
  const content = checkMessageContent(ctx.args);
  const threadTs = optionalString(ctx.args, 'thread_ts');
  const message = ctx.state.messages.post({
    channel: channel.id,
    ...botAuthor(ctx),
    text: content.text ?? '',
    ...(content.blocks ? { blocks: content.blocks } : {}),
    ...(content.attachments ? { attachments: content.attachments } : {}),
    ...metadataOf(ctx.args),
    ...(threadTs ? { thread_ts: threadTs } : {}),
  });
  const { channel: _omit, ...shown } = message;
  return { channel: channel.id, ts: message.ts, message: shown };
};

const postEphemeral: MethodHandler = (ctx) => {
  const channel = postableConversation(ctx, optionalString(ctx.args, 'channel'));
  const userId = requiredString(ctx.args, 'user', 'user_not_found');
  if (!ctx.state.directory.user(userId)) throw new SlackApiError('user_not_found');
  if (!channel.members.has(userId)) throw new SlackApiError('user_not_in_channel');
  const content = checkMessageContent(ctx.args);
  const threadTs = optionalString(ctx.args, 'thread_ts');
  const message = ctx.state.messages.postEphemeral({
    channel: channel.id,
    recipient: userId,
    ...botAuthor(ctx),
    text: content.text ?? '',
    ...(content.blocks ? { blocks: content.blocks } : {}),
    ...(content.attachments ? { attachments: content.attachments } : {}),
    ...(threadTs ? { thread_ts: threadTs } : {}),
  });
  return { message_ts: message.ts };
};

/**
 * Slack only lets an app edit or delete what it posted itself, named by the conversation's id: a user id, which
 * chat.postMessage takes for the DM, names no conversation here (channel_not_found).
 */
function ownMessage(ctx: MethodContext, refusal: string) {
  const ref = optionalString(ctx.args, 'channel');
  if (ref !== undefined && ctx.state.directory.user(ref)) throw new SlackApiError('channel_not_found');
  const channel = visibleConversation(ctx, ref);
  const ts = requiredString(ctx.args, 'ts', 'message_not_found');
  const message = ctx.state.messages.find(channel.id, ts);
  if (!message) throw new SlackApiError('message_not_found');
  if (message.bot_id !== ctx.state.identity.botId) throw new SlackApiError(refusal);
  return { channel, message };
}

const update: MethodHandler = (ctx) => {
  const { channel, message } = ownMessage(ctx, 'cant_update_message');
  const content = checkMessageContent(ctx.args);
  const updated = ctx.state.messages.update(channel.id, message.ts, content, ctx.state.identity.botUserId)!;
  const { channel: _omit, ...shown } = updated;
  return { channel: channel.id, ts: updated.ts, text: updated.text, message: shown };
};

const deleteMessage: MethodHandler = (ctx) => {
  const { channel, message } = ownMessage(ctx, 'cant_delete_message');
  ctx.state.messages.delete(channel.id, message.ts);
  return { channel: channel.id, ts: message.ts };
};

const getPermalink: MethodHandler = (ctx) => {
  const channel = visibleConversation(ctx, optionalString(ctx.args, 'channel'));
  const ts = requiredString(ctx.args, 'message_ts', 'message_not_found');
  const message = ctx.state.messages.find(channel.id, ts);
  if (!message) throw new SlackApiError('message_not_found');
  return { channel: channel.id, permalink: permalink(ctx.baseUrl, channel.id, ts, message.thread_ts) };
};

export const chatMethods: Record<string, MethodHandler> = {
  'chat.postMessage': postMessage,
  'chat.postEphemeral': postEphemeral,
  'chat.update': update,
  'chat.delete': deleteMessage,
  'chat.getPermalink': getPermalink,
};
