import type { Channel } from '../../state/model.js';
import type { WorkspaceState } from '../../state/workspace-state.js';
import { SlackApiError } from '../api-error.js';

export interface MethodContext {
  state: WorkspaceState;
  args: Record<string, unknown>;
  /** `http://127.0.0.1:PORT`, for URLs the fake hands out (uploads, permalinks, files). */
  baseUrl: string;
}

/** Returns the success body without `ok`; refusals are thrown as SlackApiError. */
export type MethodHandler = (ctx: MethodContext) => Record<string, unknown>;

export function optionalString(args: Record<string, unknown>, key: string): string | undefined {
  const value = args[key];
  if (value === undefined || value === null || value === '') return undefined;
  return typeof value === 'string' ? value : String(value);
}

export function requiredString(
  args: Record<string, unknown>,
  key: string,
  error = 'invalid_arguments',
): string {
  const value = optionalString(args, key);
  if (value === undefined) throw new SlackApiError(error, [`[ERROR] missing required field: ${key}`]);
  return value;
}

/** Form bodies carry booleans as strings. */
export function flag(args: Record<string, unknown>, key: string): boolean {
  const value = args[key];
  return value === true || value === 'true' || value === '1' || value === 1;
}

/**
 * A conversation as the bot sees it. A private channel the bot is not in does not exist for it (channel_not_found,
 * as Slack answers); a public one exists but cannot be posted to before conversations.join (not_in_channel).
 */
export function visibleConversation(ctx: MethodContext, ref: string | undefined): Channel {
  const { directory, identity } = ctx.state;
  const channel = ref === undefined ? undefined : directory.resolve(ref);
  if (!channel) throw new SlackApiError('channel_not_found');
  if (channel.kind !== 'public' && !channel.members.has(identity.botUserId)) {
    throw new SlackApiError('channel_not_found');
  }
  return channel;
}

export function postableConversation(ctx: MethodContext, ref: string | undefined): Channel {
  const channel = visibleConversation(ctx, ref);
  if (channel.isArchived) throw new SlackApiError('is_archived');
  if (!channel.members.has(ctx.state.identity.botUserId)) throw new SlackApiError('not_in_channel');
  return channel;
}

/** Authorship fields Slack puts on every message the bot posts. */
export function botAuthor(ctx: MethodContext) {
  const { identity } = ctx.state;
  return { user: identity.botUserId, bot_id: identity.botId, app_id: identity.appId, team: identity.teamId };
}
