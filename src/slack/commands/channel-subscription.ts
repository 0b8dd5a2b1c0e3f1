import type { AuditInput, Subscription, SubscriptionSpec } from '../../store/index.js';
import type { CommandContext } from './context.js';

/**
 * For what a channel holds at most one of (the monthly report, the balance alert): the new subscription takes
 * the place of the ones it replaces, and the audit log says who set it and how.
 */
export async function replaceChannelSubscription(
  ctx: CommandContext,
  replaced: readonly Subscription[],
  spec: SubscriptionSpec,
  audit: Pick<AuditInput, 'action' | 'details'>,
): Promise<void> {
  for (const sub of replaced) await ctx.deps.store.subscriptions.remove(sub.id);
  await ctx.deps.store.subscriptions.add(ctx.channelId, spec, ctx.userId, ctx.deps.now());
  await ctx.deps.store.audit.append({
    actor: ctx.userId,
    target: ctx.channelId,
    ...audit,
    at: ctx.deps.now(),
  });
}

/** `/sms unsubscribe …`: the channel's subscriptions it names are removed, and the audit log lists them. */
export async function removeChannelSubscriptions(
  ctx: CommandContext,
  removed: readonly Subscription[],
  action: string,
): Promise<void> {
  for (const sub of removed) await ctx.deps.store.subscriptions.remove(sub.id);
  await ctx.deps.store.audit.append({
    actor: ctx.userId,
    action,
    target: ctx.channelId,
    details: { subscriptions: removed.map((s) => s.id) },
    at: ctx.deps.now(),
  });
}
