import { SlackApiError } from './api-error.js';
import { checkBlocks } from './block-kit-limits.js';
import type { AnyBlock } from './model.js';

export const MAX_MESSAGE_TEXT = 40_000;
export const MAX_ATTACHMENTS = 100;

export interface MessageContent {
  text?: string;
  blocks?: AnyBlock[];
  attachments?: Record<string, unknown>[];
}

/**
 * The checks chat.postMessage, chat.postEphemeral, chat.update and response_url share; returns the content in
 * typed form, or throws with the error name Slack gives.
 */
export function checkMessageContent(
  args: Record<string, unknown>,
  options: { allowEmpty?: boolean } = {},
): MessageContent {
  const { text, blocks, attachments } = args;
  if (text !== undefined && typeof text !== 'string') throw new SlackApiError('invalid_arguments');
  if (blocks !== undefined && !Array.isArray(blocks)) throw new SlackApiError('invalid_blocks_format');
  if (attachments !== undefined && !Array.isArray(attachments))
    throw new SlackApiError('invalid_attachments');
  const hasBlocks = Array.isArray(blocks) && blocks.length > 0;
  const hasAttachments = Array.isArray(attachments) && attachments.length > 0;
  if (!options.allowEmpty && !text && !hasBlocks && !hasAttachments) throw new SlackApiError('no_text');
  if (typeof text === 'string' && text.length > MAX_MESSAGE_TEXT) throw new SlackApiError('msg_too_long');
  if (Array.isArray(attachments) && attachments.length > MAX_ATTACHMENTS) {
    throw new SlackApiError('too_many_attachments');
  }
  if (Array.isArray(blocks)) {
    const problems = checkBlocks(blocks, 'message', '/blocks');
    if (problems.length > 0) throw new SlackApiError('invalid_blocks', problems);
  }
  return {
    ...(text !== undefined ? { text } : {}),
    ...(blocks !== undefined ? { blocks: blocks as AnyBlock[] } : {}),
    ...(attachments !== undefined ? { attachments: attachments as Record<string, unknown>[] } : {}),
  };
}
