import { scheduledListMessage } from '../ui/scheduled.js';
import { type CommandContext, reply, type SubcommandHandlers } from './context.js';

/** Most scheduled sends read for the list; the message shows the first 20 and counts the rest. */
const READ = 200;

/** `/sms scheduled`: the sends waiting for their time (and held ones), soonest first, each in its author's zone. */
export async function scheduledCommand(ctx: CommandContext): Promise<void> {
  await reply(ctx, scheduledListMessage(await ctx.deps.store.outbox.waitingScheduled(READ)));
}

export const SCHEDULED_HANDLERS = { scheduled: scheduledCommand } satisfies SubcommandHandlers;
