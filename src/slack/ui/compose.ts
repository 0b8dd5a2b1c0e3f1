import type { KnownBlock, ModalView, PlainTextOption } from '@slack/types';
import type { ComposeMode, Draft, FileReport } from '../compose/draft.js';
import { encodingLabel, firstRecipient, recipientCount } from '../compose/draft.js';
import { context, fields, header, LIMITS, section, simulatedNotice } from './blocks.js';
import { fileReportBlocks } from './file-report.js';
import { escapeMrkdwn, formatCost, formatCount, formatNumber, plural, truncate } from './format.js';
import { replyingToBlock } from './reply-context.js';
import { campaignLine, scheduleBlocks, scheduledLine } from './scheduled.js';

export const COMPOSE_CALLBACK = 'compose';
export const CONFIRM_CALLBACK = 'confirm_send';

/** Block and action ids of the compose modal; `text` carries a version (see composeView). */
export const FIELD = {
  sender: 'sender',
  mode: 'mode',
  recipients: 'recipients',
  list: 'list',
  csv: 'csv',
  template: 'template',
  text: 'text',
  encoding: 'encoding',
  validity: 'validity',
  estimate: 'estimate',
  /** A file_input: recipients (same text) or the personalised table, from an uploaded file. */
  file: 'file',
} as const;

/** The file types the file input offers; Slack treats them as a hint, the bot checks the bytes. */
export const RECIPIENT_FILE_TYPES = ['csv', 'tsv', 'txt', 'xlsx'];

function fileBlock(mode: ComposeMode): KnownBlock {
  return {
    type: 'input',
    block_id: FIELD.file,
    optional: true,
    label: plain(mode === 'same' ? '…or a file of numbers' : '…or the table as a file'),
    hint: plain(
      mode === 'same'
        ? '.csv, .tsv, .txt (one number per line) or .xlsx, up to 10 MB. The phone column is found by its name (Telefon, GSM, Cep…) or its content. You see what the file gave before anything is sent.'
        : '.csv, .tsv or .xlsx with a header row naming the columns, up to 10 MB. You see the columns found and a rendered example before anything is sent.',
    ),
    element: { type: 'file_input', action_id: FIELD.file, max_files: 1, filetypes: RECIPIENT_FILE_TYPES },
  } as unknown as KnownBlock;
}

/** Small, so it always fits private_metadata: where the send came from and where its card goes. */
export interface ComposeMetadata {
  channel: string;
  /** A reply: the thread the card goes into. */
  threadTs?: string;
  mode: ComposeMode;
  /** Bumped when a template replaces the text, so Slack shows the new text instead of what was typed. */
  textVersion: number;
  /** The user's time zone (users.info): with it the modal offers Send now or Schedule. */
  tz?: string;
  /** False when the zone is REPORT_TIMEZONE standing in for one Slack would not give. */
  tzFromSlack?: boolean;
  /** Editing this scheduled send (outbox id): saving updates it. */
  editing?: number;
  /** Its time, in UNIX seconds, shown in the picker. */
  scheduleAt?: number;
}

export interface ComposeViewOptions {
  senders: readonly { name: string; isDefault: boolean }[];
  /** Set when GetSenders failed: the sender becomes a text field and this says why. */
  sendersProblem?: string;
  lists: readonly { name: string; size: number }[];
  templates: readonly { name: string }[];
  prefill: { recipients?: string; text?: string; sender?: string; csv?: string; replyingTo?: string };
  estimate: string;
  /** What the submit button does now: Review, Send now, Schedule or Save (compose/submit-label.ts). */
  submitLabel: string;
  metadata: ComposeMetadata;
  simulated: boolean;
}

const plain = (text: string) => ({ type: 'plain_text' as const, text, emoji: true });

function option(value: string, label = value): PlainTextOption {
  return { text: plain(truncate(label, LIMITS.plainOption)), value: truncate(value, 150) };
}

export function textBlockId(version: number): string {
  return version === 0 ? FIELD.text : `${FIELD.text}_${version}`;
}

function senderBlock(o: ComposeViewOptions): KnownBlock {
  const chosen = o.prefill.sender ?? o.senders.find((s) => s.isDefault)?.name ?? o.senders[0]?.name;
  if (o.senders.length === 0) {
    return {
      type: 'input',
      block_id: FIELD.sender,
      label: plain('Sender'),
      hint: plain(o.sendersProblem ?? 'Type a sender name of the account.'),
      element: {
        type: 'plain_text_input',
        action_id: FIELD.sender,
        initial_value: chosen,
        max_length: 11 * 4,
      },
    };
  }
  const options = o.senders
    .slice(0, 100)
    .map((s) => option(s.name, s.isDefault ? `${s.name} (default)` : s.name));
  const initial = options.find((opt) => opt.value === chosen);
  return {
    type: 'input',
    block_id: FIELD.sender,
    label: plain('Sender'),
    element: {
      type: 'static_select',
      action_id: FIELD.sender,
      options,
      ...(initial ? { initial_option: initial } : {}),
    },
  };
}

