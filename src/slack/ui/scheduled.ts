import { TZDate } from '@date-fns/tz';
import type { KnownBlock, ModalView, PlainTextOption } from '@slack/types';
import { format } from 'date-fns';
import type { ScheduleInfo } from '../../sending/scheduled.js';
import { CAMPAIGN_NOT_STARTED } from '../../sending/scheduled-campaign.js';
import type { OutboxRow } from '../../store/index.js';
import { confirmDialog, context, fields, header, section, simulatedNotice } from './blocks.js';
import { escapeMrkdwn, formatCost, formatCount, plural, truncate } from './format.js';

/** Block and action ids of the "when" part of the compose modal. */
export const SCHEDULE_FIELD = { when: 'when', at: 'schedule_at' } as const;

export const SCHEDULED_ACTIONS = {
  sendNow: 'scheduled_send_now',
  edit: 'scheduled_edit',
  cancel: 'scheduled_cancel',
} as const;

const plain = (text: string) => ({ type: 'plain_text' as const, text, emoji: true });

/** "Mon 24 Nov, 09:00 (Europe/Istanbul)": a scheduled time always says the zone it is read in. */
export function formatScheduled(date: Date, timeZone: string): string {
  return `${format(new TZDate(date.getTime(), timeZone), 'EEE d MMM, HH:mm')} (${timeZone})`;
}

/** The compose modal's zone: the user's own from Slack, or the report zone when Slack would not say. */
export interface ComposeZone {
  timeZone: string;
  /** False when users.info gave no zone and REPORT_TIMEZONE stands in. */
  fromSlack: boolean;
}

const WHEN_OPTIONS: PlainTextOption[] = [
  { text: plain('Send now'), value: 'now' },
  { text: plain('Schedule for the time below'), value: 'schedule' },
];

/** "Send now" or "Schedule", and the date and time, picked in the user's own Slack time zone. */
export function scheduleBlocks(zone: ComposeZone, initial?: { at: Date }): KnownBlock[] {
  const where = zone.fromSlack
    ? `your Slack time zone, ${zone.timeZone}`
    : `${zone.timeZone} (your Slack time zone could not be read)`;
  return [
    {
      type: 'input',
      block_id: SCHEDULE_FIELD.when,
      // The submit button says Send now or Schedule: a choice here redraws it.
      dispatch_action: true,
      label: plain('When'),
      element: {
        type: 'radio_buttons',
        action_id: SCHEDULE_FIELD.when,
        options: WHEN_OPTIONS,
        initial_option: WHEN_OPTIONS[initial ? 1 : 0],
      },
    },
    {
      type: 'input',
      block_id: SCHEDULE_FIELD.at,
      optional: true,
      label: plain('Scheduled time'),
      hint: plain(`In ${where}. At least 2 minutes and at most 90 days ahead.`),
      element: {
        type: 'datetimepicker',
        action_id: SCHEDULE_FIELD.at,
        ...(initial ? { initial_date_time: Math.floor(initial.at.getTime() / 1000) } : {}),
      },
    } as KnownBlock,
  ];
}

/** The field error of a time that cannot be scheduled. */
export function scheduleProblemText(
  problem: 'missing' | 'too-soon' | 'too-far',
  now: Date,
  timeZone: string,
): string {
  switch (problem) {
    case 'missing':
      return 'Pick a date and time, or choose Send now.';
    case 'too-soon':
      return `Pick a time at least 2 minutes ahead: ${formatScheduled(new Date(now.getTime() + 3 * 60_000), timeZone)} or later.`;
    case 'too-far':
      return `Pick a time at most 90 days ahead: ${formatScheduled(new Date(now.getTime() + 90 * 86_400_000), timeZone)} at the latest.`;
  }
}

/** Said in the confirmation and the modal: when it goes, and that it is checked again then. */
export function scheduledLine(dueAt: Date, timeZone: string): string {
  return `:alarm_clock: *Scheduled for ${formatScheduled(dueAt, timeZone)}*`;
}

function buttons(row: OutboxRow, withEdit: boolean): KnownBlock {
  const value = String(row.id);
  return {
    type: 'actions',
    block_id: 'scheduled_actions',
    elements: [
      {
        type: 'button',
        action_id: SCHEDULED_ACTIONS.sendNow,
        style: 'primary',
        text: plain('Send now'),
        value,
        confirm: confirmDialog(
          'Send it now?',
          `${plural(row.recipientCount, 'recipient')} get this SMS now instead of at the scheduled time. Roles, opt-outs, limits and the balance are checked first.`,
          'Send now',
          'Wait',
        ),
      },
      ...(withEdit
        ? [{ type: 'button' as const, action_id: SCHEDULED_ACTIONS.edit, text: plain('Edit'), value }]
        : []),
      {
        type: 'button',
        action_id: SCHEDULED_ACTIONS.cancel,
        style: 'danger',
        text: plain('Cancel'),
        value,
        confirm: confirmDialog(
          'Cancel this scheduled send?',
          'It will not be sent. Nothing has been charged.',
          'Cancel send',
          'Keep it',
          true,
        ),
      },
    ],
  };
}

