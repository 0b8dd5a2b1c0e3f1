import type { RecipientList } from '../../store/index.js';
import { type AdminMessage, listMessage, mention, notice, type Page, pageFooter } from './admin-common.js';
import { context, section } from './blocks.js';
import { escapeMrkdwn, formatNumber, formatTime, plural } from './format.js';

export const MEMBERS_PER_PAGE = 100;
const PREVIEW_MEMBERS = 10;

// Names are escaped although /sms lists add restricts them: other code paths may create lists too.
const n = (name: string) => escapeMrkdwn(name);

export function listsOverviewMessage(lists: readonly RecipientList[]): AdminMessage {
  return listMessage({
    title: 'Recipient lists',
    lines: lists.map(
      (l) => `• *${n(l.name)}* — ${plural(l.members.length, 'number')}, owner ${mention(l.owner)}`,
    ),
    empty: '_No saved lists yet._',
    footer: ['`/sms lists show <name>` · `/sms lists add <name> <numbers…>` · `/sms lists delete <name>`'],
    text: `${plural(lists.length, 'recipient list')}`,
  });
}

export function listCreatedMessage(
  list: RecipientList,
  notes: { duplicates: number; optedOut: number },
): AdminMessage {
  const extra: string[] = [];
  if (notes.duplicates > 0) {
    extra.push(
      `${plural(notes.duplicates, 'number')} appeared more than once and ${notes.duplicates === 1 ? 'is' : 'are'} kept once.`,
    );
  }
  if (notes.optedOut > 0) {
    extra.push(
      `:no_entry_sign: ${plural(notes.optedOut, 'member')} opted out and will be skipped when sending.`,
    );
  }
  const preview = list.members.slice(0, PREVIEW_MEMBERS).map(formatNumber).join(', ');
  const more =
    list.members.length > PREVIEW_MEMBERS ? `, …and ${list.members.length - PREVIEW_MEMBERS} more` : '';
  return {
    text: `Saved list ${n(list.name)} with ${plural(list.members.length, 'number')}`,
    blocks: [
      section(
        `:white_check_mark: Saved list *${n(list.name)}* with ${plural(list.members.length, 'number')}: ${preview}${more}.${extra.length > 0 ? `\n${extra.join('\n')}` : ''}`,
      ),
      context(`See it: \`/sms lists show ${n(list.name)}\` · send to it from \`/sms send\``),
    ],
  };
}

export function listShowMessage(
  list: RecipientList,
  page: Page<string>,
  optedOut: ReadonlySet<string>,
  timeZone: string,
): AdminMessage {
  const skipped = optedOut.size > 0 ? ` ${plural(optedOut.size, 'member')} on this page opted out.` : '';
  return listMessage({
    title: `List ${list.name}`,
    intro: `${plural(list.members.length, 'number')}, owner ${mention(list.owner)}, updated ${formatTime(list.updatedAt, timeZone)}.${skipped}`,
    lines: page.items.map(
      (msisdn, i) =>
        `${page.first + i}. ${formatNumber(msisdn)}${optedOut.has(msisdn) ? ' — :no_entry_sign: opted out' : ''}`,
    ),
    empty: '_The list is empty._',
    footer: [pageFooter(page, `/sms lists show ${n(list.name)}`)],
    text: `List ${n(list.name)}: ${plural(list.members.length, 'number')}`,
  });
}

export function listDeletedMessage(list: RecipientList): AdminMessage {
  return notice(
    `:wastebasket: Deleted list *${n(list.name)}* (${plural(list.members.length, 'number')}, owner ${mention(list.owner)}).`,
    `Deleted list ${n(list.name)}`,
  );
}
