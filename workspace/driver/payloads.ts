import type {
  BlockAction,
  BlockElementAction,
  EnvelopedEvent,
  SlashCommand,
  ViewClosedAction,
  ViewSubmitAction,
} from '@slack/bolt';
import { elementsOf } from '../block-kit/block-ids.js';
import type { FunctionExecution } from '../state/functions.js';
import { type IdFactory, randomToken } from '../state/ids.js';
import type {
  Channel,
  EphemeralMessage,
  SlackMessage,
  User,
  ViewOutput,
  WorkspaceIdentity,
} from '../state/model.js';

/** The legacy verification token Slack still sends in every payload; Bolt ignores it in favour of the signature. */
export const VERIFICATION_TOKEN = 'fake-verification-token';

type Loose = Record<string, unknown>;

export function channelName(channel: Channel): string {
  if (channel.kind === 'im') return 'directmessage';
  return channel.kind === 'private' ? 'privategroup' : channel.name;
}

export interface SlashCommandFields {
  identity: WorkspaceIdentity;
  user: User;
  channel: Channel;
  command: string;
  text: string;
  responseUrl: string;
  triggerId: string;
}

/** Slack posts commands as a flat form, every value a string, in this field order. */
export function slashCommandPayload(f: SlashCommandFields): SlashCommand {
  return {
    token: VERIFICATION_TOKEN,
    team_id: f.identity.teamId,
    team_domain: f.identity.teamDomain,
    channel_id: f.channel.id,
    channel_name: channelName(f.channel),
    user_id: f.user.id,
    user_name: f.user.name,
    command: f.command,
    text: f.text,
    api_app_id: f.identity.appId,
    is_enterprise_install: 'false',
    response_url: f.responseUrl,
    trigger_id: f.triggerId,
  };
}

function teamOf(identity: WorkspaceIdentity) {
  return { id: identity.teamId, domain: identity.teamDomain };
}

function userOf(identity: WorkspaceIdentity, user: User) {
  return { id: user.id, username: user.name, name: user.name, team_id: identity.teamId };
}

/** Finds the element a click lands on; the driver refuses to click what is not on screen. */
export function findElement(
  blocks: readonly unknown[],
  actionId: string,
  blockId: string | undefined,
): { block: Loose; element: Loose } {
  for (const block of blocks as Loose[]) {
    if (blockId !== undefined && block.block_id !== blockId) continue;
    const element = elementsOf(block).find((e) => e.action_id === actionId);
    if (element) return { block, element };
  }
  throw new Error(
    `no element with action_id '${actionId}'${blockId ? ` in block '${blockId}'` : ''} on screen`,
  );
}

export interface ActionChoice {
  value?: string;
  selectedOption?: { text?: string; value: string };
  /** Checkboxes and multi-selects: everything ticked after the click. */
  selectedOptions?: { text?: string; value: string }[];
}

/** The `actions[0]` entry Slack builds from the element definition and what the user picked. */
export function elementAction(block: Loose, element: Loose, choice: ActionChoice, actionTs: string) {
  const base = {
    type: element.type,
    block_id: block.block_id,
    action_id: element.action_id,
    action_ts: actionTs,
  } as Loose;
  if (element.type === 'button') {
    base.text = element.text;
    const value = choice.value ?? element.value;
    if (value !== undefined) base.value = value;
    if (element.style) base.style = element.style;
    return base as unknown as BlockElementAction;
  }
  const options = (element.options as Loose[] | undefined) ?? [];
  const asOption = (picked: { text?: string; value: string }) =>
    options.find((o) => o.value === picked.value) ?? {
      text: { type: 'plain_text', text: picked.text ?? picked.value },
      value: picked.value,
    };
  if (choice.selectedOptions) {
    base.selected_options = choice.selectedOptions.map(asOption);
  } else if (choice.selectedOption) {
    base.selected_option = asOption(choice.selectedOption);
  } else if (choice.value !== undefined) {
    base.value = choice.value;
  }
  return base as unknown as BlockElementAction;
}

export interface MessageActionFields {
  identity: WorkspaceIdentity;
  user: User;
  channel: Channel;
  message: SlackMessage | EphemeralMessage;
  action: BlockElementAction;
  triggerId: string;
  responseUrl: string;
}

export function messageActionPayload(f: MessageActionFields): BlockAction {
  const ephemeral = 'is_ephemeral' in f.message;
  const { channel: _channel, ...message } = f.message;
  return {
    type: 'block_actions',
    user: userOf(f.identity, f.user),
    api_app_id: f.identity.appId,
    token: VERIFICATION_TOKEN,
    container: {
      type: 'message',
      message_ts: f.message.ts,
      channel_id: f.channel.id,
      is_ephemeral: ephemeral,
      ...(f.message.thread_ts ? { thread_ts: f.message.thread_ts } : {}),
    },
    trigger_id: f.triggerId,
    team: teamOf(f.identity),
    is_enterprise_install: false,
    channel: { id: f.channel.id, name: channelName(f.channel) },
    ...(ephemeral ? {} : { message: message as BlockAction['message'] }),
    state: { values: {} },
    response_url: f.responseUrl,
    actions: [f.action],
  } as BlockAction;
}