function reference(row: OutboxRow): string {
  return `S-${row.id}`;
}

/** How many chunks a send to `recipients` goes as (one: a single gateway call). */
export function chunkCountOf(recipients: number, chunkSize: number | undefined): number {
  return chunkSize && chunkSize > 0 ? Math.max(1, Math.ceil(recipients / chunkSize)) : 1;
}

/** Said of a send too large for one gateway call: it goes as a campaign of chunks, at the configured pace. */
export function campaignLine(recipients: number, chunkSize: number, intervalMs?: number): string {
  const chunks = chunkCountOf(recipients, chunkSize);
  const pace =
    intervalMs === undefined
      ? ''
      : intervalMs > 0
        ? `, one every ${intervalMs % 1000 === 0 ? plural(intervalMs / 1000, 'second') : `${formatCount(intervalMs)} ms`}`
        : ', one after another';
  return `:package: *It goes as a campaign of ${plural(chunks, 'chunk')} of up to ${formatCount(chunkSize)} recipients*${pace}, each checked and sent on its own. One campaign card shows the progress and can cancel it.`;
}

/** The card of a send waiting for its time (or held because it came too late), in the channel it was made in. */
export function scheduledCard(
  row: OutboxRow,
  options: { simulated: boolean; graceMinutes: number; chunkSize?: number; chunkIntervalMs?: number },
): { text: string; blocks: KnownBlock[] } {
  const campaign =
    options.chunkSize !== undefined && row.recipientCount > options.chunkSize ? options.chunkSize : undefined;
  const zone = scheduleZone(row);
  const when = row.dueAt ? formatScheduled(row.dueAt, zone) : 'an unknown time';
  const held = row.state === 'held';
  const blocks: KnownBlock[] = [
    ...simulatedNotice(options.simulated),
    header(held ? 'Scheduled SMS: held' : 'Scheduled SMS'),
    section(
      !held
        ? `:alarm_clock: *Scheduled for ${when}*`
        : `:warning: *Not sent: it was due ${when}*, ${
            row.reason === CAMPAIGN_NOT_STARTED
              ? 'and smsops stopped while it was starting as a campaign, before any of it was sent'
              : `while smsops was not running, and it was found more than ${plural(options.graceMinutes, 'minute')} late`
          }. It is held so that it never goes out late by surprise. <@${row.slackUser}>, send it now or cancel it.`,
    ),
    fields([
      ['Sender', escapeMrkdwn(row.sender ?? '—')],
      ['Scheduled by', `<@${row.slackUser}>`],
      ['Recipients', formatCount(row.recipientCount)],
      ['Segments', formatCount(row.segments)],
      ['Estimated cost', row.estimatedCost === null ? '—' : formatCost(row.estimatedCost)],
      ['Reference', `\`${reference(row)}\``],
    ]),
    ...(campaign === undefined
      ? []
      : [section(campaignLine(row.recipientCount, campaign, options.chunkIntervalMs))]),
    section(`>${escapeMrkdwn(truncate(row.text, 600)).replace(/\n/g, '\n>')}`),
    context(
      'Roles, opt-outs, limits and the balance are checked again when it goes. The author or an admin may send it now, edit or cancel it.',
    ),
    buttons(row, true),
  ];
  const text = held
    ? `Scheduled SMS ${reference(row)} held: it was due ${when}`
    : `SMS scheduled for ${when}`;
  return { text, blocks };
}

/**
 * The card of a scheduled send that went as a campaign: it points to the campaign's own card (posted where the
 * send was made), which shows the chunks and can cancel them. Who was left out at that moment is said.
 */
