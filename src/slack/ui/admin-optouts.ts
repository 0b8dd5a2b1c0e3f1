import type { OptOut } from '../../store/index.js';
import { type AdminMessage, listMessage, mention, notice, type Page, pageFooter } from './admin-common.js';
import { formatNumber, formatTime, plural } from './format.js';

export const OPT_OUTS_PER_PAGE = 50;

function sourceOf(entry: OptOut): string {
  return entry.source === 'stop_word' ? 'STOP word' : 'manual';
}

function origin(entry: OptOut, timeZone: string): string {
  const by = entry.by ? ` by ${mention(entry.by)}` : '';
  return `since ${formatTime(entry.since, timeZone)}, ${sourceOf(entry)}${by}`;
}

export function optOutAddedMessage(msisdn: string): AdminMessage {
  const number = formatNumber(msisdn);
  return notice(
    `:no_entry_sign: *${number}* is opted out: smsops will not send it any SMS until \`/sms optout remove ${number}\`.`,
    `${number} is opted out`,
  );
}

export function alreadyOptedOutMessage(
  entry: OptOut | undefined,
  msisdn: string,
  timeZone: string,
): AdminMessage {
  const number = formatNumber(msisdn);
  // The row can vanish between add() and list() if someone removes it meanwhile.
  const since = entry ? ` (${origin(entry, timeZone)})` : '';
  return notice(
    `*${number}* is already opted out${since}; nothing changed.`,
    `${number} is already opted out${since}`,
  );
}

export function optOutRemovedMessage(entry: OptOut | undefined, msisdn: string): AdminMessage {
  const number = formatNumber(msisdn);
  // Whoever texted STOP asked not to be contacted: lifting that should be a conscious decision.
  const stop =
    entry?.source === 'stop_word'
      ? ' They had opted out by texting a STOP word: make sure they asked to receive SMS again.'
      : '';
  return notice(
    `:white_check_mark: *${number}* can receive SMS again.${stop}`,
    `${number} can receive SMS again`,
  );
}

export function notOptedOutMessage(msisdn: string): AdminMessage {
  const number = formatNumber(msisdn);
  return notice(`*${number}* is not opted out; nothing changed.`, `${number} is not opted out`);
}

export function optOutListMessage(page: Page<OptOut>, timeZone: string): AdminMessage {
  return listMessage({
    title: 'Opted-out numbers',
    intro:
      page.total > 0
        ? `${plural(page.total, 'number')} will not receive SMS from smsops. Newest first; times in ${timeZone}.`
        : undefined,
    lines: page.items.map((entry) => `• *${formatNumber(entry.msisdn)}* — ${origin(entry, timeZone)}`),
    empty: '_No number is opted out._ Add one with `/sms optout add 0532 123 45 67`.',
    footer: [pageFooter(page, '/sms optout list')],
    text: `${plural(page.total, 'opted-out number')}`,
  });
}
