import { UserInputError } from '../errors.js';
import type { CommandContext, SubcommandHandler } from './context.js';

/** `subscribe digest …` and `unsubscribe digest …`: ctx.args[0] is 'digest'. */
export async function subscribeDigest(_ctx: CommandContext): Promise<void> {
  throw new UserInputError('Digests are not available in this version yet.');
}

export async function unsubscribeDigest(_ctx: CommandContext): Promise<void> {
  throw new UserInputError('Digests are not available in this version yet.');
}

/** subscriptions, digest, alert. */
export const DIGEST_HANDLERS: Record<string, SubcommandHandler> = {};
