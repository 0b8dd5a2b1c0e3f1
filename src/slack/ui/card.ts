import type { KnownBlock } from '@slack/types';
import { wentAsCampaign } from '../../sending/scheduled-campaign.js';
import { optedOutAtSending } from '../../sending/send.js';
import type { OutboxRow } from '../../store/index.js';
import { confirmDialog, context, fields, header, section, simulatedNotice } from './blocks.js';
import { escapeMrkdwn, formatCost, formatCount, formatTime, progressBar, truncate } from './format.js';
import { scheduledCampaignCard, scheduledCard, scheduledContext } from './scheduled.js';
import { leftOutText } from './send-checks.js';
import { reportButtonBlock } from './sending-report.js';

export const CARD_ACTIONS = {
  refresh: 'card_refresh',
  cancel: 'card_cancel',
  checkGateway: 'card_check_gateway',
} as const;

/** How a send without a MessageId is named to people: on its card, and in `/sms status S-42`. */
export function sendReference(row: Pick<OutboxRow, 'id'>): string {
  return `S-${row.id}`;
}

export interface CardOptions {
  reportTimeZone: string;
  simulated: boolean;
  /** SCHEDULE_GRACE_MINUTES, said on the card of a held scheduled send. */
  graceMinutes?: number;
  /** SUBMIT_CHUNK_SIZE: a scheduled send to more recipients says it will go as a campaign of chunks. */
  chunkSize?: number;
  /** SUBMIT_CHUNK_INTERVAL_MS: the pace said with it. */
  chunkIntervalMs?: number;
}

function stateLine(row: OutboxRow): string {
  switch (row.state) {
    case 'pending':
      return ':hourglass_flowing_sand: Sending…';
    case 'failed':
      return `:x: Not sent: ${escapeMrkdwn(row.reason ?? 'unknown reason')}`;
    case 'unknown':
      return `:warning: *State unknown* — the gateway may have accepted this send. It will not be resent automatically: *Check the gateway* looks for it there, and \`/sms status ${sendReference(row)}\` shows this card again. Do not send it again before that.`;
    case 'cancelled': {
      const by = `:no_entry_sign: Cancelled${row.cancelledBy ? ` by <@${row.cancelledBy}>` : ''}`;
      if (!row.messageId) return by;
      return row.delivery.final
        ? `${by}: the gateway cancelled what it had not sent and refunded it${row.delivery.state ? ` (${escapeMrkdwn(row.delivery.state)})` : ''}.`
        : `${by}: the gateway cancels what it has not sent yet; asking it what was delivered before…`;
    }
    default:
      if (row.delivery.final)
        return `:white_check_mark: Final: ${escapeMrkdwn(row.delivery.state ?? 'done')}`;
      return `:satellite_antenna: ${escapeMrkdwn(row.delivery.state ?? 'Queued')} — updating`;
  }
}

