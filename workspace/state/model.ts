import type { types, ViewOutput, ViewStateValue } from '@slack/bolt';
import type { FunctionExecution } from './functions.js';

export type AnyBlock = types.AnyBlock;
export type View = types.View;
export type { ViewOutput, ViewStateValue };

/** Block id → action id → value: the shape of `view.state.values` and of `state.values` in payloads. */
export type StateValues = Record<string, Record<string, ViewStateValue>>;

/** Who the fake is: the one workspace and the one app installed in it. */
export interface WorkspaceIdentity {
  teamId: string;
  teamDomain: string;
  teamName: string;
  enterpriseId?: string;
  appId: string;
  botId: string;
  botUserId: string;
  botName: string;
}

export interface User {
  id: string;
  name: string;
  realName: string;
  isAdmin: boolean;
  isBot: boolean;
  tz: string;
  email?: string;
}

/** Public and private channels, group DMs (mpim) and the bot's DMs with people (im). */
export type ChannelKind = 'public' | 'private' | 'mpim' | 'im';

export interface Channel {
  id: string;
  /** Without the `#`. An IM has its user's id as name, as Slack's conversations.info does. */
  name: string;
  kind: ChannelKind;
  members: Set<string>;
  /** The human in a bot↔user IM. */
  imUser?: string;
  createdSec: number;
  isArchived: boolean;
  topic: string;
  purpose: string;
}

/** A file as it appears inside a message's `files` array. */
export interface FileSummary {
  id: string;
  name: string;
  title: string;
  mimetype: string;
  filetype: string;
  size: number;
  user: string;
}

/** A channel message, in the shape Slack returns it from chat.postMessage and conversations.history. */
export interface SlackMessage {
  type: 'message';
  channel: string;
  ts: string;
  text: string;
  team: string;
  user?: string;
  bot_id?: string;
  app_id?: string;
  subtype?: string;
  blocks?: AnyBlock[];
  attachments?: Record<string, unknown>[];
  files?: FileSummary[];
  metadata?: Record<string, unknown>;
  thread_ts?: string;
  reply_count?: number;
  latest_reply?: string;
  edited?: { user: string; ts: string };
}

/** Only `recipient` sees it; Slack never returns it from history, and it disappears on reload. */
export interface EphemeralMessage extends SlackMessage {
  is_ephemeral: true;
  recipient: string;
}

export interface StoredFile extends FileSummary {
  bytes: Buffer;
  createdSec: number;
  altText?: string;
  /** Channels it was shared to by files.completeUploadExternal. */
  channels: string[];
  /** Bytes arrived at the upload URL; completeUploadExternal refuses files still missing them. */
  uploaded: boolean;
  completed: boolean;
}

/** One Web API request as the fake saw it: what tests assert on and wait for. */
export interface ApiCall {
  seq: number;
  method: string;
  /** Parsed arguments, JSON fields (blocks, view, …) decoded, the token left out. */
  args: Record<string, unknown>;
  /** Milliseconds since the epoch, by the fake's clock. */
  at: number;
  status: number;
  result: Record<string, unknown>;
  /** The answer came from injectFault rather than from the method. */
  injected: boolean;
  /** Which token the call carried: the bot token, or a custom step run's own (the event's bot_access_token). */
  auth?: 'bot' | 'workflow';
}

/** What the bot POSTed to a response_url (or returned in a slash-command ack, which Slack treats the same). */
export interface ResponseUrlPost {
  responseUrlId: string;
  body: Record<string, unknown>;
  status: number;
  error?: string;
  at: number;
}

export type MessageAction = 'posted' | 'updated' | 'deleted';
export type ViewAction = 'opened' | 'pushed' | 'updated' | 'published' | 'closed';

/** Everything observable that happens in the workspace, by kind; the journal records these in order. */
export interface WorkspaceEventMap {
  call: ApiCall;
  message: { action: MessageAction; message: SlackMessage };
  ephemeral: { action: MessageAction; message: EphemeralMessage };
  view: { action: ViewAction; userId: string; view: ViewOutput };
  file: { action: 'uploaded' | 'shared'; file: StoredFile };
  response: ResponseUrlPost;
  /** A custom step run started or ended (functions.completeSuccess / completeError). */
  function: { action: 'started' | 'completed' | 'failed'; execution: FunctionExecution };
}

export type WorkspaceEventKind = keyof WorkspaceEventMap;
