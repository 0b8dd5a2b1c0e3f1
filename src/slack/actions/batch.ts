import type { AllMiddlewareArgs, BlockAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import type { KnownBlock } from '@slack/types';
import { GatewayRejected } from '../../gateway/index.js';
import type { OutboxRow } from '../../store/index.js';
import { updateCard } from '../delivery-cards.js';
import type { SlackDeps } from '../deps.js';
import { userMessageFor } from '../errors.js';
import { denialText, mayCancel, type Need, roleOf, satisfies } from '../permissions.js';

export type ActionArgs = SlackActionMiddlewareArgs<BlockAction> & AllMiddlewareArgs;

/**
 * Answers only the user who clicked: a line of text, or a message with blocks. Through the click's response_url
 * when it has one, else as an ephemeral in its channel.
 */
export async function tellUser(
  args: Pick<ActionArgs, 'body' | 'client'> & { respond?: ActionArgs['respond'] },
  message: string | { text: string; blocks: KnownBlock[] },
): Promise<void> {
  const content = typeof message === 'string' ? { text: message } : message;
  const channel = args.body.channel?.id;
  if (args.respond && args.body.response_url !== undefined) {
    await args.respond({ response_type: 'ephemeral', replace_original: false, ...content });
  } else if (channel) {
    await args.client.chat.postEphemeral({ channel, user: args.body.user.id, ...content });
  }
}

/** Whether the clicking user has the role `need` asks; if not, they are told privately why (one role look-up). */
export async function allowedOrTold(deps: SlackDeps, args: ActionArgs, need: Need): Promise<boolean> {
  const role = await roleOf(deps, args.body.user.id);
  if (satisfies(role, need)) return true;
  await tellUser(args, denialText(need, role));
  return false;
}

export function actionValue(args: ActionArgs): string {
  return (args.action as { value?: string }).value ?? '';
}

/** Checked on every click, because anyone in the channel can press the button (see mayCancel). */
async function cancelBatch(deps: SlackDeps, args: ActionArgs, messageId: number, row: OutboxRow | undefined) {
  const userId = args.body.user.id;
  const role = await roleOf(deps, userId);
  if (!satisfies(role, 'sender')) {
    await tellUser(args, denialText('sender', role));
    return;
  }
  if (!mayCancel(role, userId, row?.slackUser)) {
    await tellUser(
      args,
      `:no_entry: Only the sender of batch ${messageId}${row ? ` (<@${row.slackUser}>)` : ''} or an admin may cancel it.`,
    );
    return;
  }
  try {
    await deps.gateway.cancel(messageId);
  } catch (error) {
    if (error instanceof GatewayRejected && error.code === 409) {
      await tellUser(
        args,
        `:information_source: Batch ${messageId} has nothing left to cancel: every message is already final.`,
      );
    } else {
      await tellUser(args, userMessageFor(error));
    }
    return;
  }
  await deps.store.audit.append({
    actor: userId,
    action: 'cancel',
    target: String(messageId),
    details: { outboxId: row?.id ?? null },
    at: deps.now(),
  });
  deps.logger.info({ messageId, user: userId }, 'SMS batch cancelled');
  if (row) {
    await deps.store.outbox.markCancelled(row.id, userId, deps.now());
    const fresh = (await deps.store.outbox.get(row.id)) ?? row;
    await updateCard(deps, args.client, fresh).catch(() => undefined);
    deps.nudgeTracker(row.id);
  }
  await tellUser(
    args,
    `:no_entry_sign: Batch ${messageId} cancelled: what was not yet delivered will not be sent, and its cost is refunded.`,
  );
}

export function cardCancelHandler(deps: SlackDeps) {
  return async function handleCardCancel(args: ActionArgs): Promise<void> {
    await args.ack();
    const row = await deps.store.outbox.get(Number(actionValue(args)));
    if (!row?.messageId) {
      await tellUser(args, ':warning: This card belongs to a send smsops no longer knows.');
      return;
    }
    await cancelBatch(deps, args, Number(row.messageId), row);
  };
}

export function cancelConfirmHandler(deps: SlackDeps) {
  return async function handleCancelConfirm(args: ActionArgs): Promise<void> {
    await args.ack();
    const messageId = Number(actionValue(args));
    if (!Number.isSafeInteger(messageId) || messageId <= 0) return;
    await cancelBatch(deps, args, messageId, await deps.store.outbox.getByMessageId(String(messageId)));
  };
}

export function cardRefreshHandler(deps: SlackDeps) {
  return async function handleCardRefresh(args: ActionArgs): Promise<void> {
    await args.ack();
    if (!(await allowedOrTold(deps, args, 'viewer'))) return;
    const id = Number(actionValue(args));
    if (!Number.isSafeInteger(id)) return;
    deps.nudgeTracker(id);
  };
}
