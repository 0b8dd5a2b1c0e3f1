import type { Role } from '../../store/index.js';
import { UserInputError } from '../errors.js';
import { auditMessage } from '../ui/admin-audit.js';
import { quoted, ROLE_ABILITIES, ROLES } from '../ui/admin-common.js';
import {
  alreadyHasRoleMessage,
  configuredAdminMessage,
  grantedMessage,
  noRoleMessage,
  revokedMessage,
  whoMessage,
} from '../ui/admin-roles.js';
import { usageError, usageLine } from './arguments.js';
import { type CommandContext, reply, type SubcommandHandlers } from './context.js';
import { fromSlack } from './slack-text.js';

const AUDIT_DEFAULT = 20;
const AUDIT_MAX = 100;

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

export const ROLE_HANDLERS = {
  grant: grantCommand,
  revoke: revokeCommand,
  who: whoCommand,
  audit: auditCommand,
} satisfies SubcommandHandlers;

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
