import type { KnownBlock } from '@slack/types';
import type { AdminMessage } from './admin-common.js';
import { context, section } from './blocks.js';
import { escapeMrkdwn, formatNumber, plural } from './format.js';

/** What `/sms forget` took out of the store. */
export interface Forgotten {
  sends: number;
  /** Of those, sends to this number alone, whose text went too. */
  texts: number;
  threads: number;
  drafts: number;
  /** Names of the saved lists it was taken out of. */
  lists: string[];
  optedOut: boolean;
}

const LISTS_NAMED = 10;

function listNames(lists: readonly string[]): string {
  const named = lists.slice(0, LISTS_NAMED).map((n) => `*${escapeMrkdwn(n)}*`);
  const more = lists.length > LISTS_NAMED ? ` and ${lists.length - LISTS_NAMED} more` : '';
  return `${named.join(', ')}${more}`;
}

export function forgottenMessage(msisdn: string, f: Forgotten): AdminMessage {
  const number = formatNumber(msisdn);
  const found = f.sends + f.threads + f.drafts + f.lists.length > 0;
  const lines = [
    `• Sends: taken out of ${plural(f.sends, 'send')}${f.texts > 0 ? `, with the text of ${plural(f.texts, 'send')} to this number alone` : ''}. Recipient counts stay, for statistics.`,
    `• Inbound conversation threads: ${f.threads}.`,
    `• Saved lists: ${f.lists.length > 0 ? `taken out of ${listNames(f.lists)}` : 'in none'}.`,
    `• Sends awaiting confirmation: ${f.drafts}.`,
  ];
  const optOut = f.optedOut
    ? `*${number}* stays opted out: smsops keeps that, so it will still never text this number.`
    : `*${number}* was not opted out.`;
  const blocks: KnownBlock[] = [
    section(
      found
        ? `:broom: smsops has forgotten *${number}*:\n${lines.join('\n')}`
        : `:broom: smsops held nothing about *${number}*: no send, conversation thread, saved list or draft has it.`,
    ),
    section(optOut),
    context(
      'Written to the audit log with the last digits only. Messages already posted in Slack and the gateway’s own records are not changed here.',
    ),
  ];
  return { text: `${number} forgotten`, blocks };
}
