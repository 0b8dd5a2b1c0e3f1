import type { SendRefusal } from '../../sending/checks.js';
import type { Role } from '../../store/index.js';
import { describeUnsendable } from '../compose/draft.js';
import { denialText } from '../permissions.js';
import { formatCost, formatCount, formatNumber, plural } from './format.js';

const SHOWN_NUMBERS = 3;

function someNumbers(numbers: readonly string[]): string {
  const shown = numbers.slice(0, SHOWN_NUMBERS).map(formatNumber).join(', ');
  return numbers.length > SHOWN_NUMBERS ? `${shown}, …` : shown;
}

/** Why a send was stopped when the gateway was about to be called, and what to do about it. */
export function refusalText(refusal: SendRefusal, role: Role | undefined): string {
  const nothing = 'Nothing was sent or charged.';
  switch (refusal.kind) {
    case 'role':
      return `${nothing} ${denialText('sender', role)}`;
    case 'all-opted-out':
      return `:no_entry_sign: ${nothing} Every recipient has opted out since this send was composed (${someNumbers(refusal.optedOut)}).`;
    case 'too-many-recipients':
      return `:no_entry_sign: ${nothing} This send has ${formatCount(refusal.recipients)} recipients and the limit is now ${formatCount(refusal.limit)} per send. Start again with \`/sms send\` and split it.`;
    case 'too-many-segments':
      return `:no_entry_sign: ${nothing} Each message needs ${refusal.segments} segments and the limit is now ${refusal.limit}. Start again with \`/sms send\` and shorten the text.`;
    case 'unsendable-text': {
      const first = refusal.characters[0]!;
      const whose = refusal.recipient ? ` of the message to ${formatNumber(refusal.recipient)}` : '';
      return `:no_entry_sign: ${nothing} ${describeUnsendable(first)}${whose}, which SMS cannot carry. Start again with \`/sms send\` without it.`;
    }
    case 'balance-short':
      return `:no_entry_sign: ${nothing} The usable balance is ${formatCost(refusal.usable)}, less than the estimated ${formatCost(refusal.needed)} of this send. Top up, then send it again.`;
  }
}

/** Said with the result of a send that went out without the numbers that opted out meanwhile. */
export function leftOutText(optedOut: readonly string[]): string {
  return `:information_source: ${plural(optedOut.length, 'number')} opted out after this send was composed and ${optedOut.length === 1 ? 'was' : 'were'} left out (${someNumbers(optedOut)}).`;
}
