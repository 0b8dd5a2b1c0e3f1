import type { KnownBlock } from '@slack/types';
import { formatForPeople } from '../../sms/index.js';
import { LIMITS } from './blocks.js';
import { escapeMrkdwn, truncate } from './format.js';

/** The block of the Reply modal that shows the SMS being answered; rebuilt views carry it over by this id. */
export const REPLYING_TO_BLOCK = 'replying_to';

/**
 * The quoted SMS of an inbound post's section: its `>` lines, already escaped by the post. The post is the
 * one place the text is kept (the store keeps no inbound texts), so the Reply button reads it from there.
 */
export function quotedSmsOf(sectionText: string | undefined): string | undefined {
  const lines = (sectionText ?? '').split('\n').filter((line) => line.startsWith('>'));
  return lines.length > 0 ? lines.join('\n') : undefined;
}

/** What the Reply modal shows first: whom it answers and what they wrote. */
export function replyingToText(msisdn: string, quoted: string | undefined): string {
  const head = `*Replying to ${escapeMrkdwn(formatForPeople(msisdn))}*${quoted ? '' : ' (their SMS is in the thread)'}`;
  return truncate(quoted ? `${head}\n${quoted}` : head, LIMITS.sectionText);
}

export function replyingToBlock(text: string): KnownBlock {
  return { type: 'section', block_id: REPLYING_TO_BLOCK, text: { type: 'mrkdwn', text } };
}

/** The text of a view's replying-to block, so a rebuilt modal keeps it. */
export function replyingToOf(blocks: readonly { block_id?: string }[]): string | undefined {
  const block = blocks.find((b) => b.block_id === REPLYING_TO_BLOCK) as
    | { text?: { text?: unknown } }
    | undefined;
  return typeof block?.text?.text === 'string' ? block.text.text : undefined;
}
