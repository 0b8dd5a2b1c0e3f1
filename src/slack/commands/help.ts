import { helpBlocks, helpText } from '../ui/help.js';
import type { CommandContext } from './context.js';

/** `/sms help` (and bare `/sms`): every subcommand, only visible to the caller. */
export async function helpCommand(ctx: CommandContext): Promise<void> {
  await ctx.respond({ response_type: 'ephemeral', text: helpText(), blocks: helpBlocks() });
}