const MODE_OPTIONS: PlainTextOption[] = [
  option('same', 'Same text to everyone'),
  option('personalised', 'Personalised from CSV ({{column}} placeholders)'),
];

export function composeView(o: ComposeViewOptions): ModalView {
  const { mode } = o.metadata;
  const blocks: KnownBlock[] = [
    ...simulatedNotice(o.simulated),
    ...(o.prefill.replyingTo ? [replyingToBlock(o.prefill.replyingTo)] : []),
    senderBlock(o),
  ];
  blocks.push({
    type: 'input',
    block_id: FIELD.mode,
    dispatch_action: true,
    label: plain('Mode'),
    element: {
      type: 'radio_buttons',
      action_id: FIELD.mode,
      options: MODE_OPTIONS,
      initial_option: MODE_OPTIONS[mode === 'same' ? 0 : 1],
    },
  });
  if (mode === 'same') {
    blocks.push({
      type: 'input',
      block_id: FIELD.recipients,
      optional: true,
      dispatch_action: true,
      label: plain('Recipients'),
      hint: plain(
        'One per line, or separated by commas or spaces. 0532 123 45 67, +90 532 123 45 67 and 905321234567 all work.',
      ),
      element: {
        type: 'plain_text_input',
        action_id: FIELD.recipients,
        multiline: true,
        initial_value: o.prefill.recipients,
        dispatch_action_config: { trigger_actions_on: ['on_character_entered'] },
        placeholder: plain('0532 123 45 67'),
      },
    });
    blocks.push(fileBlock('same'));
    if (o.lists.length > 0) {
      blocks.push({
        type: 'input',
        block_id: FIELD.list,
        optional: true,
        dispatch_action: true,
        label: plain('…or a saved list'),
        element: {
          type: 'static_select',
          action_id: FIELD.list,
          placeholder: plain('Choose a list'),
          options: o.lists.slice(0, 100).map((l) => option(l.name, `${l.name} (${formatCount(l.size)})`)),
        },
      });
    }
  } else {
    blocks.push({
      type: 'input',
      block_id: FIELD.csv,
      optional: true,
      dispatch_action: true,
      label: plain('Recipients as CSV'),
      hint: plain(
        'A header row, then one row per recipient. The number column is called number, phone or msisdn, or comes first.',
      ),
      element: {
        type: 'plain_text_input',
        action_id: FIELD.csv,
        multiline: true,
        initial_value: o.prefill.csv,
        dispatch_action_config: { trigger_actions_on: ['on_character_entered'] },
        placeholder: plain('number,name\n0532 123 45 67,Ayşe'),
      },
    });
    blocks.push(fileBlock('personalised'));
  }
  if (o.templates.length > 0) {
    blocks.push({
      type: 'input',
      block_id: FIELD.template,
      optional: true,
      dispatch_action: true,
      label: plain('Start from a template'),
      element: {
        type: 'static_select',
        action_id: FIELD.template,
        placeholder: plain('Choose a template'),
        options: o.templates.slice(0, 100).map((t) => option(t.name)),
      },
    });
  }
  blocks.push({
    type: 'input',
    block_id: textBlockId(o.metadata.textVersion),
    dispatch_action: true,
    label: plain(mode === 'same' ? 'Message' : 'Message template'),
    ...(mode === 'personalised'
      ? { hint: plain('Use {{column}} for a value of the row, e.g. Hello {{name}}.') }
      : {}),
    element: {
      type: 'plain_text_input',
      action_id: FIELD.text,
      multiline: true,
      initial_value: o.prefill.text,
      dispatch_action_config: { trigger_actions_on: ['on_character_entered'] },
    },
  });
  blocks.push({
    type: 'context',
    block_id: FIELD.estimate,
    elements: [{ type: 'mrkdwn', text: truncate(o.estimate, 2000) }],
  });
  const encodings: PlainTextOption[] = [
    option('auto', 'Automatic (cheapest that fits)'),
    option('GSM7', 'GSM-7'),
    option('TurkishSingleShift', 'Turkish single shift'),
    option('UCS2', 'UCS-2 (any character)'),
  ];
  blocks.push({
    type: 'input',
    block_id: FIELD.encoding,
    optional: true,
    dispatch_action: true,
    label: plain('Encoding'),
    element: {
      type: 'static_select',
      action_id: FIELD.encoding,
      options: encodings,
      initial_option: encodings[0],
    },
  });
  blocks.push({
    type: 'input',
    block_id: FIELD.validity,
    optional: true,
    label: plain('Validity (minutes)'),
    hint: plain('How long the gateway keeps trying to deliver. 1440 = 24 hours.'),
    element: {
      type: 'number_input',
      action_id: FIELD.validity,
      is_decimal_allowed: false,
      min_value: '1',
      max_value: '10080',
      initial_value: '1440',
    },
  });
  const { tz, scheduleAt } = o.metadata;
  if (tz) {
    const initial = scheduleAt ? { at: new Date(scheduleAt * 1000) } : undefined;
    blocks.push(...scheduleBlocks({ timeZone: tz, fromSlack: o.metadata.tzFromSlack !== false }, initial));
  }
  return {
    type: 'modal',
    callback_id: COMPOSE_CALLBACK,
    title: plain(
      o.metadata.editing ? 'Edit scheduled SMS' : o.metadata.threadTs ? 'Reply by SMS' : 'Send SMS',
    ),
    submit: plain(o.submitLabel),
    close: plain('Cancel'),
    private_metadata: JSON.stringify(o.metadata),
    blocks,
  };
}

