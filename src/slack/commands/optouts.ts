import { pageOf } from '../ui/admin-common.js';
import {
  alreadyOptedOutMessage,
  notOptedOutMessage,
  OPT_OUTS_PER_PAGE,
  optOutAddedMessage,
  optOutListMessage,
  optOutRemovedMessage,
} from '../ui/admin-optouts.js';
import { parseNumber, parsePage, splitWords, unknownAction } from './arguments.js';
import { type CommandContext, reply, type SubcommandHandlers } from './context.js';
import { fromSlack } from './slack-text.js';

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

export const OPTOUT_HANDLERS = { optout: optoutCommand } satisfies SubcommandHandlers;
