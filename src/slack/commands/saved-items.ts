import {
  type InvalidRecipient,
  maskNumber,
  normaliseNumber,
  parseRecipients,
  templatePlaceholders,
} from '../../sms/index.js';
import type { JsonValue, Role } from '../../store/index.js';
import { UserInputError } from '../errors.js';
import { auditMessage } from '../ui/admin-audit.js';
import {
  type AdminMessage,
  mention,
  pageCount,
  pageOf,
  quoted,
  ROLE_ABILITIES,
  ROLES,
} from '../ui/admin-common.js';
import { forgottenMessage } from '../ui/admin-forget.js';
import {
  listCreatedMessage,
  listDeletedMessage,
  listShowMessage,
  listsOverviewMessage,
  MEMBERS_PER_PAGE,
} from '../ui/admin-lists.js';
import {
  alreadyOptedOutMessage,
  notOptedOutMessage,
  OPT_OUTS_PER_PAGE,
  optOutAddedMessage,
  optOutListMessage,
  optOutRemovedMessage,
} from '../ui/admin-optouts.js';
import {
  alreadyHasRoleMessage,
  configuredAdminMessage,
  grantedMessage,
  noRoleMessage,
  revokedMessage,
  whoMessage,
} from '../ui/admin-roles.js';
import {
  templateCreatedMessage,
  templateDeletedMessage,
  templateShowMessage,
  templatesOverviewMessage,
} from '../ui/admin-templates.js';
import { escapeMrkdwn, plural } from '../ui/format.js';
import { SUBCOMMANDS } from './catalogue.js';
import type { CommandContext, SubcommandHandler, SubcommandHandlers } from './context.js';
import { fromSlack } from './slack-text.js';

const AUDIT_DEFAULT = 20;
const AUDIT_MAX = 100;
const NAME = /^[A-Za-z0-9_-]{1,40}$/;
// Longer than any SMS worth sending (a segment holds at most 160 characters), and short enough for one block.
const TEMPLATE_MAX_CHARS = 2000;
const INVALID_SHOWN = 5;

// ---- grant, revoke, who, audit ----

export async function grantCommand(ctx: CommandContext): Promise<void> {
  const [who, roleWord, ...extra] = ctx.args;
  if (!who) throw usageError('grant', 'Whom should I give a role?');
  if (roleWord !== undefined && isRole(who) && MENTION.test(roleWord)) {
    throw usageError('grant', 'Put the user first, then the role.');
  }
  const userId = parseMention(who, 'grant');
  if (!roleWord) throw new UserInputError(`Which role for <@${userId}>? ${roleChoices('grant')}`);
  const role = parseRole(roleWord);
  if (extra.length > 0) throw usageError('grant', 'One user and one role at a time.');
  if (ctx.deps.settings.adminUserIds.includes(userId)) {
    await reply(ctx, configuredAdminMessage(userId, 'grant'));
    return;
  }
  refuseOwnRole(ctx, userId);
  const { store } = ctx.deps;
  const previous = await store.permissions.get(userId);
  if (previous?.role === role) {
    await reply(ctx, alreadyHasRoleMessage(previous, ctx.deps.settings.reportTimeZone));
    return;
  }
  const now = ctx.deps.now();
  await store.permissions.grant(userId, role, ctx.userId, now);
  await store.audit.append({
    actor: ctx.userId,
    action: 'grant',
    target: userId,
    details: { role, previous: previous?.role ?? null },
    at: now,
  });
  await reply(ctx, grantedMessage(userId, role, previous?.role));
}

export async function revokeCommand(ctx: CommandContext): Promise<void> {
  const [who, ...extra] = ctx.args;
  if (!who) throw usageError('revoke', 'Whose role should I revoke?');
  const userId = parseMention(who, 'revoke');
  if (extra.length > 0)
    throw usageError('revoke', 'Revoke takes only the user: it removes whatever role they have.');
  if (ctx.deps.settings.adminUserIds.includes(userId)) {
    await reply(ctx, configuredAdminMessage(userId, 'revoke'));
    return;
  }
  refuseOwnRole(ctx, userId);
  const { store } = ctx.deps;
  const previous = await store.permissions.get(userId);
  // revoke() can still find nothing when another admin got there first.
  if (!previous || !(await store.permissions.revoke(userId))) {
    await reply(ctx, noRoleMessage(userId));
    return;
  }
  await store.audit.append({
    actor: ctx.userId,
    action: 'revoke',
    target: userId,
    details: { previous: previous.role, grantedBy: previous.grantedBy },
    at: ctx.deps.now(),
  });
  await reply(ctx, revokedMessage(userId, previous.role));
}

