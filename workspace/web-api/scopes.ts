import type { Directory } from '../state/directory.js';
import type { ChannelKind } from '../state/model.js';
import { SlackApiError } from './api-error.js';
import { appManifest, parseAppManifest } from './app-manifest.js';

/**
 * The bot scope each Web API method needs, as Slack's method pages list them (docs.slack.dev/reference/methods/
 * <method>, "Required scopes", bot token). A conversation method needs the scope of the conversation's type:
 * conversations.info takes channels:read for a public channel, groups:read for a private one, im:read for a DM and
 * mpim:read for a group DM (docs.slack.dev/reference/methods/conversations.info; docs.slack.dev/apis/web-api/
 * using-the-conversations-api). views.* and auth.test need none.
 */
export interface ScopeRule {
  /** Needed whatever the call is about. */
  scope?: string;
  /** Needed according to the type of the conversation in the `channel` argument. */
  byConversation?: Partial<Record<ChannelKind, string>>;
  /** conversations.list: the scope of each type asked for in `types`. */
  byListedTypes?: true;
  /** views.*: files:read when the view holds a file_input (docs.slack.dev/reference/block-kit/block-elements/file-input-element). */
  byViewContent?: true;
}

const READ: Record<ChannelKind, string> = {
  public: 'channels:read',
  private: 'groups:read',
  im: 'im:read',
  mpim: 'mpim:read',
};

const LIST_TYPES: Record<string, ChannelKind> = {
  public_channel: 'public',
  private_channel: 'private',
  im: 'im',
  mpim: 'mpim',
};

export const METHOD_SCOPES: Readonly<Record<string, ScopeRule>> = {
  'auth.test': {},
  'users.info': { scope: 'users:read' },
  'chat.postMessage': { scope: 'chat:write' },
  'chat.postEphemeral': { scope: 'chat:write' },
  'chat.update': { scope: 'chat:write' },
  'chat.delete': { scope: 'chat:write' },
  'chat.getPermalink': {},
  // conversations.join works on public channels only, so only their scope exists for it.
  'conversations.join': { byConversation: { public: 'channels:join' } },
  'conversations.info': { byConversation: READ },
  'conversations.list': { byListedTypes: true },
  // The bot's DM with one person; a group DM would need mpim:write (docs.slack.dev/reference/methods/conversations.open).
  'conversations.open': { scope: 'im:write' },
  'views.open': { byViewContent: true },
  'views.push': { byViewContent: true },
  'views.update': { byViewContent: true },
  'views.publish': { byViewContent: true },
  'files.getUploadURLExternal': { scope: 'files:write' },
  'files.completeUploadExternal': { scope: 'files:write' },
  'files.info': { scope: 'files:read' },
  // docs.slack.dev/reference/methods/functions.completeSuccess (and completeError): no scope required.
  'functions.completeSuccess': {},
  'functions.completeError': {},
};

/**
 * The bot scope each Events API event needs before Slack delivers it (docs.slack.dev/reference/events/<event>,
 * "Required scopes"); the manifest must also list the event under settings.event_subscriptions.bot_events.
 */
export const EVENT_SCOPES: Readonly<Record<string, string | undefined>> = {
  app_home_opened: undefined,
  app_mention: 'app_mentions:read',
  // Messages by conversation type (docs.slack.dev/reference/events/message.channels and its siblings).
  'message.channels': 'channels:history',
  'message.groups': 'groups:history',
  'message.im': 'im:history',
  'message.mpim': 'mpim:history',
  // No scope; delivered only to an app that lists it in bot_events, as Bolt's custom-step templates do.
  function_executed: undefined,
};

/** Every scope a method may need when the app works in conversations of these types. */
export function scopesFor(method: string, kinds: readonly ChannelKind[]): string[] {
  const rule = METHOD_SCOPES[method];
  if (!rule) throw new Error(`no scope rule for ${method}: add it to METHOD_SCOPES`);
  const scopes = new Set<string>();
  if (rule.scope) scopes.add(rule.scope);
  for (const kind of kinds) {
    const scope = rule.byConversation?.[kind] ?? (rule.byListedTypes ? READ[kind] : undefined);
    if (scope) scopes.add(scope);
  }
  return [...scopes];
}

/** The scopes this one call needs, given what its arguments name. */
function scopesOfCall(method: string, args: Record<string, unknown>, directory: Directory): string[] {
  const rule = METHOD_SCOPES[method];
  if (!rule) return [];
  const needed = rule.scope ? [rule.scope] : [];
  if (rule.byConversation && typeof args.channel === 'string') {
    const kind = directory.resolve(args.channel)?.kind;
    const scope = kind ? rule.byConversation[kind] : undefined;
    if (scope) needed.push(scope);
  }
  if (rule.byListedTypes) {
    const types = typeof args.types === 'string' ? args.types : 'public_channel';
    for (const type of types.split(',')) {
      const kind = LIST_TYPES[type.trim()];
      if (kind) needed.push(READ[kind]);
    }
  }
  if (rule.byViewContent && holdsFileInput(args.view)) needed.push('files:read');
  return needed;
}

/** Whether a view argument (JSON text as a form sends it, or an object) has a file_input in one of its blocks. */
function holdsFileInput(view: unknown): boolean {
  let parsed = view;
  if (typeof view === 'string') {
    try {
      parsed = JSON.parse(view);
    } catch {
      return false; // views.* refuses it as invalid_arguments.
    }
  }
  const blocks = (parsed as { blocks?: unknown } | null)?.blocks;
  return (
    Array.isArray(blocks) &&
    blocks.some((b) => (b as { element?: { type?: unknown } } | null)?.element?.type === 'file_input')
  );
}

/** Slack's refusal of a call the token lacks a scope for: `missing_scope`, with `needed` and `provided`. */
export function checkScopes(
  granted: ReadonlySet<string>,
  method: string,
  args: Record<string, unknown>,
  directory: Directory,
): void {
  const missing = scopesOfCall(method, args, directory).filter((scope) => !granted.has(scope));
  if (missing.length === 0) return;
  throw new SlackApiError('missing_scope', [], {
    needed: missing.join(','),
    provided: [...granted].join(','),
  });
}

/** The bot scopes under `oauth_config.scopes.bot` in a manifest. */
export function parseBotScopes(manifest: string): string[] {
  return parseAppManifest(manifest).botScopes;
}

/** What a bot token installed from this repository's manifest.yml carries: the scopes the workspace grants. */
export function manifestBotScopes(): string[] {
  const scopes = appManifest().botScopes;
  if (scopes.length === 0) throw new Error('manifest.yml lists no oauth_config.scopes.bot');
  return scopes;
}
