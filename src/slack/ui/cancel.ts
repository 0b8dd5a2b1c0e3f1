import type { KnownBlock } from '@slack/types';

/** The button under `/sms cancel <id>`'s question; its value is the MessageId. */
export const CANCEL_CONFIRM_ACTION = 'cancel_confirm';

/** `/sms cancel <id>` asks first: what it stops cannot be sent again. */
export function cancelPrompt(messageId: number): { text: string; blocks: KnownBlock[] } {
  return {
    text: `Cancel batch ${messageId}?`,
    blocks: [
      {
        type: 'section',
        text: {
          type: 'mrkdwn',
          text: `Cancel batch *${messageId}*? Messages not yet delivered will not be sent and their cost is refunded; delivered ones cannot be taken back.`,
        },
      },
      {
        type: 'actions',
        elements: [
          {
            type: 'button',
            action_id: CANCEL_CONFIRM_ACTION,
            style: 'danger',
            text: { type: 'plain_text', text: `Cancel batch ${messageId}` },
            value: String(messageId),
          },
        ],
      },
    ],
  };
}
