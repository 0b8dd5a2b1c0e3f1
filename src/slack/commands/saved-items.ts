import type { JsonValue } from '../../store/index.js';
import { UserInputError } from '../errors.js';
import { mention, quoted } from '../ui/admin-common.js';
import { escapeMrkdwn } from '../ui/format.js';
import { splitWords, unknownAction, usageError } from './arguments.js';
import type { CommandContext, SubcommandHandler } from './context.js';
import { fromSlack } from './slack-text.js';

/** What `/sms lists` and `/sms templates` share: their verbs, names, lookup by name and who may delete. */

const NAME = /^[A-Za-z0-9_-]{1,40}$/;

export type NamedActions = Record<
  'overview' | 'add' | 'show' | 'delete',
  (ctx: CommandContext, rest: string) => Promise<void>
> & { import?: (ctx: CommandContext, rest: string) => Promise<void> };

/** `lists …` and `templates …` share their verbs: nothing (or `list`), add, show, delete. */
export function namedCommand(subcommand: 'lists' | 'templates', actions: NamedActions): SubcommandHandler {
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
      case 'import':
        if (actions.import) return actions.import(ctx, rest);
        throw unknownAction(subcommand, action);
      default:
        throw unknownAction(subcommand, action);
    }
  };
}

/** Deletes one saved list or template: the owner's or an admin's, audited. */
export async function deleteNamed<T extends { name: string; owner: string }>(
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

export function refuseUnlessOwner(
  ctx: Pick<CommandContext, 'userId' | 'role'>,
  item: { name: string; owner: string },
  kind: 'list' | 'template',
  verb = 'delete',
) {
  if (item.owner !== ctx.userId && ctx.role !== 'admin') {
    throw new UserInputError(
      `${kind === 'list' ? 'List' : 'Template'} *${escapeMrkdwn(item.name)}* belongs to ${mention(item.owner)}: only they or an admin may ${verb} it.`,
    );
  }
}

export function parseName(typed: string | undefined, kind: 'list' | 'template', subcommand: string): string {
  if (!typed) throw usageError(subcommand, `Which ${kind}?`);
  if (NAME.test(typed)) return typed;
  throw new UserInputError(
    `${quoted(typed, 50)} cannot be a ${kind} name: use 1 to 40 letters, digits, - or _, e.g. \`night-shift\`.`,
  );
}

export interface Lookup<T> {
  get(name: string): Promise<T | undefined>;
  list(): Promise<T[]>;
}

/** Exact name first; then ignoring case, since people do not remember how they capitalised a name. */
export async function findNamed<T extends { name: string }>(
  repo: Lookup<T>,
  name: string,
): Promise<T | undefined> {
  const exact = await repo.get(name);
  if (exact) return exact;
  const folded = name.toLowerCase();
  return (await repo.list()).find((item) => item.name.toLowerCase() === folded);
}

export async function findOrFail<T extends { name: string }>(
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

export function nameTaken(
  kind: 'list' | 'template',
  subcommand: 'lists' | 'templates',
  name: string,
): UserInputError {
  const shown = escapeMrkdwn(name);
  return new UserInputError(
    `A ${kind} named *${shown}* already exists. Pick another name, or delete it first with \`/sms ${subcommand} delete ${shown}\` (its owner or an admin can).`,
  );
}
