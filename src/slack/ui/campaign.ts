import type { KnownBlock, ModalView } from '@slack/types';
import type { CampaignProgress } from '../../sending/campaign.js';
import type { Campaign } from '../../store/index.js';
import { confirmDialog, context, fields, header, section, simulatedNotice } from './blocks.js';
import { messageView } from './compose.js';
import {
  escapeMrkdwn,
  formatCost,
  formatCount,
  formatTime,
  plural,
  progressBar,
  truncate,
} from './format.js';
import { reportButtonBlock } from './sending-report.js';

export const CAMPAIGN_ACTIONS = {
  refresh: 'campaign_refresh',
  cancel: 'campaign_cancel',
  sendRest: 'campaign_send_rest',
} as const;

/** How a campaign is named to people, on its card and in the audit log. */
export function campaignReference(campaign: Pick<Campaign, 'id'>): string {
  return `C-${campaign.id}`;
}

export interface CampaignCardOptions {
  reportTimeZone: string;
  simulated: boolean;
}

const MESSAGE_IDS_SHOWN = 20;

function stateLine(c: Campaign, p: CampaignProgress): string {
  switch (c.state) {
    case 'running':
      return p.inFlight > 0 || c.cursor < c.chunkCount
        ? `:hourglass_flowing_sand: Sending in chunks of ${formatCount(c.chunkSize)}: chunk ${formatCount(Math.min(c.cursor + 1, c.chunkCount))} of ${formatCount(c.chunkCount)} next`
        : ':hourglass_flowing_sand: Finishing';
    case 'stopped':
      return `:octagonal_sign: *Stopped.* ${escapeMrkdwn(c.stopReason ?? 'No reason recorded.')}`;
    case 'cancelled': {
      const by = `:no_entry_sign: Cancelled${c.cancelledBy ? ` by <@${c.cancelledBy}>` : ''}: no further chunk is sent`;
      if (p.chunksSubmitted === 0) return `${by}; nothing had gone to the gateway.`;
      return p.final
        ? `${by}; the gateway cancelled what it had not sent and refunded it.`
        : `${by}; the gateway cancels what it has not sent yet. Asking it what was delivered before…`;
    }
    case 'done':
      return p.final
        ? ':white_check_mark: Every chunk sent; delivery final.'
        : ':satellite_antenna: Every chunk sent — delivery updating';
  }
}

