import type { KnownBlock } from '@slack/types';
import type { MessageReport } from '../../gateway/index.js';
import type { OutboxRow } from '../../store/index.js';
import { confirmDialog, context, section, simulatedNotice } from './blocks.js';
import { sendReference } from './card.js';
import { escapeMrkdwn, formatCount, formatTime, plural, truncate } from './format.js';

export const GATEWAY_CHECK_ACTIONS = {
  confirm: 'unknown_confirm_match',
  notSent: 'unknown_mark_not_sent',
} as const;

export interface GatewayCheckView {
  reportTimeZone: string;
  simulated: boolean;
  /** Offered the "mark not sent" button: only admins may use it. */
  isAdmin: boolean;
  /** Offered the confirm button: the send's own sender or an admin. */
  mayConfirm: boolean;
}

/** The value the confirm button carries: which send, and which batch it is said to be. */
export function confirmValue(row: Pick<OutboxRow, 'id'>, report: Pick<MessageReport, 'id'>): string {
  return `${row.id}:${report.id}`;
}

export function parseConfirmValue(value: string): { outboxId: number; messageId: number } | undefined {
  const match = /^(\d+):(\d+)$/.exec(value);
  if (!match) return undefined;
  const outboxId = Number(match[1]);
  const messageId = Number(match[2]);
  return Number.isSafeInteger(outboxId) && Number.isSafeInteger(messageId) && messageId > 0
    ? { outboxId, messageId }
    : undefined;
}

function describeSend(row: OutboxRow, timeZone: string): string {
  return (
    `sender *${escapeMrkdwn(row.sender ?? '—')}*, ${plural(row.recipientCount, 'recipient')}, ` +
    `written ${formatTime(row.createdAt, timeZone)}, text “${escapeMrkdwn(truncate(row.text, 80))}”`
  );
}

function describeReport(report: MessageReport, timeZone: string): string {
  return (
    `batch *${report.id}*: sender ${escapeMrkdwn(report.sender || '—')}, ${plural(report.count, 'recipient')}, ` +
    `received ${formatTime(report.received, timeZone)}, ${escapeMrkdwn(report.state || 'no state')}, ` +
    `${formatCount(report.deliveredCount)} delivered`
  );
}

/** What Check the gateway found for a send in state unknown, with the one next step it allows. */
export function gatewayCheckMessage(
  row: OutboxRow,
  check: { range: { begin: Date; end: Date }; matches: MessageReport[]; listed: number },
  view: GatewayCheckView,
): { text: string; blocks: KnownBlock[] } {
  const ref = sendReference(row);
  const tz = view.reportTimeZone;
  const searched =
    `Searched the gateway's batches received ${formatTime(check.range.begin, tz)} – ${formatTime(check.range.end, tz)} ` +
    `(${plural(check.listed, 'batch', 'batches')} listed) for ${describeSend(row, tz)}.`;
  const blocks: KnownBlock[] = [...simulatedNotice(view.simulated)];
  let text: string;
  if (check.matches.length === 1) {
    const report = check.matches[0]!;
    text = `Send ${ref}: the gateway has one matching batch, ${report.id}`;
    blocks.push(
      section(
        `:mag: *The gateway has one batch matching send ${ref}*: ${describeReport(report, tz)}.\n` +
          (view.mayConfirm
            ? 'If this is the send, confirm it: the card gets its MessageId and is tracked. Nothing is sent.'
            : `Only <@${row.slackUser}>, who made the send, or an admin may confirm it.`),
      ),
    );
    if (view.mayConfirm) {
      blocks.push({
        type: 'actions',
        block_id: 'gateway_check',
        elements: [
          {
            type: 'button',
            action_id: GATEWAY_CHECK_ACTIONS.confirm,
            style: 'primary',
            text: { type: 'plain_text', text: `It is batch ${report.id}` },
            value: confirmValue(row, report),
            confirm: confirmDialog(
              'Record this batch?',
              `Send ${ref} becomes batch ${report.id} and is tracked from now on. Nothing is sent.`,
              'Record it',
              'Not yet',
            ),
          },
        ],
      });
    }
  } else if (check.matches.length === 0) {
    text = `Send ${ref}: no matching batch at the gateway`;
    blocks.push(
      section(
        `:mag: *No batch at the gateway matches send ${ref}*, so it was most likely not sent. ` +
          (view.isAdmin
            ? 'You may mark it not sent. smsops never sends it again by itself; send anew from `/sms send` if it is still needed.'
            : 'An admin may mark it not sent. smsops never sends it again by itself.'),
      ),
    );
    if (view.isAdmin) {
      blocks.push({
        type: 'actions',
        block_id: 'gateway_check',
        elements: [
          {
            type: 'button',
            action_id: GATEWAY_CHECK_ACTIONS.notSent,
            style: 'danger',
            text: { type: 'plain_text', text: 'Mark not sent' },
            value: String(row.id),
            confirm: confirmDialog(
              'Mark as not sent?',
              `The gateway is asked once more; if it still has no matching batch, send ${ref} is recorded as not sent. Nothing is sent.`,
              'Mark not sent',
              'Keep it unknown',
              true,
            ),
          },
        ],
      });
    }
  } else {
    text = `Send ${ref}: ${check.matches.length} batches at the gateway match`;
    blocks.push(
      section(
        `:mag: *${plural(check.matches.length, 'batch', 'batches')} at the gateway match send ${ref}*, so smsops cannot tell which one it is:\n` +
          check.matches
            .slice(0, 10)
            .map((report) => `• ${describeReport(report, tz)}`)
            .join('\n') +
          '\nLook them up in the gateway panel; the send stays unknown and is never resent.',
      ),
    );
  }
  blocks.push(context(searched));
  return { text, blocks };
}
