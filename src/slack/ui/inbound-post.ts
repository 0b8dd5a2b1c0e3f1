import type { KnownBlock } from '@slack/types';
import type { PostRequest, RelayItem } from '../../jobs/inbound-poster.js';
import { formatForPeople } from '../../sms/index.js';
import { blocksCharacters, context, LIMITS, simulatedNotice } from './blocks.js';
import { escapeMrkdwn, formatCost, formatTime, plural, shownKeyword, truncate } from './format.js';

export const INBOUND_REPLY_ACTION = 'inbound_reply';

/** Room kept for the simulated notice and the burst note, which share a post with the SMS sections. */
const NOTES_RESERVE = 600;

/**
 * One section per SMS, and room for the simulated notice and the burst note: 48 of Slack's 50 blocks.
 * Sizes are what Slack counts against its total for a message's blocks (inboundItemSize), so long texts
 * make posts shorter and no post is refused as msg_blocks_too_long.
 */
export const INBOUND_POST_CAPACITY = {
  items: LIMITS.blocksPerMessage - 2,
  size: LIMITS.blocksCharactersPerMessage - NOTES_RESERVE,
} as const;

/** An SMS is at most ten segments (1,530 GSM characters); its quote stays well inside one section. */
const MAX_QUOTE_UNITS = 2_600;
const MAX_FIELD = 30;
const MAX_NOTIFICATION_TEXT = 150;

export interface InboundPostView {
  timeZone: string;
  simulated: boolean;
}

/**
 * Escapes first and cuts after, counting the escaped length: cutting the raw text first could let five
 * `&`s become 25 characters and push the section over Slack's limit.
 */