export interface ViewActionFields {
  identity: WorkspaceIdentity;
  user: User;
  view: ViewOutput;
  action: BlockElementAction;
  triggerId: string;
}

/** A click inside a modal or the Home tab: no channel, no response_url, the view (with its state) instead. */
export function viewActionPayload(f: ViewActionFields): BlockAction {
  return {
    type: 'block_actions',
    user: userOf(f.identity, f.user),
    api_app_id: f.identity.appId,
    token: VERIFICATION_TOKEN,
    container: { type: 'view', view_id: f.view.id },
    trigger_id: f.triggerId,
    team: teamOf(f.identity),
    is_enterprise_install: false,
    view: f.view,
    actions: [f.action],
  } as unknown as BlockAction;
}

export function viewSubmissionPayload(
  identity: WorkspaceIdentity,
  user: User,
  view: ViewOutput,
  triggerId: string,
): ViewSubmitAction {
  return {
    type: 'view_submission',
    team: teamOf(identity),
    user: userOf(identity, user),
    api_app_id: identity.appId,
    token: VERIFICATION_TOKEN,
    trigger_id: triggerId,
    view,
    response_urls: [],
    is_enterprise_install: false,
  };
}

export function viewClosedPayload(
  identity: WorkspaceIdentity,
  user: User,
  view: ViewOutput,
  isCleared: boolean,
): ViewClosedAction {
  return {
    type: 'view_closed',
    team: teamOf(identity),
    user: userOf(identity, user),
    api_app_id: identity.appId,
    token: VERIFICATION_TOKEN,
    view,
    is_cleared: isCleared,
    is_enterprise_install: false,
  };
}

/** The Events API envelope around an event, with the single bot authorization Slack sends for one workspace. */
export function eventEnvelope<E extends { type: string }>(
  identity: WorkspaceIdentity,
  event: E,
  eventId: string,
  eventTimeSec: number,
): EnvelopedEvent<E> {
  return {
    token: VERIFICATION_TOKEN,
    team_id: identity.teamId,
    context_team_id: identity.teamId,
    api_app_id: identity.appId,
    event,
    type: 'event_callback',
    event_id: eventId,
    event_time: eventTimeSec,
    authorizations: [
      {
        enterprise_id: null,
        team_id: identity.teamId,
        user_id: identity.botUserId,
        is_bot: true,
        is_enterprise_install: false,
      },
    ],
    is_ext_shared_channel: false,
  };
}

/** `function_executed` as Slack sends it for one run of a custom step (docs.slack.dev/reference/events/function_executed). */
export function functionExecutedEvent(
  identity: WorkspaceIdentity,
  execution: FunctionExecution,
  nowMs: number,
) {
  const { definition } = execution;
  const nowSec = Math.floor(nowMs / 1000);
  return {
    type: 'function_executed',
    function: {
      id: `Fn${definition.callbackId
        .toUpperCase()
        .replace(/[^A-Z0-9]/g, '')
        .slice(0, 10)}`,
      callback_id: definition.callbackId,
      title: definition.title,
      ...(definition.description ? { description: definition.description } : {}),
      type: 'app',
      input_parameters: definition.inputs,
      output_parameters: definition.outputs,
      app_id: identity.appId,
      date_created: nowSec,
      date_updated: nowSec,
      date_deleted: 0,
    },
    inputs: execution.inputs,
    function_execution_id: execution.id,
    workflow_execution_id: execution.workflowExecutionId,
    event_ts: (nowMs / 1000).toFixed(6),
    bot_access_token: execution.token,
  };
}

/**
 * What Slack adds to an interaction with a message that a step's run posted with its token: the run
 * (`function_data`) and its token (`bot_access_token`), which expires when the run ends (docs.slack.dev/tools/
 * bolt-js/reference/interfaces/BlockAction; Bolt's attachFunctionToken hands that token to the listener's client).
 */
export function functionDataOf(execution: FunctionExecution) {
  return {
    function_data: {
      execution_id: execution.id,
      function: { callback_id: execution.callbackId },
      inputs: execution.inputs,
    },
    bot_access_token: execution.token,
  };
}

/** The type of a custom step input that Slack fills with the person who started the workflow. */
export const INTERACTIVITY_TYPE = 'slack#/types/interactivity';

/**
 * An interactivity input's value (docs.slack.dev/reference/types/interactivity-type): the interactor's id and a
 * secret Slack made for this interaction (a user_context), and a pointer for opening a modal from the step.
 */
export function interactivityOf(user: User, ids: IdFactory) {
  return {
    interactor: { id: user.id, secret: randomToken(40) },
    interactivity_pointer: `${ids.next('', 13)}.${randomToken(8)}`,
  };
}
