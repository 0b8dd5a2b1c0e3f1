import type { KnownBlock } from '@slack/types';
import type { InboundMessage } from '../../gateway/index.js';
import { formatForPeople } from '../../sms/index.js';
import { INBOX_DAYS } from '../lookup-windows.js';
import { context, header, section, simulatedNotice } from './blocks.js';
import { formatTime, plural, shownKeyword } from './format.js';
import {
  inlineText,
  LIST_BLOCK_BUDGET,
  type LookupMessage,
  type LookupView,
  listBlocks,
  quoteText,
} from './lookup-common.js';

/** An SMS is at most ten segments; more than this is not something to read in a list. */
const MAX_TEXT = 500;

function entry(m: InboundMessage, timeZone: string): string {
  const keyword = shownKeyword(m.keyword);
  const facts = [
    `*${formatForPeople(m.msisdn)}*`,
    `to ${inlineText(m.recipient || '—', 30)}`,
    ...(keyword ? [`keyword *${inlineText(keyword, 30)}*`] : []),
    formatTime(m.received, timeZone),
  ];
  return `${facts.join(' · ')}\n${quoteText(m.text, MAX_TEXT)}`;
}

/** `messages` are the last `n` (newest first); `total` is how many arrived in the window. */
export function inboxMessage(
  messages: readonly InboundMessage[],
  total: number,
  view: LookupView,
): LookupMessage {
  const head: KnownBlock[] = [...simulatedNotice(view.simulated), header('Inbound SMS')];
  if (messages.length === 0) {
    const none = `No inbound SMS in the last ${INBOX_DAYS} days`;
    return { text: `${none}.`, blocks: [...head, section(`${none}.`)] };
  }
  const window = `in the last ${INBOX_DAYS} days`;
  const summary =
    total > messages.length
      ? `The newest ${plural(messages.length, 'SMS', 'SMS')} of ${plural(total, 'SMS', 'SMS')} ${window}, newest first`
      : `${plural(messages.length, 'SMS', 'SMS')} ${window}, newest first`;
  const blocks: KnownBlock[] = [
    ...head,
    context(summary),
    ...listBlocks(
      messages.map((m) => entry(m, view.timeZone)),
      { maxItems: messages.length, maxBlocks: LIST_BLOCK_BUDGET, moreLabel: 'SMS', separator: '\n\n' },
    ),
  ];
  const latest = messages[0]!;
  return {
    text: `${summary}; latest from ${formatForPeople(latest.msisdn)} at ${formatTime(latest.received, view.timeZone)}`,
    blocks,
  };
}
