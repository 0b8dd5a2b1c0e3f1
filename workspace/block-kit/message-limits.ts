import type { AnyBlock } from '../state/model.js';
import { SlackApiError } from '../web-api/api-error.js';
import { checkBlocks } from './block-kit-limits.js';

export const MAX_MESSAGE_TEXT = 40_000;

/**
 * An observed figure, not a documented limit. Slack refuses some messages whose blocks are long in total
 * (`msg_blocks_too_long`) although every block is within its own documented limit; Slack documents no total for
 * blocks in general (only 12,000 characters across the markdown blocks of one payload,
 * docs.slack.dev/reference/block-kit/blocks/markdown-block). What is known comes from two bolt-js issue threads:
 * - github.com/slackapi/bolt-js/issues/2509 (chat.postMessage through app.client): markdown-only posts failed above
 *   13,297 characters, less with a divider added; Slack's staff answered "12,000 text characters with a buffer for
 *   block containers".
 * - github.com/slackapi/bolt-js/issues/2867 (chat.postMessage): refused at 11,341 characters of `text` summed over
 *   rich_text, section, header and divider blocks, so more than text counts; the same blocks sent with respond()
 *   (a response_url) went through.
 * So it is reported on chat.postMessage only, and is known not to apply to response_url. The workspace applies it to
 * chat.postMessage, chat.postEphemeral, chat.update and the blocks of files.completeUploadExternal (nothing is
 * reported about those either way; refusing there keeps the bot's messages within what chat.postMessage takes) and
 * not to response_url (response-messages.ts).
 * It counts every string in the blocks (text, button values, urls, ids), all but `type` and `style`, and refuses
 * above 12,000: below both observed refusals, so a message it takes is one Slack was seen to take.
 */
export const MAX_BLOCKS_CHARACTERS = 12_000;
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
  options: { allowEmpty?: boolean; blocksTotal?: boolean } = {},
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
    const total = options.blocksTotal ?? true;
    if (total && blocksCharacters(blocks) > MAX_BLOCKS_CHARACTERS)
      throw new SlackApiError('msg_blocks_too_long');
  }
  return {
    ...(text !== undefined ? { text } : {}),
    ...(blocks !== undefined ? { blocks: blocks as AnyBlock[] } : {}),
    ...(attachments !== undefined ? { attachments: attachments as Record<string, unknown>[] } : {}),
  };
}

const UNCOUNTED_KEYS = new Set(['type', 'style']);

/** The characters of every string in a blocks tree, names of types and styles aside. */
export function blocksCharacters(value: unknown, key = ''): number {
  if (typeof value === 'string') return UNCOUNTED_KEYS.has(key) ? 0 : value.length;
  if (Array.isArray(value)) return value.reduce<number>((sum, v) => sum + blocksCharacters(v), 0);
  if (typeof value !== 'object' || value === null) return 0;
  return Object.entries(value).reduce((sum, [k, v]) => sum + blocksCharacters(v, k), 0);
}
