import { GatewayRejected } from '../../gateway/index.js';
import type { OutboxRow } from '../../store/index.js';
import { openCompose, splitSendArguments } from '../compose/open.js';
import { UserInputError } from '../errors.js';
import { mayCancel } from '../permissions.js';
import { cancelPrompt } from '../ui/cancel.js';
import { deliveryCard } from '../ui/card.js';
import { escapeMrkdwn } from '../ui/format.js';
import { reportCard } from '../ui/report.js';
import type { CommandContext } from './context.js';

export async function sendCommand(ctx: CommandContext): Promise<void> {
  await openCompose(
    ctx.deps,
    ctx.client,
    ctx.triggerId,
    { channel: ctx.channelId },
    splitSendArguments(ctx.rest),
    ctx.userId,
  );
}

/** MessageIds are typed by people: digits only, and exact (never beyond 2^53). */
export function parseMessageId(raw: string | undefined, usage: string): number {
  const text = (raw ?? '').trim();
  if (!text)
    throw new UserInputError(
      `Which batch? Usage: \`/sms ${usage}\`, e.g. \`/sms ${usage.split(' ')[0]} 100042\`.`,
    );
  if (!/^\d+$/.test(text))
    throw new UserInputError(
      `“${escapeMrkdwn(text)}” is not a MessageId: it is a whole number such as 100042${
        usage.startsWith('status') ? ' (or a send’s reference such as S-42)' : ''
      }.`,
    );
  const id = Number(text);
  if (!Number.isSafeInteger(id) || id <= 0) throw new UserInputError(`MessageId ${text} is out of range.`);
  return id;
}

/** `S-42`: the reference a delivery card shows for a send that has no MessageId. */
const SEND_REFERENCE = /^s-?(\d{1,15})$/i;

function cardOf(ctx: CommandContext, row: OutboxRow) {
  return deliveryCard(row, {
    reportTimeZone: ctx.deps.settings.reportTimeZone,
    simulated: ctx.deps.settings.simulated,
    chunkSize: ctx.deps.settings.sending.submitChunkSize,
    chunkIntervalMs: ctx.deps.settings.sending.chunkIntervalMs,
  });
}

export async function statusCommand(ctx: CommandContext): Promise<void> {
  const reference = SEND_REFERENCE.exec((ctx.args[0] ?? '').trim());
  if (reference) {
    const row = await ctx.deps.store.outbox.get(Number(reference[1]));
    if (!row) {
      throw new UserInputError(
        `There is no send ${escapeMrkdwn(ctx.args[0]!.trim().toUpperCase())} in smsops. A card without a MessageId shows its reference, e.g. \`/sms status S-42\`.`,
      );
    }
    if (!row.messageId) {
      await ctx.respond({ response_type: 'ephemeral', ...cardOf(ctx, row) });
      return;
    }
    return statusOf(ctx, Number(row.messageId));
  }
  return statusOf(ctx, parseMessageId(ctx.args[0], 'status <MessageId>'));
}

async function statusOf(ctx: CommandContext, messageId: number): Promise<void> {
  const row = await ctx.deps.store.outbox.getByMessageId(String(messageId));
  try {
    const { reports } = await ctx.deps.gateway.queryMulti({ messageId });
    const report = reports[0];
    if (!report) throw new UserInputError(`The gateway has no report for batch ${messageId}.`);
    if (row) {
      const fresh = await ctx.deps.store.outbox.get(row.id);
      ctx.deps.nudgeTracker(row.id);
      await ctx.respond({ response_type: 'ephemeral', ...cardOf(ctx, fresh ?? row) });
      return;
    }
    await ctx.respond({ response_type: 'ephemeral', ...reportCard(report, ctx.deps.settings) });
  } catch (error) {
    if (error instanceof GatewayRejected && error.code === 404) {
      throw new UserInputError(
        `The gateway does not know batch ${messageId}. Check the number: \`/sms status 100042\`.`,
      );
    }
    throw error;
  }
}

export async function cancelCommand(ctx: CommandContext): Promise<void> {
  const messageId = parseMessageId(ctx.args[0], 'cancel <MessageId>');
  const row = await ctx.deps.store.outbox.getByMessageId(String(messageId));
  // The router has checked the sender role already; what is left of the rule is whose batch it is.
  if (!mayCancel(ctx.role, ctx.userId, row?.slackUser)) {
    throw new UserInputError(
      row
        ? `Batch ${messageId} was sent by <@${row.slackUser}>: only they or an admin may cancel it.`
        : `Batch ${messageId} was not sent from smsops: only an admin may cancel it.`,
    );
  }
  await ctx.respond({ response_type: 'ephemeral', ...cancelPrompt(messageId) });
}
