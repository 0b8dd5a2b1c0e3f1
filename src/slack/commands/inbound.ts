import { ensureBotCanPost } from '../conversation-access.js';
import { UserInputError } from '../errors.js';
import { denialText, satisfies } from '../permissions.js';
import {
  describeFilter,
  type InboundFilter,
  SUBSCRIBE_INBOUND_USAGE,
  subscribedText,
  unsubscribedText,
} from '../ui/inbound-subscriptions.js';
import type { CommandContext } from './context.js';
import { fromSlack } from './slack-text.js';

const KEYWORD = /^[\p{L}\p{N}_-]{1,30}$/u;
const RECIPIENT = /^\+?[\p{L}\p{N}_.-]{1,30}$/u;

/** `[keyword K] [to RECIPIENT]` in either order; args[0] is 'inbound'. */
export function parseInboundFilter(args: readonly string[]): InboundFilter {
  const filter: InboundFilter = {};
  const words = args.map((a) => fromSlack(a).trim()).filter((a) => a !== '');
  for (let i = 0; i < words.length; i += 2) {
    const name = words[i]!.toLowerCase();
    const value = words[i + 1];
    if ((name === 'keyword' || name === 'to') && value === undefined) {
      throw new UserInputError(`\`${name}\` needs a value: ${SUBSCRIBE_INBOUND_USAGE}.`);
    }
    if (name === 'keyword' && filter.keyword === undefined) {
      if (!KEYWORD.test(value!))
        throw new UserInputError(`A keyword is one word of letters or digits, not “${value}”.`);
      filter.keyword = value!;
    } else if (name === 'to' && filter.recipient === undefined) {
      if (!RECIPIENT.test(value!)) {
        throw new UserInputError(
          `A recipient is a short number or sender name without spaces, not “${value}”.`,
        );
      }
      filter.recipient = value!;
    } else {
      throw new UserInputError(`I did not understand “${words[i]}”. ${SUBSCRIBE_INBOUND_USAGE}.`);
    }
  }
  return filter;
}

/** The router checks the catalogue's role already; a change for the whole channel is checked here as well. */
async function denied(ctx: CommandContext): Promise<boolean> {
  if (satisfies(ctx.role, 'admin')) return false;
  await ctx.respond({ response_type: 'ephemeral', text: denialText('admin', ctx.role) });
  return true;
}

const sameFilter = (a: InboundFilter, b: { keyword?: string | null; recipient?: string | null }) =>
  (a.keyword ?? '').toLowerCase() === (b.keyword ?? '').toLowerCase() &&
  (a.recipient ?? '') === (b.recipient ?? '');

/** `subscribe inbound …` and `unsubscribe inbound`: ctx.args[0] is 'inbound'. */
export async function subscribeInbound(ctx: CommandContext): Promise<void> {
  if (await denied(ctx)) return;
  const filter = parseInboundFilter(ctx.args.slice(1));
  // The relay posts here without a person at hand to fix things, so a conversation it cannot post in is found out now.
  await ensureBotCanPost(ctx.client, ctx.channelId);
  const { store, now } = ctx.deps;
  const { created } = await store.subscriptions.add(
    ctx.channelId,
    { kind: 'inbound', keyword: filter.keyword ?? null, recipient: filter.recipient ?? null },
    ctx.userId,
    now(),
  );
  if (created) {
    await store.audit.append({
      actor: ctx.userId,
      action: 'subscribe_inbound',
      target: ctx.channelId,
      details: { keyword: filter.keyword ?? null, recipient: filter.recipient ?? null },
      at: now(),
    });
    ctx.deps.logger.info(
      { channel: ctx.channelId, filter: describeFilter(filter) },
      'inbound subscription added',
    );
  }
  await ctx.respond({
    response_type: created ? 'in_channel' : 'ephemeral',
    text: subscribedText(filter, ctx.userId, created),
  });
}

/** Without a filter, every inbound subscription of the channel goes; with one, only that one. */
export async function unsubscribeInbound(ctx: CommandContext): Promise<void> {
  if (await denied(ctx)) return;
  const asked = ctx.args.length > 1 ? parseInboundFilter(ctx.args.slice(1)) : undefined;
  const { store, now } = ctx.deps;
  const inbound = (await store.subscriptions.listByChannel(ctx.channelId)).filter(
    (s) => s.kind === 'inbound',
  );
  const removed: InboundFilter[] = [];
  const remaining: InboundFilter[] = [];
  for (const sub of inbound) {
    const filter = { keyword: sub.keyword ?? undefined, recipient: sub.recipient ?? undefined };
    if (asked && !sameFilter(asked, sub)) {
      remaining.push(filter);
      continue;
    }
    if (await store.subscriptions.remove(sub.id)) removed.push(filter);
  }
  if (removed.length > 0) {
    await store.audit.append({
      actor: ctx.userId,
      action: 'unsubscribe_inbound',
      target: ctx.channelId,
      details: {
        removed: removed.map((f) => ({ keyword: f.keyword ?? null, recipient: f.recipient ?? null })),
      },
      at: now(),
    });
  }
  await ctx.respond({
    response_type: removed.length > 0 ? 'in_channel' : 'ephemeral',
    text: unsubscribedText(removed, remaining, ctx.userId, asked),
  });
}
