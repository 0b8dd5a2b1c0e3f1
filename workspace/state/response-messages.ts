import { checkMessageContent } from '../block-kit/message-limits.js';
import { SlackApiError } from '../web-api/api-error.js';
import type { EphemeralMessage, SlackMessage } from './model.js';
import type { ResponseTarget } from './response-urls.js';
import type { WorkspaceState } from './workspace-state.js';

export type ResponseOutcome =
  | { kind: 'deleted' }
  | { kind: 'replaced' | 'posted'; message: SlackMessage }
  | { kind: 'ephemeral'; message: EphemeralMessage };

/**
 * What Slack does with a message sent to a response_url, or returned in a slash-command ack: delete or replace the
 * message the interaction came from, post in the channel (`in_channel`), or show only to the user (the default).
 */
export function applyResponseMessage(
  state: WorkspaceState,
  target: ResponseTarget,
  body: Record<string, unknown>,
): ResponseOutcome {
  const { messages, identity } = state;
  const original = target.messageTs;
  if (isTrue(body.delete_original)) {
    const removed = original
      ? target.ephemeral
        ? messages.deleteEphemeral(target.channelId, original)
        : messages.delete(target.channelId, original)
      : undefined;
    if (!removed) throw new SlackApiError('message_not_found');
    return { kind: 'deleted' };
  }
  // bolt-js#2867: the same blocks that chat.postMessage refused as msg_blocks_too_long went through respond().
  const content = checkMessageContent(body, { blocksTotal: false });
  if (isTrue(body.replace_original) && original) {
    const replaced = target.ephemeral
      ? messages.replaceEphemeral(target.channelId, original, content)
      : messages.replace(target.channelId, original, content, identity.botUserId);
    if (!replaced) throw new SlackApiError('message_not_found');
    return { kind: 'replaced', message: replaced };
  }
  const author = {
    user: identity.botUserId,
    bot_id: identity.botId,
    app_id: identity.appId,
    team: identity.teamId,
  };
  const threadTs = typeof body.thread_ts === 'string' ? body.thread_ts : target.threadTs;
  const fields = {
    channel: target.channelId,
    ...author,
    text: content.text ?? '',
    ...(content.blocks ? { blocks: content.blocks } : {}),
    ...(content.attachments ? { attachments: content.attachments } : {}),
    ...(threadTs ? { thread_ts: threadTs } : {}),
  };
  if (body.response_type === 'in_channel') return { kind: 'posted', message: messages.post(fields) };
  return { kind: 'ephemeral', message: messages.postEphemeral({ ...fields, recipient: target.userId }) };
}

function isTrue(value: unknown): boolean {
  return value === true || value === 'true';
}