export async function whoCommand(ctx: CommandContext): Promise<void> {
  const grants = await ctx.deps.store.permissions.list();
  await reply(
    ctx,
    whoMessage({
      configuredAdmins: ctx.deps.settings.adminUserIds,
      grants,
      timeZone: ctx.deps.settings.reportTimeZone,
    }),
  );
}

export async function auditCommand(ctx: CommandContext): Promise<void> {
  const raw = ctx.args[0];
  let count = AUDIT_DEFAULT;
  if (raw !== undefined) {
    count = /^\d{1,4}$/.test(raw) ? Number(raw) : Number.NaN;
    if (!(count >= 1 && count <= AUDIT_MAX)) {
      throw new UserInputError(
        `${quoted(raw)} is not a count from 1 to ${AUDIT_MAX}: \`/sms audit 50\` shows the last 50 entries (default ${AUDIT_DEFAULT}).`,
      );
    }
  }
  const entries = await ctx.deps.store.audit.recent(count);
  await reply(ctx, auditMessage(entries, count, ctx.deps.settings.reportTimeZone));
}

// ---- optout ----

export async function optoutCommand(ctx: CommandContext): Promise<void> {
  const {
    words: [action = 'list'],
    rest,
  } = splitWords(fromSlack(ctx.rest), 1);
  switch (action.toLowerCase()) {
    case 'add':
      return optOutAdd(ctx, rest);
    case 'remove':
      return optOutRemove(ctx, rest);
    case 'list':
      return optOutList(ctx, rest);
    default:
      throw unknownAction('optout', action);
  }
}

async function optOutAdd(ctx: CommandContext, typed: string): Promise<void> {
  const msisdn = parseNumber(ctx, typed, 'optout');
  const { store } = ctx.deps;
  const now = ctx.deps.now();
  if (!(await store.optOuts.add(msisdn, { source: 'manual', by: ctx.userId, at: now }))) {
    const entry = (await store.optOuts.list()).find((e) => e.msisdn === msisdn);
    await reply(ctx, alreadyOptedOutMessage(entry, msisdn, ctx.deps.settings.reportTimeZone));
    return;
  }
  await store.audit.append({
    actor: ctx.userId,
    action: 'optout_add',
    target: msisdn,
    details: { source: 'manual' },
    at: now,
  });
  await reply(ctx, optOutAddedMessage(msisdn));
}

async function optOutRemove(ctx: CommandContext, typed: string): Promise<void> {
  const msisdn = parseNumber(ctx, typed, 'optout');
  const { store } = ctx.deps;
  // Read first: the reply warns when the person had texted STOP, and the audit keeps how they opted out.
  const entry = (await store.optOuts.list()).find((e) => e.msisdn === msisdn);
  if (!(await store.optOuts.remove(msisdn))) {
    await reply(ctx, notOptedOutMessage(msisdn));
    return;
  }
  await store.audit.append({
    actor: ctx.userId,
    action: 'optout_remove',
    target: msisdn,
    details: { source: entry?.source ?? null, since: entry?.since.toISOString() ?? null },
    at: ctx.deps.now(),
  });
  await reply(ctx, optOutRemovedMessage(entry, msisdn));
}

async function optOutList(ctx: CommandContext, rest: string): Promise<void> {
  const all = await ctx.deps.store.optOuts.list();
  const page = parsePage(rest, all.length, OPT_OUTS_PER_PAGE, '/sms optout list');
  await reply(ctx, optOutListMessage(pageOf(all, page, OPT_OUTS_PER_PAGE), ctx.deps.settings.reportTimeZone));
}

// ---- forget ----