export function loadingView(title: string, text = ':hourglass_flowing_sand: Loading…'): ModalView {
  return { type: 'modal', title: plain(truncate(title, 24)), close: plain('Close'), blocks: [section(text)] };
}

/** A modal that only informs: the result of a send, an error, "Sending…". */
export function messageView(title: string, blocks: KnownBlock[]): ModalView {
  return { type: 'modal', title: plain(truncate(title, 24)), close: plain('Close'), blocks };
}

export function draftSummary(draft: Draft): KnownBlock[] {
  // A personalised draft's first message, without joining the others (see buildDraft).
  const first = draft.firstMessage ?? draft.envelopes?.[0]?.message;
  const sample = first === undefined ? undefined : { to: firstRecipient(draft) ?? '', message: first };
  const blocks: KnownBlock[] = [
    fields([
      ['Sender', escapeMrkdwn(draft.sender)],
      ['Recipients', formatCount(recipientCount(draft))],
      ['Encoding', encodingLabel(draft.encoding)],
      ['Segments', `${formatCount(draft.totalSegments)} (up to ${draft.segmentsPerMessage} per message)`],
      ['Estimated cost', formatCost(draft.estimatedCost)],
      ['Validity', plural(draft.validityMinutes, 'minute')],
    ]),
    section(
      sample
        ? `*First message* (to ${formatNumber(sample.to)}):\n>${escapeMrkdwn(truncate(sample.message, 1200)).replace(/\n/g, '\n>')}`
        : `*Message*:\n>${escapeMrkdwn(truncate(draft.text, 1200)).replace(/\n/g, '\n>')}`,
    ),
  ];
  if (draft.notices.length > 0)
    blocks.push(context(draft.notices.map((n) => `:information_source: ${n}`).join('  ')));
  return blocks;
}

export function confirmView(
  draft: Draft,
  draftKey: string,
  simulated: boolean,
  schedule?: { dueAt: Date; timeZone: string },
  fileReport?: FileReport,
  externalId?: string,
  /** SUBMIT_CHUNK_SIZE and SUBMIT_CHUNK_INTERVAL_MS: a larger send says it goes as a campaign of chunks. */
  campaign?: { chunkSize: number; intervalMs?: number },
): ModalView {
  const verb = schedule ? 'Schedule' : 'Send';
  const chunked = campaign && recipientCount(draft) > campaign.chunkSize ? campaign : undefined;
  return {
    ...(externalId ? { external_id: externalId } : {}),
    type: 'modal',
    callback_id: CONFIRM_CALLBACK,
    title: plain(schedule ? 'Confirm schedule' : 'Confirm send'),
    submit: plain(truncate(`${verb} ${formatCount(recipientCount(draft))} messages`, 24)),
    close: plain('Back'),
    private_metadata: JSON.stringify({ draftKey }),
    blocks: [
      ...simulatedNotice(simulated),
      header(
        `${verb} ${plural(recipientCount(draft), 'SMS', 'SMS')} for about ${formatCost(draft.estimatedCost)}?`,
      ),
      ...(schedule ? [section(scheduledLine(schedule.dueAt, schedule.timeZone))] : []),
      ...(chunked
        ? [section(campaignLine(recipientCount(draft), chunked.chunkSize, chunked.intervalMs))]
        : []),
      ...draftSummary(draft),
      ...(fileReport ? fileReportBlocks(fileReport, draftKey) : []),
      context(
        schedule
          ? 'Nothing is sent now. At that time roles, opt-outs, limits and the balance are checked again; Back lets you choose Send now instead.'
          : 'Nothing is sent until you press the button. An SMS cannot be taken back once delivered.',
      ),
    ],
  };
}
