import type { KnownBlock, ModalView } from '@slack/types';
import type { CampaignStarted } from '../../sending/scheduled-campaign.js';
import { optedOutAtSending, type SendOutcome } from '../../sending/send.js';
import type { Role } from '../../store/index.js';
import { type Draft, recipientCount } from '../compose/draft.js';
import { context, section, simulatedNotice } from './blocks.js';
import { campaignStartedView } from './campaign.js';
import { sendReference } from './card.js';
import { draftSummary, messageView } from './compose.js';
import { escapeMrkdwn, plural } from './format.js';
import { leftOutText, refusalText } from './send-checks.js';

const TITLE = 'Send SMS';

/** Shown from the submit's ack until the gateway has answered. */
export function sendingView(draft: Draft, simulated: boolean): ModalView {
  return messageView('Sending SMS', [
    ...simulatedNotice(simulated),
    section(`:hourglass_flowing_sand: Sending to ${plural(recipientCount(draft), 'recipient')}…`),
    ...draftSummary(draft),
  ]);
}

/** The modal once the send is decided; `role` only matters to a refusal for lack of one. */
export function sendOutcomeView(
  outcome: SendOutcome | CampaignStarted,
  simulated: boolean,
  role: Role | undefined,
  /** Where the card went: a reply's card is in the thread of the SMS it answers. */
  card?: CardPlace,
): ModalView {
  // Too many recipients for one gateway call: it went as a campaign of chunks.
  if (outcome.kind === 'campaign') return campaignStartedView(outcome.campaign, !outcome.created, simulated);
  return messageView(TITLE, outcomeBlocks(outcome, simulated, role, card));
}

export interface CardPlace {
  channel: string;
  threadTs?: string;
}

/** "in the channel", or where exactly: a person looking for the card of a reply looks in the thread. */
function cardPlaceText(card: CardPlace | undefined): string {
  if (!card) return 'in the channel';
  return card.threadTs
    ? `in the thread of the SMS you answered, in <#${card.channel}>`
    : `in <#${card.channel}>`;
}

function outcomeBlocks(
  outcome: SendOutcome,
  simulated: boolean,
  role: Role | undefined,
  card?: CardPlace,
): KnownBlock[] {
  const leftOut = optedOutAtSending(outcome.row);
  const notice = [
    ...simulatedNotice(simulated),
    ...(leftOut.length > 0 && outcome.kind !== 'refused' ? [context(leftOutText(leftOut))] : []),
  ];
  switch (outcome.kind) {
    case 'submitted':
      return [
        ...notice,
        section(
          `:white_check_mark: Sent. Batch *${outcome.messageId}* is on its way; its delivery card is ${cardPlaceText(card)}.` +
            (outcome.late
              ? ' The gateway answered so late that the send had been shown as state unknown meanwhile; it is recorded as sent now.'
              : ''),
        ),
      ];
    case 'rejected':
      return [
        ...notice,
        section(
          `:x: The gateway refused the send: *${escapeMrkdwn(outcome.description || 'no reason given')}* (code ${outcome.code}). Nothing was sent or charged.`,
        ),
      ];
    case 'not-sent':
      return [
        ...notice,
        section(':x: The gateway could not be reached, so nothing was sent. Try again in a minute.'),
      ];
    case 'unknown':
      return [
        ...notice,
        section(
          `:warning: *State unknown — check before sending again.* The gateway did not answer clearly, so it may or may not have accepted the send. smsops will not resend it automatically. Its card (${cardPlaceText(card)}) offers *Check the gateway*; \`/sms status ${sendReference(outcome.row)}\` shows it again.`,
        ),
      ];
    case 'duplicate':
      return [
        ...notice,
        section(
          `:information_source: This send was already made (state: *${outcome.row.state}*${outcome.row.messageId ? `, batch ${outcome.row.messageId}` : ''}). It is not sent twice.`,
        ),
      ];
    case 'refused':
      return [...notice, section(refusalText(outcome.refusal, role))];
  }
}

/** One line in the send modal: a refusal or a failure already worded for the user. */
export function sendNoticeView(text: string): ModalView {
  return messageView(TITLE, [section(text)]);
}

export function draftExpiredView(): ModalView {
  return sendNoticeView(
    ':hourglass: This draft has expired or is not yours. Nothing was sent; start again with `/sms send`.',
  );
}