export function scheduledCampaignCard(
  row: OutboxRow,
  options: { simulated: boolean; reportTimeZone: string },
): { text: string; blocks: KnownBlock[] } {
  const payload = (row.payload ?? {}) as {
    chunkSize?: unknown;
    claimedAt?: unknown;
    optedOutAtSending?: unknown;
  };
  const chunkSize = typeof payload.chunkSize === 'number' ? payload.chunkSize : undefined;
  const chunks = chunkCountOf(row.recipientCount, chunkSize);
  const wentAt = typeof payload.claimedAt === 'string' ? new Date(payload.claimedAt) : row.updatedAt;
  const leftOut = Array.isArray(payload.optedOutAtSending) ? payload.optedOutAtSending.length : 0;
  const when = row.dueAt ? formatScheduled(row.dueAt, scheduleZone(row)) : 'an unknown time';
  const blocks: KnownBlock[] = [
    ...simulatedNotice(options.simulated),
    header('Scheduled SMS: sent as a campaign'),
    section(
      `:package: *Went ${formatScheduled(wentAt, scheduleZone(row))} as a campaign* of ${plural(chunks, 'chunk')}${chunkSize ? ` of up to ${formatCount(chunkSize)}` : ''}. Its *campaign card*, posted where it was scheduled, shows the progress and can cancel it.`,
    ),
    fields([
      ['Sender', escapeMrkdwn(row.sender ?? '—')],
      ['Scheduled by', `<@${row.slackUser}>`],
      ['Recipients', formatCount(row.recipientCount)],
      ['Estimated cost', row.estimatedCost === null ? '—' : formatCost(row.estimatedCost)],
      ['Scheduled for', when],
      ['Reference', `\`${reference(row)}\``],
    ]),
    ...(leftOut > 0
      ? [
          context(
            `:information_source: ${plural(leftOut, 'number')} opted out since it was scheduled: left out.`,
          ),
        ]
      : []),
    section(
      row.text === '' && row.redactedAt
        ? ':wastebasket: _The text is no longer kept._'
        : `>${escapeMrkdwn(truncate(row.text, 600)).replace(/\n/g, '\n>')}`,
    ),
  ];
  return { text: `Scheduled SMS ${reference(row)} went as a campaign of ${plural(chunks, 'chunk')}`, blocks };
}

/** The zone a scheduled send is shown in: its author's, as kept with it. */
export function scheduleZone(row: OutboxRow, fallback = 'UTC'): string {
  const schedule = (row.payload as { schedule?: ScheduleInfo } | null)?.schedule;
  return typeof schedule?.timeZone === 'string' ? schedule.timeZone : fallback;
}

/** On the delivery card of a send that was scheduled: when it was due. */
export function scheduledContext(row: OutboxRow): string | undefined {
  if (!row.dueAt || !(row.payload as { schedule?: unknown } | null)?.schedule) return undefined;
  return `:alarm_clock: Scheduled by <@${row.slackUser}> for ${formatScheduled(row.dueAt, scheduleZone(row))}`;
}

function listLine(row: OutboxRow): string {
  const when = row.dueAt ? formatScheduled(row.dueAt, scheduleZone(row)) : '—';
  const state = row.state === 'held' ? ' :warning: *held: its time passed*' : '';
  return `• \`${reference(row)}\` *${when}*${state} by <@${row.slackUser}>: ${plural(row.recipientCount, 'recipient')}, “${escapeMrkdwn(truncate(row.text.replace(/\s+/g, ' '), 80))}”`;
}

const LISTED = 20;

/** `/sms scheduled`: the sends waiting for their time, soonest first. */
export function scheduledListMessage(rows: readonly OutboxRow[]): { text: string; blocks: KnownBlock[] } {
  if (rows.length === 0) {
    const text = 'No scheduled sends. Choose *Schedule* in the compose modal (`/sms send`) to make one.';
    return { text, blocks: [section(text)] };
  }
  const shown = rows.slice(0, LISTED);
  const more = rows.length > shown.length ? `\n…and ${formatCount(rows.length - shown.length)} more` : '';
  return {
    text: `${plural(rows.length, 'scheduled send')}`,
    blocks: [
      header('Scheduled sends'),
      section(`${shown.map(listLine).join('\n')}${more}`),
      context('Each has a card where it was scheduled, with Send now, Edit and Cancel.'),
    ],
  };
}

/** The App Home's part: the sends waiting for their time. */
export function scheduledHomeBlocks(rows: readonly OutboxRow[] | undefined, problem?: string): KnownBlock[] {
  const title = section('*Scheduled sends*');
  if (!rows) return [title, context(`:warning: Not available: ${escapeMrkdwn(problem ?? 'unknown reason')}`)];
  if (rows.length === 0) return [title, context('None waiting.')];
  const shown = rows.slice(0, 10);
  const more =
    rows.length > shown.length
      ? `\n…and ${formatCount(rows.length - shown.length)} more: \`/sms scheduled\``
      : '';
  return [title, section(`${shown.map(listLine).join('\n')}${more}`)];
}

/** The modal after scheduling (or editing) a send. */
export function scheduledDoneView(row: OutboxRow, edited: boolean, simulated: boolean): ModalView {
  const when = row.dueAt ? formatScheduled(row.dueAt, scheduleZone(row)) : '—';
  return {
    type: 'modal',
    title: plain(edited ? 'Schedule updated' : 'SMS scheduled'),
    close: plain('Close'),
    blocks: [
      ...simulatedNotice(simulated),
      section(
        `:white_check_mark: ${edited ? 'Updated' : 'Scheduled'}: ${plural(row.recipientCount, 'recipient')}, *scheduled for ${when}*. Its card in the channel has *Send now*, *Edit* and *Cancel*.`,
      ),
    ],
  };
}
