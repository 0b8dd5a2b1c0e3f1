import type { BlockAction, SlashCommand, ViewClosedAction, ViewSubmitAction } from '@slack/bolt';
import type { LooseStateValues } from '../block-kit/state-values.js';
import type { EphemeralMessage, ResponseUrlPost, SlackMessage, ViewOutput } from '../state/model.js';
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
}

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

export interface SlackDriver {
  slashCommand(input: SlashCommandInput): Promise<SlashCommandResult>;
  blockAction(input: BlockActionInput): Promise<BlockActionResult>;
  viewSubmission(input: ViewSubmissionInput): Promise<ViewSubmissionResult>;
  viewClosed(input: ViewClosedInput): Promise<ViewClosedResult>;
  appHomeOpened(userId: string, options?: DeliveryOptions): Promise<DriverResponse>;
  /** A user posts in a channel: the message lands in the fake and a `message` event goes to the bot. */
  userMessage(input: UserMessageInput): Promise<DriverResponse & { message: SlackMessage }>;
  /** Any Events API event, wrapped in the event_callback envelope. */
  event(event: { type: string; [key: string]: unknown }, options?: DeliveryOptions): Promise<DriverResponse>;
  /** A raw body exactly as given, signed (or not) per options: for the odd case the helpers do not cover. */
  send(rawBody: string, contentType: string, options?: DeliveryOptions): Promise<DriverResponse>;
}
