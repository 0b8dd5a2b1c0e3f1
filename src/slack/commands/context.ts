import type { RespondArguments } from '@slack/bolt';
import type { KnownBlock } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import type { Role } from '../../store/index.js';
import type { SlackDeps } from '../deps.js';
import type { SubcommandName } from './catalogue.js';

export interface CommandContext {
  deps: SlackDeps;
  client: WebClient;
  userId: string;
  channelId: string;
  triggerId: string;
  role: Role | undefined;
  args: string[];
  /** The raw text after the subcommand. */
  rest: string;
  /** Ephemeral unless the message says otherwise. */
  respond: (message: RespondArguments) => Promise<unknown>;
}

export type SubcommandHandler = (ctx: CommandContext) => Promise<void>;

/** A group of handlers: each key must be a subcommand of the catalogue. */
export type SubcommandHandlers = Partial<Record<SubcommandName, SubcommandHandler>>;

/** Answers only the user who ran the command, with a message a ui/ builder made. */
export async function reply(
  ctx: CommandContext,
  message: { text: string; blocks: KnownBlock[] },
): Promise<void> {
  await ctx.respond({ response_type: 'ephemeral', text: message.text, blocks: message.blocks });
}
