import type { KnownBlock } from '@slack/types';
import { context, section } from './blocks.js';
import { escapeMrkdwn, formatCount, plural } from './format.js';

/** The Report button of a delivery card and a campaign card: an .xlsx of that send alone. */
export const REPORT_ACTIONS = { send: 'report_send', campaign: 'report_campaign' } as const;

type Message = { text: string; blocks: KnownBlock[] };

/** An actions block of its own (block ids are unique in a message), appended after a card's other blocks. */
export function reportButtonBlock(kind: keyof typeof REPORT_ACTIONS, id: number): KnownBlock {
  return {
    type: 'actions',
    block_id: `report_${kind}`,
    elements: [
      {
        type: 'button',
        action_id: REPORT_ACTIONS[kind],
        text: { type: 'plain_text', text: 'Report' },
        value: String(id),
      },
    ],
  };
}

/** Who the report is for: whoever asked, or whoever subscribed the channel to the monthly report. */
export interface ReportAsker {
  userId: string;
  monthly: boolean;
}

/** Says who asked and what the file will hold, so the channel knows why a report appears. */
function asked(by: ReportAsker, what: string, detail: 'counts' | 'full'): string {
  const level = detail === 'full' ? 'with texts and numbers' : 'counts only';
  return by.monthly
    ? `The monthly SMS report of ${escapeMrkdwn(what)}, ${level}: <@${by.userId}> subscribed this channel (\`/sms unsubscribe report\` stops it).`
    : `<@${by.userId}> asked for the SMS report of ${escapeMrkdwn(what)}, ${level}.`;
}

export function reportProgressMessage(
  userId: ReportAsker,
  what: string,
  detail: 'counts' | 'full',
  done: number,
  total: number,
): Message {
  // Before the sends are counted there is nothing to count against.
  const progress =
    total === 0
      ? ':hourglass_flowing_sand: Building the report…'
      : `:hourglass_flowing_sand: Building the report… ${formatCount(done)} of ${plural(total, 'send')}`;
  return {
    text: progress,
    blocks: [section(progress), context(asked(userId, what, detail))],
  };
}

export function reportDoneMessage(
  userId: ReportAsker,
  what: string,
  detail: 'counts' | 'full',
  sends: number,
  filename: string,
  unread: readonly string[],
): Message {
  const done = `:bar_chart: The report of ${escapeMrkdwn(what)} is ready: ${plural(sends, 'send')}, in *${escapeMrkdwn(filename)}* below.`;
  const blocks = [section(done), context(asked(userId, what, detail))];
  if (unread.length > 0)
    blocks.push(
      context(
        `:warning: The gateway did not answer for the ${unread.join(' and ')}: the file says so where those figures would be.`,
      ),
    );
  return { text: done, blocks };
}

export function reportFailedMessage(by: ReportAsker, what: string, why: string): Message {
  const whose = by.monthly ? 'monthly report' : `report that <@${by.userId}> asked for`;
  const text = `:x: The ${whose} of ${escapeMrkdwn(what)} was not made. ${why}`;
  return { text, blocks: [section(text)] };
}

/** The answer to `/sms report` itself, before the work starts; `inDm` when the report goes to the asker's DM. */
export function reportStartedText(what: string, inDm = false): string {
  return inDm
    ? `:hourglass_flowing_sand: Building the report of ${escapeMrkdwn(what)}. It holds texts and numbers, so it goes to you alone, in your direct messages with this app: its progress shows there, and the file follows there. Add \`counts\` for a report without them, shared here.`
    : `:hourglass_flowing_sand: Building the report of ${escapeMrkdwn(what)}; its progress shows in this conversation, and the file follows there.`;
}

/** Said where a report with texts and numbers was asked: the file itself went to the asker's DM. */
export function reportInDmNote(userId: string, what: string): Message {
  const text = `:lock: <@${userId}> asked for the SMS report of ${escapeMrkdwn(what)} with texts and numbers: it is sent to them alone, in their direct messages with this app.`;
  return { text, blocks: [context(text)] };
}

export const REPORT_BUSY_TEXT =
  ':hourglass: Two reports are being built already. Try again in a minute, when one of them is shared.';