export function escapeWithin(text: string, maxUnits: number): string {
  const whole = escapeMrkdwn(text);
  if (whole.length <= maxUnits) return whole;
  let out = '';
  for (const char of text) {
    const piece = escapeMrkdwn(char);
    if (out.length + piece.length > maxUnits - 1) return `${out}…`;
    out += piece;
  }
  return out;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Outside text as a block quote: escaped (no mention, no link can come through), every line quoted. */
function quote(text: string): string {
  const body = text.replace(/\r\n?/g, '\n').trim();
  if (body === '') return '>_(empty)_';
  return `>${escapeWithin(body, MAX_QUOTE_UNITS).replace(/\n/g, '\n>')}`;
}

export function inboundItemText(item: RelayItem, timeZone: string): string {
  const m = item.message;
  const keyword = shownKeyword(m.keyword);
  // The gateway's Network (an operator code) and a zero Price mean nothing to a person; a price the sender was
  // charged does.
  const facts = [
    `:incoming_envelope: *${escapeMrkdwn(formatForPeople(m.msisdn))}* → ${escapeWithin(oneLine(m.recipient) || '—', MAX_FIELD)}`,
    ...(keyword ? [`keyword *${escapeWithin(keyword, MAX_FIELD)}*`] : []),
    ...(m.price > 0 ? [`price ${formatCost(m.price)}`] : []),
    formatTime(m.received, timeZone),
  ];
  const lines = [facts.join(' · '), quote(m.text)];
  if (item.optedOut) {
    lines.push(
      ':no_entry_sign: *Opted out*: this number sent a stop word and is on the opt-out list; later sends skip it.',
    );
  }
  if (item.survey) {
    const name = item.survey.name ? `*${escapeWithin(oneLine(item.survey.name), 80)}* ` : '';
    lines.push(`:ballot_box_with_check: Answers survey ${name}(${item.survey.id}).`);
  }
  return truncate(lines.join('\n'), LIMITS.sectionText);
}

/** What the Reply button carries: the number to answer and the recipient it wrote to (maybe our sender). */
export function replyValue(item: RelayItem): string {
  return JSON.stringify({ m: item.message.msisdn, r: truncate(item.message.recipient, 100) });
}

export function parseReplyValue(
  value: string | undefined,
): { msisdn: string; recipient: string } | undefined {
  try {
    const parsed = JSON.parse(value ?? '') as { m?: unknown; r?: unknown };
    if (typeof parsed.m !== 'string' || !/^\d{6,15}$/.test(parsed.m)) return undefined;
    return { msisdn: parsed.m, recipient: typeof parsed.r === 'string' ? parsed.r : '' };
  } catch {
    return undefined;
  }
}

function itemBlock(item: RelayItem, timeZone: string): KnownBlock {
  return {
    type: 'section',
    block_id: `inbound_${item.message.id}`,
    text: { type: 'mrkdwn', text: inboundItemText(item, timeZone) },
    accessory: {
      type: 'button',
      action_id: INBOUND_REPLY_ACTION,
      text: { type: 'plain_text', text: 'Reply', emoji: true },
      value: replyValue(item),
    },
  };
}

/** What one SMS's section weighs in a post: its text, its Reply button, value and ids included. */
export function inboundItemSize(item: RelayItem, timeZone: string): number {
  return blocksCharacters(itemBlock(item, timeZone));
}

/** The notification line: what a phone shows, escaped like the rest. */
function notificationText(items: readonly RelayItem[]): string {
  const numbers = [...new Set(items.map((i) => i.message.msisdn))];
  const optedOut = items.filter((i) => i.optedOut).length;
  const note = optedOut > 0 ? ` (${plural(optedOut, 'opt-out')})` : '';
  if (numbers.length > 1)
    return `${plural(items.length, 'inbound SMS', 'inbound SMS')} from ${plural(numbers.length, 'number')}${note}`;
  const who = escapeMrkdwn(formatForPeople(numbers[0] ?? ''));
  if (items.length > 1) return `${plural(items.length, 'SMS', 'SMS')} from ${who}${note}`;
  const first = items[0]!;
  return `SMS from ${who}: ${escapeWithin(oneLine(first.message.text), MAX_NOTIFICATION_TEXT)}${note}`;
}

export function inboundPost(
  request: PostRequest,
  view: InboundPostView,
): { text: string; blocks: KnownBlock[] } {
  const { items } = request;
  const numbers = new Set(items.map((i) => i.message.msisdn)).size;
  const blocks: KnownBlock[] = [
    ...simulatedNotice(view.simulated),
    // One slot for either note: a shared post is always new, so it never restarts a thread.
    ...(request.shared
      ? [
          context(
            `:inbox_tray: ${plural(items.length, 'SMS', 'SMS')} from ${plural(numbers, 'number')} arrived at once, so they share this post; later messages from these numbers reply in its thread.`,
          ),
        ]
      : request.threadRestarted
        ? [
            context(
              ':leftwards_arrow_with_hook: The earlier thread with this number was deleted, so this starts a new one; its next messages reply here.',
            ),
          ]
        : []),
    ...items.map((item) => itemBlock(item, view.timeZone)),
  ];
  return { text: notificationText(items), blocks };
}

/** The one report admins get when a channel cannot take inbound SMS. */
export function channelProblemText(channel: string, reason: string): string {
  const why =
    reason === 'is_archived'
      ? 'it is archived'
      : reason === 'channel_not_found'
        ? 'I cannot see it (a private channel I was not invited to, or it was deleted)'
        : reason === 'restricted_action'
          ? 'posting there is limited to some members'
          : 'I am not a member and cannot join it';
  return `:warning: smsops cannot post inbound SMS in <#${channel}>: ${why}. Invite me with \`/invite @smsops\`, or run \`/sms unsubscribe inbound\` there. Until then its inbound SMS are skipped; \`/sms inbox\` still lists them.`;
}

/** The one report admins get when Slack refuses an inbound post for what it is; the relay moves on. */
export function postRefusedText(channel: string, reason: string): string {
  return `:warning: Slack refused a post of inbound SMS in <#${channel}> (\`${escapeMrkdwn(reason)}\`), so those SMS were skipped there; \`/sms inbox\` still lists them. Other posts go on; this is reported once.`;
}
