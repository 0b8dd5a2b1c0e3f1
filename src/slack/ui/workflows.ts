import type { SendOutcome } from '../../sending/send.js';
import type { Role } from '../../store/index.js';
import type { AdminMessage } from './admin-common.js';
import { aRole, mention, notice } from './admin-common.js';
import { formatCount, formatTime } from './format.js';
import { refusalText } from './send-checks.js';

/** The callback ids of the steps, as manifest.yml declares them under `functions`. */
export const STEP_SEND_SMS = 'send_sms';
export const STEP_GET_BALANCE = 'get_sms_balance';

export function workflowsStateMessage(
  state: { on: boolean; by?: string; since?: Date },
  timeZone: string,
  changed: boolean,
): AdminMessage {
  const who = state.by
    ? ` (${changed ? 'by you' : `by ${mention(state.by)}`}, ${formatTime(state.since, timeZone)})`
    : '';
  const text = state.on
    ? `:white_check_mark: Workflow Builder steps are *on*${who}: workflows can run *Send an SMS* and *Get SMS balance*. Each send is checked as a send of the person who started the workflow (sender role, opt-outs, limits) and is written to the audit log. \`/sms workflows off\` stops them.`
    : `:no_entry_sign: Workflow Builder steps are *off*${who}: a workflow that runs *Send an SMS* or *Get SMS balance* ends with an error and sends nothing. \`/sms workflows on\` allows them.`;
  return notice(text, text.replace(/:[a-z_]+: /g, '').replace(/\*/g, ''));
}

/** `/sms workflows unattended`: whether steps with nobody behind them may send, where they show, how many a day. */
export function unattendedStateMessage(
  state: { channel: string; dailyCap: number; by: string; since: Date } | undefined,
  timeZone: string,
  changed: boolean,
): AdminMessage {
  const text = state
    ? `:robot_face: Workflow steps with nobody behind them (scheduled or event-triggered workflows) may send, on the authority of ${changed ? 'you' : mention(state.by)} (${formatTime(state.since, timeZone)}) while ${changed ? 'you stay' : 'they stay'} an admin: at most ${formatCount(state.dailyCap)} SMS a day (one per recipient), each send's card in <#${state.channel}>. \`/sms workflows unattended off\` stops them.`
    : ":lock: Workflow steps send only for the person who started the workflow, with that person's rights; steps with nobody behind them are refused. `/sms workflows unattended on [daily cap]`, run in the channel that should see every such send, allows them.";
  return notice(text, text.replace(/:[a-z_]+: /g, '').replace(/\*/g, ''));
}

/** What a workflow author reads when a step ends in error: what happened, then what to change. */
/** Why `/sms workflows unattended on` is refused in a DM or a group DM. */
export const UNATTENDED_NEEDS_CHANNEL =
  'Run `/sms workflows unattended on` in the channel that should see every send it allows: a direct message or a group DM is not a channel the team watches. Nothing was changed.';

export const stepErrors = {
  off: () =>
    'smsops SMS steps are turned off, so nothing was sent. An smsops admin can turn them on with `/sms workflows on` in Slack.',
  noStarter: () =>
    'Nobody started this workflow (it runs on a schedule or an event), so nothing was sent: a step sends with the rights of the person who starts the workflow. Start it from a link, a shortcut or a button, and map "Started by" to the workflow\'s interactivity; or an smsops admin can allow steps with nobody behind them with `/sms workflows unattended on` in the channel that should see each send.',
  role: (userId: string, role: Role | undefined) =>
    `<@${userId}> (who started this workflow) is ${aRole(role)} in smsops and needs the sender role, so nothing was sent. An smsops admin can run \`/sms grant @user sender\`.`,
  unattendedLapsed: (admin: string) =>
    `Steps with nobody behind them were allowed by <@${admin}>, who is no longer an smsops admin, so nothing was sent. An smsops admin can allow them again with \`/sms workflows unattended on\`.`,
  unattendedCap: (sms: number, sentToday: number, cap: number) =>
    `This step would send ${formatCount(sms)} SMS, and steps with nobody behind them have sent ${formatCount(sentToday)} of their daily cap of ${formatCount(cap)} SMS today, so nothing was sent. An smsops admin can raise the cap with \`/sms workflows unattended on <cap>\` in the channel that sees the sends; the count starts again at midnight UTC.`,
  unattendedChannel: (channel: string) =>
    `Steps with nobody behind them show each send in <#${channel}>, and smsops cannot post there (the channel was archived, or smsops is not in it), so nothing was sent. An smsops admin can \`/invite @smsops\` there, or run \`/sms workflows unattended on\` in a channel smsops is in.`,
  noRecipients: () => 'The step has no recipients, so nothing was sent. Give at least one phone number.',
  overCap: (count: number, cap: number) =>
    `The step has ${formatCount(count)} recipients; one workflow step may send to at most ${formatCount(cap)} (WORKFLOW_MAX_RECIPIENTS), so nothing was sent. Split the recipients across steps, or send larger batches with \`/sms send\`.`,
  invalid: (errors: Record<string, string>) => {
    const names: Record<string, string> = {
      recipients: 'Recipients',
      text: 'Message',
      sender: 'Sender',
      encoding: 'Message',
    };
    const lines = Object.entries(errors).map(([field, message]) => `${names[field] ?? field}: ${message}`);
    return `Nothing was sent. ${lines.join(' ')}`;
  },
  noSender: () =>
    'The gateway account has no sender name to send from, so nothing was sent. Give a sender in the step, or ask an smsops admin to check `/sms senders`.',
  outcome: (outcome: Exclude<SendOutcome, { kind: 'submitted' }>) => {
    switch (outcome.kind) {
      case 'rejected':
        return `The SMS gateway refused the send: ${outcome.description || 'no reason given'} (code ${outcome.code}). Nothing was sent or charged.`;
      case 'not-sent':
        return 'The SMS gateway could not be reached, so nothing was sent. Run the workflow again later.';
      case 'unknown':
        return `The SMS gateway did not answer clearly: the send may or may not have gone out, and smsops will not resend it. Check it with \`/sms status S-${outcome.row.id}\` before running the workflow again.`;
      case 'duplicate':
        return `This step was already run (send S-${outcome.row.id}, state ${outcome.row.state}); it is not sent twice.`;
      case 'refused':
        return refusalText(outcome.refusal, undefined).replace(/:[a-z_]+: /g, '');
    }
  },
  failed: (sentence: string) => `Nothing was sent. ${sentence.replace(/^:[a-z_]+: /, '')}`,
};