/**
 * `/sms forget <number>` (admin): a person asked to be forgotten (KVKK, GDPR). The number goes from every
 * send (recipients, personalised envelopes, and the text of a send to it alone), its inbound conversation
 * threads, the drafts awaiting confirmation and the saved lists. Its opt-out stays: forgetting someone must
 * not start texting them again. The audit entry names the number by its last digits only.
 */
export async function forgetCommand(ctx: CommandContext): Promise<void> {
  const msisdn = parseNumber(ctx, fromSlack(ctx.rest).trim(), 'forget');
  const { store } = ctx.deps;
  const now = ctx.deps.now();
  const sends = await store.outbox.forgetNumber(msisdn, now);
  const threads = await store.inbound.forgetNumber(msisdn);
  const drafts = await store.drafts.forgetNumber(msisdn);
  const lists = await store.recipientLists.removeMember(msisdn, now);
  const optedOut = await store.optOuts.has(msisdn);
  await store.audit.append({
    actor: ctx.userId,
    action: 'forget',
    target: maskNumber(msisdn),
    details: { sends: sends.sends, texts: sends.texts, threads, drafts, lists: lists.length, optedOut },
    at: now,
  });
  ctx.deps.logger.info(
    { user: ctx.userId, sends: sends.sends, threads, drafts, lists: lists.length },
    'a number was forgotten on request',
  );
  await reply(ctx, forgottenMessage(msisdn, { ...sends, threads, drafts, lists, optedOut }));
}

// ---- lists ----

type NamedActions = Record<
  'overview' | 'add' | 'show' | 'delete',
  (ctx: CommandContext, rest: string) => Promise<void>
>;

/** `lists …` and `templates …` share their verbs: nothing (or `list`), add, show, delete. */
function namedCommand(subcommand: 'lists' | 'templates', actions: NamedActions): SubcommandHandler {
  return async (ctx) => {
    const {
      words: [action],
      rest,
    } = splitWords(fromSlack(ctx.rest), 1);
    switch (action?.toLowerCase()) {
      case undefined:
      case 'list':
        return actions.overview(ctx, rest);
      case 'add':
      case 'show':
      case 'delete':
        return actions[action.toLowerCase() as 'add' | 'show' | 'delete'](ctx, rest);
      default:
        throw unknownAction(subcommand, action);
    }
  };
}

/** Deletes one saved list or template: the owner's or an admin's, audited. */
async function deleteNamed<T extends { name: string; owner: string }>(
  ctx: CommandContext,
  rest: string,
  kind: {
    subcommand: 'lists' | 'templates';
    noun: 'list' | 'template';
    repo: Lookup<T> & { delete(name: string): Promise<boolean> };
  },
  details: (item: T) => JsonValue,
): Promise<T> {
  const {
    words: [typedName, extra],
  } = splitWords(rest, 2);
  if (extra !== undefined) throw usageError(kind.subcommand, `Delete one ${kind.noun} at a time.`);
  const item = await findOrFail(kind.repo, typedName, kind.noun, kind.subcommand);
  refuseUnlessOwner(ctx, item, kind.noun);
  if (await kind.repo.delete(item.name)) {
    await ctx.deps.store.audit.append({
      actor: ctx.userId,
      action: `${kind.noun}_delete`,
      target: item.name,
      details: details(item),
      at: ctx.deps.now(),
    });
  }
  return item;
}

