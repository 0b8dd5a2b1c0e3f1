import type { BlockAction, SlashCommand, ViewClosedAction, ViewSubmitAction } from '@slack/bolt';
import type { LooseStateValues } from '../block-kit/state-values.js';
import type { FunctionExecution } from '../state/functions.js';
import type { EphemeralMessage, ResponseUrlPost, SlackMessage, ViewOutput } from '../state/model.js';
import type { AppManifest } from '../web-api/app-manifest.js';
import type { SlackSide } from '../web-api/slack-routes.js';
import type { ActionChoice } from './payloads.js';
import type { Signing } from './signing.js';
import type { ViewAckOutcome } from './view-ack.js';

export interface SlackDriverOptions {
  /** The bot's request URL, e.g. `http://127.0.0.1:PORT/slack/events`. */
  botUrl: string;
  signingSecret: string;
  /** Slack's side: a started fake (startFakeSlack) or the routes the local workspace mounts. */
  fake: SlackSide;
  /**
   * When Slack redelivers an event the bot did not ack within 3 s (or answered with an error): after each of these
   * delays, at most three times, with X-Slack-Retry-Num. Default Slack's: at once, after 1 minute, after 5 minutes.
   */
  eventRetryDelaysMs?: readonly number[];
  /** The manifest the app was installed from (its events, scopes and steps); default this repository's manifest.yml. */
  manifest?: AppManifest;
  /**
   * How a signed request reaches the bot and is timed; default `fetch` from this process. A bench that times
   * acks while this process also plays Slack under load (uploads, views) sends them from a process of its own.
   */
  transport?: BotTransport;
}

/**
 * One signed request to the bot: its answer, and the time from sending it to the whole answer. The answer's
 * header names are lower-case, as `Object.fromEntries(response.headers)` gives them.
 */
export type BotTransport = (request: {
  url: string;
  headers: Record<string, string>;
  body: string;
}) => Promise<{ status: number; text: string; headers: Record<string, string>; elapsedMs: number }>;

export interface DeliveryOptions {
  signing?: Signing;
  /** Sent as X-Slack-Retry-Num / X-Slack-Retry-Reason, as Slack does when redelivering an event. */
  retryNum?: number;
  retryReason?: string;
}

export interface DriverResponse {
  status: number;
  /** JSON when the bot answered JSON; otherwise the raw text ('' for an empty ack). */
  body: unknown;
  rawBody: string;
  headers: Record<string, string>;
  elapsedMs: number;
  /** Slack would have considered the request timed out (no answer within 3 s). */
  late: boolean;
}

export interface SlashCommandInput extends DeliveryOptions {
  command: string;
  text?: string;
  userId: string;
  channelId: string;
}

export interface SlashCommandResult extends DriverResponse {
  payload: SlashCommand;
  triggerId: string;
  responseUrl: string;
  /** Set when the ack carried a message and Slack would show it. */
  ackMessage?: ResponseUrlPost;
}

export interface BlockActionInput extends DeliveryOptions, ActionChoice {
  userId: string;
  actionId: string;
  blockId?: string;
  /** The message the element is on (from the fake's state). */
  message?: SlackMessage | EphemeralMessage;
  /** The modal or Home view the element is on; defaults to nothing, so a message or a view must be given. */
  view?: ViewOutput;
  /** Values typed into the view before the click, for `view.state`. */
  values?: LooseStateValues;
}

export interface BlockActionResult extends DriverResponse {
  payload: BlockAction;
  triggerId: string;
  responseUrl?: string;
}

export interface ViewSubmissionInput extends DeliveryOptions {
  userId: string;
  /** Defaults to the top of the user's modal stack. */
  view?: ViewOutput;
  values?: LooseStateValues;
}

export interface ViewSubmissionResult extends DriverResponse {
  payload: ViewSubmitAction;
  outcome: ViewAckOutcome;
}

export interface ViewClosedInput extends DeliveryOptions {
  userId: string;
  view?: ViewOutput;
}

export interface ViewClosedResult {
  /** Slack only tells the app when the view asked for it (notify_on_close). */
  delivered?: DriverResponse & { payload: ViewClosedAction };
  closed: ViewOutput[];
}

export interface UserMessageInput extends DeliveryOptions {
  userId: string;
  channelId: string;
  text: string;
  threadTs?: string;
}

/** An Events API event as delivered, with Slack's redeliveries should the bot not ack it in time. */
export interface EventDelivery extends DriverResponse {
  eventId: string;
  /** The redeliveries Slack makes (none when the first delivery was acked in time); resolves when they are over. */
  retries: Promise<DriverResponse[]>;
}

export interface UserMessageResult {
  message: SlackMessage;
  /**
   * The `message` event's delivery, only when the app subscribes to the conversation type's message.* event (as
   * Slack sends it; smsops' manifest subscribes to none).
   */
  event?: EventDelivery;
  /** Set when the message mentions the bot and the app subscribes to app_mention: that event's delivery. */
  mention?: EventDelivery;
}

export interface FunctionExecutedInput {
  /** The step's callback_id under `functions` in manifest.yml. */
  callbackId: string;
  /** What the workflow's author set; an input of type slack#/types/interactivity cannot be among them. */
  inputs: Record<string, unknown>;
  /**
   * The person who started the workflow (a link, a shortcut, a button): Slack fills every slack#/types/interactivity
   * input with them as `interactor`. Unset: a scheduled or event-triggered workflow, with nobody behind it.
   */
  startedBy?: string;
}

export interface FunctionExecutedResult extends EventDelivery {
  execution: FunctionExecution;
  /** Resolves when the bot has ended the step (functions.completeSuccess or completeError). */
  ended(timeoutMs?: number): Promise<FunctionExecution>;
}

export interface SlackDriver {
  slashCommand(input: SlashCommandInput): Promise<SlashCommandResult>;
  blockAction(input: BlockActionInput): Promise<BlockActionResult>;
  viewSubmission(input: ViewSubmissionInput): Promise<ViewSubmissionResult>;
  viewClosed(input: ViewClosedInput): Promise<ViewClosedResult>;
  appHomeOpened(userId: string, options?: DeliveryOptions): Promise<DriverResponse>;
  /** A user posts in a channel: the message lands in the fake; events go to the bot as its subscriptions say. */
  userMessage(input: UserMessageInput): Promise<UserMessageResult>;
  /** A workflow reaches one of the app's custom steps: `function_executed`, as Slack sends it, with its own token. */
  functionExecuted(input: FunctionExecutedInput, options?: DeliveryOptions): Promise<FunctionExecutedResult>;
  /** The same event delivered again as Slack's retry `retryNum` (same event_id, signed anew a second later). */
  redeliver(delivery: EventDelivery, retryNum: number, reason?: string): Promise<DriverResponse>;
  /** Any Events API event, wrapped in the event_callback envelope. */
  event(event: { type: string; [key: string]: unknown }, options?: DeliveryOptions): Promise<DriverResponse>;
  /** A raw body exactly as given, signed (or not) per options: for the odd case the helpers do not cover. */
  send(rawBody: string, contentType: string, options?: DeliveryOptions): Promise<DriverResponse>;
}
