import { UserInputError } from '../errors.js';
import type { CommandContext } from './context.js';

/** `subscribe inbound …` and `unsubscribe inbound`: ctx.args[0] is 'inbound'. */
export async function subscribeInbound(_ctx: CommandContext): Promise<void> {
  throw new UserInputError('Inbound subscriptions are not available in this version yet.');
}

export async function unsubscribeInbound(_ctx: CommandContext): Promise<void> {
  throw new UserInputError('Inbound subscriptions are not available in this version yet.');
}