/** The one message in the channel that follows a campaign: chunks submitted, then delivery over all of them. */
export function campaignCard(
  campaign: Campaign,
  progress: CampaignProgress,
  options: CampaignCardOptions,
): { text: string; blocks: KnownBlock[] } {
  const c = campaign;
  const p = progress;
  const title = `SMS campaign ${campaignReference(c)}`;
  const deliveryTotal = p.delivered + p.undelivered + p.pending;
  // Once a cancelled campaign's chunks have their last reports, what is neither delivered nor undelivered was
  // cancelled at the gateway: it will never be delivered, so it is not "pending".
  const cancelled = c.state === 'cancelled' && p.final ? p.pending : undefined;
  const rest =
    cancelled === undefined ? `${formatCount(p.pending)} pending` : `${formatCount(cancelled)} cancelled`;
  const open = c.state === 'running' || c.state === 'stopped' || (c.state === 'done' && !p.final);
  const blocks: KnownBlock[] = [
    ...simulatedNotice(options.simulated),
    header(title),
    section(stateLine(c, p)),
    fields([
      ['Sender', escapeMrkdwn(c.sender)],
      ['Sent by', `<@${c.slackUser}>`],
      ['Recipients', formatCount(c.recipientCount)],
      ['Chunks submitted', `${formatCount(p.chunksSubmitted)} of ${formatCount(c.chunkCount)}`],
      ['Segments', formatCount(c.segments)],
      ['Estimated cost', c.estimatedCost === null ? '—' : formatCost(c.estimatedCost)],
    ]),
    section(
      `*Sent* ${formatCount(p.sent)} · *Not sent* ${formatCount(p.notSent)}` +
        (p.unknown > 0 ? ` · *Unknown* ${formatCount(p.unknown)}` : '') +
        (p.inFlight > 0 ? ` · *Sending now* ${formatCount(p.inFlight)}` : ''),
    ),
  ];
  if (deliveryTotal > 0) {
    blocks.push(
      section(
        `\`${progressBar(p.delivered, p.undelivered, deliveryTotal)}\`\n:large_green_circle: ${formatCount(p.delivered)} delivered   :red_circle: ${formatCount(p.undelivered)} undelivered   ${cancelled === undefined ? ':white_circle:' : ':no_entry_sign:'} ${rest}`,
      ),
    );
  }
  if (p.unknownRows.length > 0) {
    const refs = p.unknownRows.map((r) => `\`/sms status S-${r.outboxId}\``).join(', ');
    blocks.push(
      context(
        truncate(
          `:warning: ${plural(p.unknownRows.length, 'chunk')} of unknown fate (${formatCount(p.unknown)} recipients): it may have reached the gateway, so it is never sent again. Look for it at the gateway with ${refs}.`,
          1_900,
        ),
      ),
    );
  }
  if (open && p.chunksSubmitted > 0) {
    // At the default pace a whole campaign is at the gateway within seconds: Cancel then stops only what the
    // gateway has not sent yet, and a person deciding whether to press it should know that.
    const notYet = c.chunkCount - p.chunksSubmitted;
    blocks.push(
      context(
        `:information_source: Cancel stops ${notYet > 0 ? `the ${plural(notYet, 'chunk')} not submitted yet and, ` : ''}of the chunks already at the gateway, what it has not sent yet. Delivered messages cannot be taken back.`,
      ),
    );
  }
  if (p.messageIds.length > 0) {
    const shown = p.messageIds.slice(0, MESSAGE_IDS_SHOWN).join(', ');
    const more =
      p.messageIds.length > MESSAGE_IDS_SHOWN ? ` and ${p.messageIds.length - MESSAGE_IDS_SHOWN} more` : '';
    blocks.push(context(`MessageIds: ${shown}${more}`));
  }
  blocks.push(
    section(
      c.text === '' && c.redactedAt
        ? ':wastebasket: _The text is no longer kept: personal data goes after the retention period._'
        : `>${escapeMrkdwn(truncate(c.text, 600)).replace(/\n/g, '\n>')}`,
    ),
    context(`Started ${formatTime(c.createdAt, options.reportTimeZone)} · ${campaignReference(c)}`),
  );
  const buttons: Extract<KnownBlock, { type: 'actions' }>['elements'] = [];
  if (open) {
    buttons.push({
      type: 'button',
      action_id: CAMPAIGN_ACTIONS.refresh,
      text: { type: 'plain_text', text: 'Refresh' },
      value: String(c.id),
    });
  }
  // Wherever a campaign stopped short: refused midway, or cancelled before its last chunks went.
  if ((c.state === 'stopped' || c.state === 'cancelled') && p.notSent > 0) {
    buttons.push({
      type: 'button',
      action_id: CAMPAIGN_ACTIONS.sendRest,
      style: 'primary',
      text: { type: 'plain_text', text: 'Send the rest' },
      value: String(c.id),
      confirm: confirmDialog(
        'Send the rest?',
        c.state === 'cancelled'
          ? `Up to ${formatCount(p.notSent)} recipients get the message now: those of the chunks never submitted before the cancel. Chunks that went to the gateway, cancelled there or not, are not sent again.`
          : `Up to ${formatCount(p.notSent)} recipients not sent yet get the message now, in the chunks that were never submitted or were refused. Chunks that were sent, or may have been, are not sent again.`,
        'Send the rest',
        'Not now',
      ),
    });
  }
  // Cancelled, yet a chunk is still going at the gateway (its cancel failed, or it became known afterwards).
  if (open || (c.state === 'cancelled' && p.cancellable > 0)) {
    buttons.push({
      type: 'button',
      action_id: CAMPAIGN_ACTIONS.cancel,
      style: 'danger',
      text: { type: 'plain_text', text: 'Cancel' },
      value: String(c.id),
      confirm: confirmDialog(
        'Cancel this campaign?',
        'No further chunk is sent, and messages not yet delivered are cancelled at the gateway and refunded. Delivered messages cannot be taken back.',
        'Cancel campaign',
        'Keep sending',
        true,
      ),
    });
  }
  if (buttons.length > 0) blocks.push({ type: 'actions', block_id: 'campaign_actions', elements: buttons });
  blocks.push(reportButtonBlock('campaign', c.id));
  const text =
    `${title}: ${formatCount(p.sent)} of ${formatCount(c.recipientCount)} sent, ${formatCount(p.notSent)} not sent` +
    (p.unknown > 0 ? `, ${formatCount(p.unknown)} unknown` : '') +
    `; ${formatCount(p.delivered)} delivered, ${formatCount(p.undelivered)} undelivered, ${rest}`;
  return { text, blocks };
}

/** The modal once a campaign has started: it goes on by itself, followed on its card. */
export function campaignStartedView(campaign: Campaign, duplicate: boolean, simulated: boolean): ModalView {
  return messageView('Send SMS', [
    ...simulatedNotice(simulated),
    section(
      duplicate
        ? `:information_source: This send was already made: campaign *${campaignReference(campaign)}*. Nothing was sent again.`
        : `:white_check_mark: Campaign *${campaignReference(campaign)}* started: ${formatCount(campaign.recipientCount)} recipients in ${plural(campaign.chunkCount, 'chunk')} of up to ${formatCount(campaign.chunkSize)}, sent one after another. Its card in the channel shows the progress and can cancel it.`,
    ),
  ]);
}
