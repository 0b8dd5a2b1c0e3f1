import { type InvalidRecipient, parseRecipients } from '../../sms/index.js';
import { UserInputError } from '../errors.js';
import { pageOf, quoted } from '../ui/admin-common.js';
import {
  listCreatedMessage,
  listDeletedMessage,
  listShowMessage,
  listsOverviewMessage,
  MEMBERS_PER_PAGE,
} from '../ui/admin-lists.js';
import { escapeMrkdwn, plural } from '../ui/format.js';
import { LIST_MAX_MEMBERS, listImportView } from '../ui/list-import.js';
import { parsePage, splitWords, usageError } from './arguments.js';
import { type CommandContext, reply, type SubcommandHandlers } from './context.js';
import {
  deleteNamed,
  findNamed,
  findOrFail,
  namedCommand,
  nameTaken,
  parseName,
  refuseUnlessOwner,
} from './saved-items.js';

const INVALID_SHOWN = 5;

export const listsCommand = namedCommand('lists', {
  overview: async (ctx) => reply(ctx, listsOverviewMessage(await ctx.deps.store.recipientLists.list())),
  add: listAdd,
  import: listImport,
  show: listShow,
  delete: async (ctx, rest) => {
    const list = await deleteNamed(
      ctx,
      rest,
      { subcommand: 'lists', noun: 'list', repo: ctx.deps.store.recipientLists },
      (l) => ({ size: l.members.length, owner: l.owner }),
    );
    await reply(ctx, listDeletedMessage(list));
  },
});

async function listAdd(ctx: CommandContext, rest: string): Promise<void> {
  const {
    words: [typedName],
    rest: numbersText,
  } = splitWords(rest, 1);
  const name = parseName(typedName, 'list', 'lists');
  if (!numbersText) throw usageError('lists', `Which numbers go in list *${name}*?`);
  const { store, settings } = ctx.deps;
  const taken = await findNamed(store.recipientLists, name);
  if (taken) throw nameTaken('list', 'lists', taken.name);
  const max = settings.sending.maxRecipients;
  const parsed = parseRecipients(numbersText, settings.defaultCountry, { max });
  if (parsed.invalid.length > 0) throw invalidNumbers(numbersText, parsed.invalid);
  if (parsed.recipients.length === 0) throw usageError('lists', `No numbers found for list *${name}*.`);
  if (parsed.tooMany) {
    throw new UserInputError(
      `That is ${plural(parsed.recipients.length, 'number')}; a list holds at most ${max}.`,
    );
  }
  const members = parsed.recipients.map((r) => r.msisdn);
  const now = ctx.deps.now();
  const { row, created } = await store.recipientLists.create({ name, owner: ctx.userId, members, at: now });
  if (!created) throw nameTaken('list', 'lists', row.name);
  await store.audit.append({
    actor: ctx.userId,
    action: 'list_create',
    target: name,
    details: { size: members.length },
    at: now,
  });
  const optedOut = await store.optOuts.hasMany(members);
  const duplicates = parsed.duplicates.reduce((sum, d) => sum + d.lines.length - 1, 0);
  await reply(ctx, listCreatedMessage(row, { duplicates, optedOut: optedOut.size }));
}

/** `lists import <name> [append|replace]`: a modal with a file input; the submission does the import. */
async function listImport(ctx: CommandContext, rest: string): Promise<void> {
  const {
    words: [typedName, typedMode],
  } = splitWords(rest, 2);
  const name = parseName(typedName, 'list', 'lists');
  const mode = typedMode?.toLowerCase();
  if (mode !== undefined && mode !== 'append' && mode !== 'replace') {
    throw usageError(
      'lists',
      `Say \`append\` or \`replace\` after the name, e.g. \`/sms lists import ${name} append\`.`,
    );
  }
  const existing = await findNamed(ctx.deps.store.recipientLists, name);
  if (existing && mode === undefined) {
    throw usageError(
      'lists',
      `List *${existing.name}* exists: \`/sms lists import ${existing.name} append\` adds the file's numbers, \`… replace\` replaces them.`,
    );
  }
  if (existing) refuseUnlessOwner(ctx, existing, 'list', 'change');
  await ctx.client.views.open({
    trigger_id: ctx.triggerId,
    view: listImportView(
      { name: existing?.name ?? name, mode: existing ? (mode as 'append' | 'replace') : 'create' },
      LIST_MAX_MEMBERS,
    ),
  });
}

async function listShow(ctx: CommandContext, rest: string): Promise<void> {
  const {
    words: [typedName, typedPage = ''],
  } = splitWords(rest, 2);
  const list = await findOrFail(ctx.deps.store.recipientLists, typedName, 'list', 'lists');
  const command = `/sms lists show ${list.name}`;
  const page = pageOf(
    list.members,
    parsePage(typedPage, list.members.length, MEMBERS_PER_PAGE, command),
    MEMBERS_PER_PAGE,
  );
  const optedOut = await ctx.deps.store.optOuts.hasMany(page.items);
  await reply(ctx, listShowMessage(list, page, optedOut, ctx.deps.settings.reportTimeZone));
}

export const LIST_HANDLERS = { lists: listsCommand } satisfies SubcommandHandlers;

/** Names the first few bad entries with where they are, so they can be found in a long paste. */
function invalidNumbers(text: string, invalid: readonly InvalidRecipient[]): UserInputError {
  const lines = text.split(/\r\n|\r|\n/);
  const searchFrom = new Map<number, number>();
  const shown = invalid.slice(0, INVALID_SHOWN).map((bad) => {
    const lineText = lines[bad.line - 1] ?? '';
    const at = lineText.indexOf(bad.input, searchFrom.get(bad.line) ?? 0);
    if (at >= 0) searchFrom.set(bad.line, at + bad.input.length);
    const where = at >= 0 ? `line ${bad.line}, position ${at + 1}` : `line ${bad.line}`;
    return `• ${quoted(bad.input, 40)} (${where}): ${escapeMrkdwn(bad.reason)}`;
  });
  const more = invalid.length > INVALID_SHOWN ? `\n…and ${invalid.length - INVALID_SHOWN} more.` : '';
  return new UserInputError(
    `${plural(invalid.length, 'entry', 'entries')} ${invalid.length === 1 ? 'is not a usable number' : 'are not usable numbers'}, so nothing was saved:\n${shown.join('\n')}${more}\nFix or remove ${invalid.length === 1 ? 'it' : 'them'} and run the command again.`,
  );
}
