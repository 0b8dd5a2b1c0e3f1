import type { OutboxRow, ReportCampaign } from '../store/index.js';

/** How much of a send a report shows: a viewer gets counts; texts and numbers need the sender or admin role. */
export type ReportDetail = 'counts' | 'full';

/** Where a send was asked for, read from its outbox row. */
export type SendOrigin =
  | 'modal'
  | 'thread answer'
  | 'Workflow Builder step'
  | 'schedule'
  | 'campaign'
  | 'other';

/** A send's outcome as finance reads it; `sending` is a send whose gateway call is in flight right now. */
export type SendOutcome = 'sent' | 'cancelled' | 'unknown' | 'refused' | 'sending';

/** Delivery as the gateway reports it now, or, when it could not be asked, as the last poll left it. */
export interface DeliveryFigures {
  delivered: number;
  undelivered: number;
  pending: number;
  source: 'gateway now' | 'last poll' | 'none';
}

/** One row of the Sends sheet. */
export interface SendLine {
  outboxId: number;
  madeAt: Date;
  personId: string;
  person: string;
  origin: SendOrigin;
  campaign: string;
  senderName: string;
  mode: 'same text' | 'personalised';
  /** Undefined at the counts level; PURGED once retention or `/sms forget` took it. */
  text: string | undefined;
  recipientCount: number;
  /** Undefined at the counts level. */
  numbers: string | undefined;
  segments: number;
  estimatedCost: number | null;
  messageId: string;
  delivery: DeliveryFigures;
  outcome: SendOutcome;
  /** Why a send was refused or is unknown, in smsops' words. */
  note: string;
}

export const PURGED = '(purged)';

/** Excel keeps at most this many characters in a cell; a longer one is cut with a note of what was left out. */
export const CELL_LIMIT = 32_767;

export function originOf(row: Pick<OutboxRow, 'idempotencyKey' | 'payload' | 'campaignId'>): SendOrigin {
  if (row.campaignId !== null) return 'campaign';
  const payload = row.payload as { schedule?: unknown } | null;
  if (payload && typeof payload === 'object' && payload.schedule) return 'schedule';
  const key = row.idempotencyKey;
  if (key.startsWith('mention:')) return 'thread answer';
  if (key.startsWith('workflow:')) return 'Workflow Builder step';
  if (key.startsWith('compose:')) return 'modal';
  return 'other';
}

export function outcomeOf(row: Pick<OutboxRow, 'state'>): SendOutcome {
  switch (row.state) {
    case 'submitted':
      return 'sent';
    case 'cancelled':
      return 'cancelled';
    case 'failed':
      return 'refused';
    case 'unknown':
      return 'unknown';
    default:
      return 'sending';
  }
}

function modeOf(row: Pick<OutboxRow, 'payload'>): SendLine['mode'] {
  return (row.payload as { mode?: unknown } | null)?.mode === 'personalised' ? 'personalised' : 'same text';
}

/** The numbers kept, and what retention or `/sms forget` took out of them. */
function numbersOf(row: OutboxRow): string {
  const kept = row.recipients;
  const gone = Math.max(0, row.recipientCount - kept.length);
  if (kept.length === 0 && gone > 0) return PURGED;
  const note = gone > 0 ? ` (+${gone} erased)` : '';
  let text = kept.join(', ');
  if (text.length + note.length > CELL_LIMIT) {
    // Cut at a comma, so no number shows half of its digits.
    const room = CELL_LIMIT - note.length - 40;
    const cut = text.lastIndexOf(', ', room);
    const shown = text.slice(0, cut).split(', ').length;
    text = `${text.slice(0, cut)} … and ${kept.length - shown} more`;
  }
  return text + note;
}

function textOf(row: OutboxRow, campaign: ReportCampaign | undefined): string {
  const text = row.text !== '' ? row.text : (campaign?.text ?? '');
  if (text === '') return row.redactedAt || campaign?.redactedAt ? PURGED : '';
  return text.length > CELL_LIMIT ? `${text.slice(0, CELL_LIMIT - 1)}…` : text;
}

function campaignLabel(row: OutboxRow, campaign: ReportCampaign | undefined): string {
  if (row.campaignId === null) return '';
  const chunk = (row.campaignChunk ?? 0) + 1;
  return campaign
    ? `Campaign ${row.campaignId}, chunk ${chunk} of ${campaign.chunkCount}`
    : `Campaign ${row.campaignId}, chunk ${chunk}`;
}

/** The figures the tracker stored at its last poll: what is shown when the gateway cannot be asked. */
export function storedFigures(row: OutboxRow): DeliveryFigures {
  if (!row.messageId) return { delivered: 0, undelivered: 0, pending: 0, source: 'none' };
  const d = row.delivery;
  const count = d.count > 0 ? d.count : row.recipientCount;
  return {
    delivered: d.delivered,
    undelivered: d.undelivered,
    pending: Math.max(0, count - d.delivered - d.undelivered),
    source: 'last poll',
  };
}

export interface LineContext {
  detail: ReportDetail;
  person: string;
  campaign: ReportCampaign | undefined;
  delivery: DeliveryFigures;
  madeAt: Date;
}

export function sendLineOf(row: OutboxRow, c: LineContext): SendLine {
  const full = c.detail === 'full';
  return {
    outboxId: row.id,
    madeAt: c.madeAt,
    personId: row.slackUser,
    person: c.person,
    origin: originOf(row),
    campaign: campaignLabel(row, c.campaign),
    senderName: row.sender ?? c.campaign?.sender ?? '',
    mode: modeOf(row),
    text: full ? textOf(row, c.campaign) : undefined,
    recipientCount: row.recipientCount,
    numbers: full ? numbersOf(row) : undefined,
    segments: row.segments,
    estimatedCost: row.estimatedCost,
    messageId: row.messageId ?? '',
    delivery: c.delivery,
    outcome: outcomeOf(row),
    note: row.state === 'failed' || row.state === 'unknown' ? (row.reason ?? '') : '',
  };
}