/** The message in the channel that fills in as the batch is delivered. */
export function deliveryCard(row: OutboxRow, options: CardOptions): { text: string; blocks: KnownBlock[] } {
  if (row.state === 'scheduled' || row.state === 'held') {
    return scheduledCard(row, {
      simulated: options.simulated,
      graceMinutes: options.graceMinutes ?? 15,
      ...(options.chunkSize ? { chunkSize: options.chunkSize } : {}),
      ...(options.chunkIntervalMs === undefined ? {} : { chunkIntervalMs: options.chunkIntervalMs }),
    });
  }
  if (wentAsCampaign(row)) return scheduledCampaignCard(row, options);
  const { delivered, undelivered } = row.delivery;
  const count = row.delivery.count || row.recipientCount;
  const pending = Math.max(0, count - delivered - undelivered);
  const title = row.messageId ? `SMS batch ${row.messageId}` : 'SMS batch';
  const blocks: KnownBlock[] = [
    ...simulatedNotice(options.simulated),
    header(title),
    section(stateLine(row)),
    fields([
      ['Sender', escapeMrkdwn(row.sender ?? '—')],
      ['Sent by', `<@${row.slackUser}>`],
      ['Recipients', formatCount(row.recipientCount)],
      ['Segments', formatCount(row.segments)],
      ['Estimated cost', row.estimatedCost === null ? '—' : formatCost(row.estimatedCost)],
      row.messageId
        ? ['MessageId', row.messageId]
        : ['Reference', `\`${sendReference(row)}\` (no MessageId)`],
    ]),
  ];
  const cancelled = cancelledCount(row);
  if (row.state === 'submitted' || (row.state === 'cancelled' && row.messageId)) {
    const rest =
      cancelled === undefined
        ? `:white_circle: ${formatCount(pending)} pending`
        : `:no_entry_sign: ${formatCount(cancelled)} cancelled`;
    blocks.push(
      section(
        `\`${progressBar(delivered, undelivered, count)}\`\n:large_green_circle: ${formatCount(delivered)} delivered   :red_circle: ${formatCount(undelivered)} undelivered   ${rest}`,
      ),
    );
  }
  // A scheduled send: when it was due, and who was left out because they opted out since.
  const scheduled = scheduledContext(row);
  if (scheduled) blocks.push(context(scheduled));
  const leftOut = optedOutAtSending(row);
  if (leftOut.length > 0 && row.state !== 'failed') blocks.push(context(leftOutText(leftOut)));
  // How a send that was unknown got its MessageId (late reply, or confirmed from the gateway).
  if (row.state === 'submitted' && row.reason)
    blocks.push(context(`:information_source: ${escapeMrkdwn(row.reason)}`));
  blocks.push(
    section(
      row.text === '' && row.redactedAt
        ? ':wastebasket: _The text is no longer kept: personal data goes after the retention period, or on request._'
        : `>${escapeMrkdwn(truncate(row.text, 600)).replace(/\n/g, '\n>')}`,
    ),
    context(
      `Sent ${formatTime(row.submittedAt ?? row.createdAt, options.reportTimeZone)}` +
        (row.delivery.lastPolledAt
          ? ` · checked ${formatTime(row.delivery.lastPolledAt, options.reportTimeZone)}`
          : ''),
    ),
  );
  if (row.state === 'unknown' && !row.messageId) {
    blocks.push({
      type: 'actions',
      block_id: 'card_actions',
      elements: [
        {
          type: 'button',
          action_id: CARD_ACTIONS.checkGateway,
          style: 'primary',
          text: { type: 'plain_text', text: 'Check the gateway' },
          value: String(row.id),
        },
      ],
    });
  }
  const open = (row.state === 'submitted' && !row.delivery.final) || row.state === 'unknown';
  if (open && row.messageId) {
    blocks.push({
      type: 'actions',
      block_id: 'card_actions',
      elements: [
        {
          type: 'button',
          action_id: CARD_ACTIONS.refresh,
          text: { type: 'plain_text', text: 'Refresh' },
          value: String(row.id),
        },
        ...(row.state === 'submitted'
          ? [
              {
                type: 'button' as const,
                action_id: CARD_ACTIONS.cancel,
                style: 'danger' as const,
                text: { type: 'plain_text' as const, text: 'Cancel' },
                value: String(row.id),
                confirm: confirmDialog(
                  'Cancel this batch?',
                  `Messages of batch ${row.messageId} not yet delivered will not be sent, and their cost is refunded. Delivered messages cannot be taken back.`,
                  'Cancel batch',
                  'Keep sending',
                  true,
                ),
              },
            ]
          : []),
      ],
    });
  }
  if (row.messageId) blocks.push(reportButtonBlock('send', row.id));
  const text =
    row.state === 'unknown'
      ? `${title} ${sendReference(row)}: state unknown`
      : cancelled !== undefined
        ? `${title}: cancelled; ${formatCount(delivered)} delivered, ${formatCount(undelivered)} undelivered, ${formatCount(cancelled)} cancelled`
        : `${title}: ${formatCount(delivered)} delivered, ${formatCount(undelivered)} undelivered, ${formatCount(pending)} pending`;
  return { text, blocks };
}

/**
 * What the gateway cancelled of a cancelled batch, once its report after the Cancel is final: whatever was neither
 * delivered nor undelivered. Undefined before that (some may still be on their way) and for other sends.
 */
export function cancelledCount(row: OutboxRow): number | undefined {
  if (row.state !== 'cancelled' || !row.messageId || !row.delivery.final) return undefined;
  const count = row.delivery.count || row.recipientCount;
  return Math.max(0, count - row.delivery.delivered - row.delivery.undelivered);
}

/** Said in the sender's DM, above the card, when the conversation the send came from is closed to the bot. */
export function cardMovedText(): string {
  return ':information_source: I cannot post in the conversation you sent from, so your delivery card is here. To see cards there, invite me with `/invite @smsops` (in a channel), or send from a channel I am in.';
}