export const listsCommand = namedCommand('lists', {
  overview: async (ctx) => reply(ctx, listsOverviewMessage(await ctx.deps.store.recipientLists.list())),
  add: listAdd,
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

// ---- templates ----

export const templatesCommand = namedCommand('templates', {
  overview: async (ctx) => {
    const templates = await ctx.deps.store.templates.list();
    await reply(
      ctx,
      templatesOverviewMessage(
        templates.map((t) => ({ template: t, placeholders: templatePlaceholders(t.content) })),
      ),
    );
  },
  add: templateAdd,
  show: templateShow,
  delete: async (ctx, rest) => {
    const template = await deleteNamed(
      ctx,
      rest,
      { subcommand: 'templates', noun: 'template', repo: ctx.deps.store.templates },
      (t) => ({ owner: t.owner, characters: [...t.content].length }),
    );
    await reply(ctx, templateDeletedMessage(template));
  },
});

async function templateAdd(ctx: CommandContext, rest: string): Promise<void> {
  const {
    words: [typedName],
    rest: content,
  } = splitWords(rest, 1);
  const name = parseName(typedName, 'template', 'templates');
  if (!content) throw usageError('templates', `What should template *${name}* say?`);
  const length = [...content].length;
  if (length > TEMPLATE_MAX_CHARS) {
    throw new UserInputError(
      `That template is ${length} characters long; keep it under ${TEMPLATE_MAX_CHARS}.`,
    );
  }
  const { store } = ctx.deps;
  const taken = await findNamed(store.templates, name);
  if (taken) throw nameTaken('template', 'templates', taken.name);
  const now = ctx.deps.now();
  const { row, created } = await store.templates.create({ name, owner: ctx.userId, content, at: now });
  if (!created) throw nameTaken('template', 'templates', row.name);
  const placeholders = templatePlaceholders(content);
  await store.audit.append({
    actor: ctx.userId,
    action: 'template_create',
    target: name,
    details: { characters: length, placeholders },
    at: now,
  });
  await reply(ctx, templateCreatedMessage(row, placeholders));
}

async function templateShow(ctx: CommandContext, rest: string): Promise<void> {
  const {
    words: [typedName],
  } = splitWords(rest, 1);
  const template = await findOrFail(ctx.deps.store.templates, typedName, 'template', 'templates');
  await reply(
    ctx,
    templateShowMessage(template, templatePlaceholders(template.content), ctx.deps.settings.reportTimeZone),
  );
}

export const ADMIN_HANDLERS = {
  grant: grantCommand,
  revoke: revokeCommand,
  who: whoCommand,
  audit: auditCommand,
  optout: optoutCommand,
  lists: listsCommand,
  templates: templatesCommand,
  forget: forgetCommand,
} satisfies SubcommandHandlers;

// ---- shared parsing ----

async function reply(ctx: CommandContext, message: AdminMessage): Promise<void> {
  await ctx.respond({ response_type: 'ephemeral', text: message.text, blocks: message.blocks });
}

function usageLine(subcommand: string): string {
  const info = SUBCOMMANDS.find((s) => s.name === subcommand);
  return info ? `Usage: \`/sms ${info.usage}\`, e.g. \`${info.example}\`.` : '';
}

function usageError(subcommand: string, problem: string): UserInputError {
  return new UserInputError(`${problem} ${usageLine(subcommand)}`);
}

function unknownAction(subcommand: string, action: string): UserInputError {
  return usageError(subcommand, `${quoted(action, 30)} is not something \`/sms ${subcommand}\` can do.`);
}

// With should_escape (see manifest.yml) a picked user arrives as <@U123|name>, or <@U123> from some clients.
const MENTION = /^<@([UW][A-Z0-9]+)(?:\|[^>]*)?>$/;

function parseMention(token: string, subcommand: 'grant' | 'revoke'): string {
  const id = MENTION.exec(token)?.[1];
  if (id) return id;
  const example = subcommand === 'grant' ? '/sms grant @alice sender' : '/sms revoke @alice';
  throw new UserInputError(
    `${quoted(fromSlack(token), 40)} is not a person Slack identified. Type @ and pick the user from Slack's autocomplete list, so the command carries their id: e.g. \`${example}\`, choosing Alice from the list.`,
  );
}

function isRole(word: string): word is Role {
  return (ROLES as readonly string[]).includes(word.toLowerCase());
}

function parseRole(word: string): Role {
  const role = word.toLowerCase();
  if (isRole(role)) return role;
  throw new UserInputError(`${quoted(fromSlack(word), 30)} is not a role. ${roleChoices('grant')}`);
}

function roleChoices(subcommand: 'grant'): string {
  const roles = ['viewer', 'sender', 'admin'] as const;
  const list = roles.map((r) => `*${r}* (${ROLE_ABILITIES[r]})`).join(', ');
  return `The roles are ${list}. ${usageLine(subcommand)}`;
}

// An admin who demotes themselves may lock the workspace out of administration; another admin can do it.
function refuseOwnRole(ctx: CommandContext, userId: string): void {
  if (userId === ctx.userId) throw new UserInputError('You cannot change your own role: ask another admin.');
}

function refuseUnlessOwner(
  ctx: CommandContext,
  item: { name: string; owner: string },
  kind: 'list' | 'template',
) {
  if (item.owner !== ctx.userId && ctx.role !== 'admin') {
    throw new UserInputError(
      `${kind === 'list' ? 'List' : 'Template'} *${escapeMrkdwn(item.name)}* belongs to ${mention(item.owner)}: only they or an admin may delete it.`,
    );
  }
}

/**
 * The first `count` words (quotes group, as in parse.ts) and the raw text after them, which keeps
 * its own spacing and line breaks because message texts and number lists need them.
 */
export function splitWords(text: string, count: number): { words: string[]; rest: string } {
  const words: string[] = [];
  let index = 0;
  while (words.length < count) {
    const token = /\s*(?:"([^"]*)"|'([^']*)'|“([^”]*)”|(\S+))/y;
    token.lastIndex = index;
    const m = token.exec(text);
    if (!m) break;
    words.push(m[1] ?? m[2] ?? m[3] ?? m[4] ?? '');
    index = token.lastIndex;
  }
  return { words, rest: text.slice(index).trim() };
}

function parseNumber(ctx: CommandContext, typed: string, subcommand: 'optout' | 'forget'): string {
  if (!typed) throw usageError(subcommand, 'Which number?');
  const result = normaliseNumber(typed, ctx.deps.settings.defaultCountry);
  if (result.ok) return result.msisdn;
  throw new UserInputError(
    `${quoted(typed, 40)} is not a number smsops can send to: ${result.reason}. Type it as you would dial it, e.g. \`0532 123 45 67\` or \`+90 532 123 45 67\`.`,
  );
}

function parsePage(typed: string, total: number, size: number, command: string): number {
  const text = typed.trim();
  if (text === '') return 1;
  const pages = pageCount(total, size);
  if (!/^\d{1,6}$/.test(text) || Number(text) < 1) {
    throw new UserInputError(
      `${quoted(text, 30)} is not a page number: \`${escapeMrkdwn(command)} 2\` shows page 2.`,
    );
  }
  if (Number(text) > pages) {
    throw new UserInputError(
      `There ${pages === 1 ? 'is only 1 page' : `are only ${pages} pages`}: \`${escapeMrkdwn(command)} ${pages}\` shows the last.`,
    );
  }
  return Number(text);
}

function parseName(typed: string | undefined, kind: 'list' | 'template', subcommand: string): string {
  if (!typed) throw usageError(subcommand, `Which ${kind}?`);
  if (NAME.test(typed)) return typed;
  throw new UserInputError(
    `${quoted(typed, 50)} cannot be a ${kind} name: use 1 to 40 letters, digits, - or _, e.g. \`night-shift\`.`,
  );
}

interface Lookup<T> {
  get(name: string): Promise<T | undefined>;
  list(): Promise<T[]>;
}

/** Exact name first; then ignoring case, since people do not remember how they capitalised a name. */
async function findNamed<T extends { name: string }>(repo: Lookup<T>, name: string): Promise<T | undefined> {
  const exact = await repo.get(name);
  if (exact) return exact;
  const folded = name.toLowerCase();
  return (await repo.list()).find((item) => item.name.toLowerCase() === folded);
}

async function findOrFail<T extends { name: string }>(
  repo: Lookup<T>,
  typed: string | undefined,
  kind: 'list' | 'template',
  subcommand: 'lists' | 'templates',
): Promise<T> {
  if (!typed) throw usageError(subcommand, `Which ${kind}?`);
  const found = await findNamed(repo, typed);
  if (found) return found;
  throw new UserInputError(
    `There is no ${kind} named ${quoted(typed, 50)}. \`/sms ${subcommand}\` shows them all.`,
  );
}

function nameTaken(
  kind: 'list' | 'template',
  subcommand: 'lists' | 'templates',
  name: string,
): UserInputError {
  const shown = escapeMrkdwn(name);
  return new UserInputError(
    `A ${kind} named *${shown}* already exists. Pick another name, or delete it first with \`/sms ${subcommand} delete ${shown}\` (its owner or an admin can).`,
  );
}

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
