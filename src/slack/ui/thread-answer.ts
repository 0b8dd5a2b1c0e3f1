import type { KnownBlock } from '@slack/types';
import type { SendOutcome } from '../../sending/send.js';
import type { Role } from '../../store/index.js';
import { type Draft, encodingLabel } from '../compose/draft.js';
import { denialText } from '../permissions.js';
import { context, section, simulatedNotice } from './blocks.js';
import { escapeMrkdwn, formatCost, formatNumber, plural } from './format.js';
import { refusalText } from './send-checks.js';

export const THREAD_ANSWER_SEND = 'thread_answer_send';
export const THREAD_ANSWER_CANCEL = 'thread_answer_cancel';

export interface ThreadMessage {
  text: string;
  blocks: KnownBlock[];
}

const notice = (text: string): ThreadMessage => ({ text, blocks: [section(text)] });

const HOW =
  'Write `@smsops <your answer>` in the thread of an inbound SMS: smsops shows you the SMS before anything is sent.';

/** Why a mention answers nobody; only its author sees it. */
export type MentionProblem =
  | { kind: 'not-in-thread' }
  | { kind: 'not-a-conversation' }
  | { kind: 'several-numbers'; numbers: readonly string[] }
  | { kind: 'empty' }
  | { kind: 'role'; role: Role | undefined }
  | { kind: 'invalid'; errors: readonly string[] }
  | { kind: 'failed'; sentence: string };

export function mentionProblem(problem: MentionProblem): ThreadMessage {
  switch (problem.kind) {
    case 'not-in-thread':
      return notice(
        `:information_source: \`@smsops\` answers an SMS only inside the thread of an inbound SMS. Nothing was sent. ${HOW}`,
      );
    case 'not-a-conversation':
      return notice(
        ':information_source: This thread is not a current inbound SMS conversation (or a newer thread has taken over for that number), so `@smsops` has nobody to answer. Nothing was sent. Answer in the thread of the latest SMS from that number, or use its *Reply* button.',
      );
    case 'several-numbers':
      return notice(
        `:information_source: This thread holds SMS from ${plural(problem.numbers.length, 'number')} (${problem.numbers
          .slice(0, 5)
          .map(formatNumber)
          .join(
            ', ',
          )}${problem.numbers.length > 5 ? ', …' : ''}), so \`@smsops\` cannot tell whom to answer. Nothing was sent. Use the *Reply* button of the SMS you want to answer.`,
      );
    case 'empty':
      return notice(
        ':information_source: There is no text after `@smsops`, so there is nothing to send. Write it after the mention, e.g. `@smsops Your order is ready`.',
      );
    case 'role':
      return notice(denialText('sender', problem.role));
    case 'invalid':
      return notice(
        `:warning: That answer cannot be sent as it is. Nothing was sent.\n${problem.errors.map((e) => `• ${e}`).join('\n')}`,
      );
    case 'failed':
      return notice(problem.sentence);
  }
}

/** The author's private preview: the text, its segments and cost, with Send and Cancel. */
export function threadAnswerPreview(
  draft: Draft,
  to: string,
  draftKey: string,
  simulated: boolean,
): ThreadMessage {
  const number = formatNumber(to);
  const quoted = escapeMrkdwn(draft.text)
    .split('\n')
    .map((line) => `>${line}`)
    .join('\n');
  return {
    text: `Send this SMS to ${number}?`,
    blocks: [
      ...simulatedNotice(simulated),
      section(`*Send this SMS to ${number}?*\n${quoted}`),
      context(
        `From *${escapeMrkdwn(draft.sender)}* · ${encodingLabel(draft.encoding)} · ${plural(draft.segmentsPerMessage, 'segment')} · est. cost ${formatCost(draft.estimatedCost)}`,
        ...draft.notices.map(escapeMrkdwn),
      ),
      {
        type: 'actions',
        block_id: 'thread_answer',
        elements: [
          {
            type: 'button',
            action_id: THREAD_ANSWER_SEND,
            text: { type: 'plain_text', text: 'Send' },
            style: 'primary',
            value: draftKey,
          },
          {
            type: 'button',
            action_id: THREAD_ANSWER_CANCEL,
            text: { type: 'plain_text', text: 'Cancel' },
            value: draftKey,
          },
        ],
      },
    ],
  };
}

export function threadAnswerCancelled(): ThreadMessage {
  return notice(':heavy_multiplication_x: Cancelled: nothing was sent.');
}

export function threadAnswerGone(): ThreadMessage {
  return notice(
    ':information_source: This answer was already sent, cancelled, or has expired (after 30 minutes). Nothing more was sent. Mention `@smsops` again to answer anew.',
  );
}

/** What became of the send, replacing the preview. The card itself goes into the thread. */
export function threadAnswerOutcome(outcome: SendOutcome, role: Role | undefined): ThreadMessage {
  switch (outcome.kind) {
    case 'submitted':
      return notice(
        `:white_check_mark: Sent. Batch *${outcome.messageId}*; its delivery card is in the thread.`,
      );
    case 'duplicate':
      return notice(
        `:information_source: This answer was already sent (state: *${outcome.row.state}*). It is not sent twice.`,
      );
    case 'rejected':
      return notice(
        `:x: The gateway refused the SMS: *${escapeMrkdwn(outcome.description || 'no reason given')}* (code ${outcome.code}). Nothing was sent or charged.`,
      );
    case 'not-sent':
      return notice(':x: The gateway could not be reached, so nothing was sent. Try again in a minute.');
    case 'unknown':
      return notice(
        ':warning: *State unknown — check before sending again.* The gateway did not answer clearly; smsops will not resend it. Its card in the thread offers *Check the gateway*.',
      );
    case 'refused':
      return notice(refusalText(outcome.refusal, role));
  }
}
