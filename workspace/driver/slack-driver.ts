import { buildStateValues } from '../block-kit/state-values.js';
import type { ChannelKind, User } from '../state/model.js';
import { appManifest, type FunctionParameter } from '../web-api/app-manifest.js';
import { EVENT_SCOPES, manifestBotScopes } from '../web-api/scopes.js';
import type {
  BotTransport,
  DeliveryOptions,
  DriverResponse,
  EventDelivery,
  FunctionExecutedInput,
  SlackDriver,
  SlackDriverOptions,
} from './driver-types.js';
import {
  elementAction,
  eventEnvelope,
  findElement,
  functionDataOf,
  functionExecutedEvent,
  INTERACTIVITY_TYPE,
  interactivityOf,
  messageActionPayload,
  slashCommandPayload,
  viewActionPayload,
  viewClosedPayload,
  viewSubmissionPayload,
} from './payloads.js';
import { signatureHeaders } from './signing.js';
import { applyViewSubmissionAck } from './view-ack.js';

/** Slack gives up on an ack after 3 s and shows the user an error; what the bot sends later is ignored. */
export const ACK_DEADLINE_MS = 3000;

/** Slack's redeliveries of an event it saw fail: nearly at once, after 1 minute, after 5 minutes (Events API docs). */
export const EVENT_RETRY_DELAYS_MS: readonly number[] = [1000, 60_000, 300_000];

/** Slack counts a delivery as failed without an answer in 3 s or with a status other than 2xx (3xx aside). */
function deliveryFailed(response: DriverResponse): boolean {
  return response.late || response.status < 200 || response.status >= 400;
}

/** Plays Slack's side towards the bot: signed HTTP requests shaped exactly like Slack's, with effects on the fake. */
export function createSlackDriver(options: SlackDriverOptions): SlackDriver {
  const { fake, botUrl, signingSecret } = options;
  const { state, identity } = fake;
  const files = { fileObject: (id: string) => fake.fileObject(id) };
  const manifest = () => options.manifest ?? appManifest();
  const transport = options.transport ?? fetchFromHere;

  function userOf(userId: string): User {
    const user = state.directory.user(userId);
    if (!user) throw new Error(`no user ${userId} in the fake workspace`);
    return user;
  }

  async function send(
    rawBody: string,
    contentType: string,
    delivery: DeliveryOptions = {},
    signedAtSec?: number,
  ): Promise<DriverResponse> {
    const headers: Record<string, string> = {
      'content-type': contentType,
      'user-agent': 'Slackbot 1.0 (+https://api.slack.com/robots)',
      ...signatureHeaders(signingSecret, rawBody, delivery.signing ?? 'valid', signedAtSec),
    };
    if (delivery.retryNum !== undefined) headers['x-slack-retry-num'] = String(delivery.retryNum);
    if (delivery.retryReason !== undefined) headers['x-slack-retry-reason'] = delivery.retryReason;
    const answer = await transport({ url: botUrl, headers, body: rawBody });
    return {
      status: answer.status,
      body: parseAck(answer.text, answer.headers['content-type'] ?? null),
      rawBody: answer.text,
      headers: answer.headers,
      elapsedMs: answer.elapsedMs,
      late: answer.elapsedMs > ACK_DEADLINE_MS,
    };
  }

  /** Interactivity payloads travel as one form field, `payload`, holding JSON. */
  function sendPayload(payload: object, delivery: DeliveryOptions) {
    return send(new URLSearchParams({ payload: JSON.stringify(payload) }).toString(), FORM, delivery);
  }

  function sendEvent(event: { type: string }, delivery: DeliveryOptions) {
    const envelope = eventEnvelope(
      identity,
      event,
      state.ids.next('Ev', 9),
      Math.floor(state.clock() / 1000),
    );
    return send(JSON.stringify(envelope), 'application/json', delivery);
  }

  /** The body and last signing second of each event delivered with Slack's retries, by event_id. */
  const deliveries = new Map<string, { body: string; signedAtSec: number }>();
  const retryDelays = options.eventRetryDelaysMs ?? EVENT_RETRY_DELAYS_MS;

  /** Signed anew each time, never in the same second as the delivery before (Slack's retries come later). */
  function sendAgain(eventId: string, delivery: DeliveryOptions): Promise<DriverResponse> {
    const known = deliveries.get(eventId);
    if (!known) throw new Error(`no event ${eventId} was delivered`);
    known.signedAtSec = Math.max(Math.floor(Date.now() / 1000), known.signedAtSec + 1);
    return send(known.body, 'application/json', delivery, known.signedAtSec);
  }

  async function retryLater(eventId: string, first: DriverResponse): Promise<DriverResponse[]> {
    const answers: DriverResponse[] = [];
    let last = first;
    for (const [index, delayMs] of retryDelays.slice(0, 3).entries()) {
      if (!deliveryFailed(last)) break;
      await new Promise((resolve) => setTimeout(resolve, delayMs).unref());
      try {
        last = await sendAgain(eventId, {
          retryNum: index + 1,
          retryReason: last.late ? 'http_timeout' : 'http_error',
        });
      } catch {
        break; // The bot is gone (a test ended, the process stopped): Slack would give up in the end too.
      }
      answers.push(last);
    }
    return answers;
  }

  /** An event as Slack delivers it to an app that subscribes: signed, and redelivered while not acked. */
  async function deliverEvent(
    event: { type: string; [key: string]: unknown },
    delivery: DeliveryOptions = {},
  ): Promise<EventDelivery> {
    const eventId = state.ids.next('Ev', 9);
    const body = JSON.stringify(eventEnvelope(identity, event, eventId, Math.floor(state.clock() / 1000)));
    const signedAtSec = Math.floor(Date.now() / 1000);
    deliveries.set(eventId, { body, signedAtSec });
    const first = await send(body, 'application/json', delivery, signedAtSec);
    const retries = deliveryFailed(first) ? retryLater(eventId, first) : Promise.resolve([]);
    return { ...first, eventId, retries };
  }

  /**
   * A step's inputs as Slack sends them: Workflow Builder offers no field to type an interactivity input in, Slack
   * fills it with the person who started the workflow (`interactor`) and leaves it out when nobody did.
   */
  function withInteractivity(
    parameters: readonly FunctionParameter[],
    input: FunctionExecutedInput,
  ): Record<string, unknown> {
    const inputs = { ...input.inputs };
    for (const parameter of parameters) {
      if (parameter.type !== INTERACTIVITY_TYPE) continue;
      if (parameter.name in inputs)
        throw new Error(
          `${parameter.name} is a ${INTERACTIVITY_TYPE} input: Slack fills it from startedBy, nobody types it`,
        );
      if (input.startedBy !== undefined)
        inputs[parameter.name] = interactivityOf(userOf(input.startedBy), state.ids);
    }
    return inputs;
  }

  /** Slack delivers an event only to an app that subscribes to it and holds the scope it needs. */
  function subscribes(eventType: string): boolean {
    const scope = EVENT_SCOPES[eventType];
    return (
      manifest().botEvents.includes(eventType) &&
      (scope === undefined ||
        (options.manifest ? options.manifest.botScopes : manifestBotScopes()).includes(scope))
    );
  }

  return {
    send,

    redeliver(delivery, retryNum, reason = 'http_timeout') {
      return sendAgain(delivery.eventId, { retryNum, retryReason: reason });
    },

    async functionExecuted(input, delivery = {}) {
      const definition = manifest().functions.get(input.callbackId);
      if (!definition) throw new Error(`manifest.yml declares no function ${input.callbackId}`);
      // Slack sends a custom step's runs as this event, and only to an app that subscribes to it.
      if (!subscribes('function_executed')) {
        throw new Error(
          'the app does not subscribe to function_executed (settings.event_subscriptions.bot_events): Slack would not run its steps',
        );
      }
      const inputs = withInteractivity(definition.inputs, input);
      const missing = definition.inputs.filter(
        (p) => p.is_required && (inputs[p.name] === undefined || inputs[p.name] === ''),
      );
      // Workflow Builder does not let a workflow be published with a required input unset.
      if (missing.length > 0) {
        throw new Error(`required inputs missing: ${missing.map((p) => p.name).join(', ')}`);
      }
      const execution = state.functions.start(definition, inputs);
      const event = functionExecutedEvent(identity, execution, state.clock());
      const delivered = await deliverEvent(event, delivery);
      return {
        ...delivered,
        execution,
        ended: async (timeoutMs = 5000) =>
          (
            await state.waitFor(
              'function',
              (e) => e.execution.id === execution.id && e.action !== 'started',
              { timeoutMs },
            )
          ).execution,
      };
    },

    async slashCommand(input) {
      const user = userOf(input.userId);
      const channel = state.directory.channel(input.channelId);
      if (!channel) throw new Error(`no channel ${input.channelId} in the fake workspace`);
      const triggerId = fake.issueTriggerId(user.id);
      const responseUrl = fake.issueResponseUrl({ channelId: channel.id, userId: user.id });
      const payload = slashCommandPayload({
        identity,
        user,
        channel,
        command: input.command,
        text: input.text ?? '',
        responseUrl,
        triggerId,
      });
      const response = await send(
        new URLSearchParams(payload as Record<string, string>).toString(),
        FORM,
        input,
      );
      const ackBody = ackMessageBody(response);
      const ackMessage = ackBody ? fake.applyAckMessage(responseUrl, ackBody) : undefined;
      return { ...response, payload, triggerId, responseUrl, ...(ackMessage ? { ackMessage } : {}) };
    },

    async blockAction(input) {
      const user = userOf(input.userId);
      const triggerId = fake.issueTriggerId(user.id);
      const actionTs = (state.clock() / 1000).toFixed(6);
      if (input.view) {
        const view = input.values
          ? state.views.setValues(input.view.id, buildStateValues(input.view, input.values, files))
          : (state.views.get(input.view.id) ?? input.view);
        const { block, element } = findElement(view.blocks, input.actionId, input.blockId);
        const action = elementAction(block, element, input, actionTs);
        const payload = viewActionPayload({ identity, user, view, action, triggerId });
        return { ...(await sendPayload(payload, input)), payload, triggerId };
      }
      const message = input.message;
      if (!message) throw new Error('blockAction needs the message or the view the element is on');
      const channel = state.directory.channel(message.channel);
      if (!channel) throw new Error(`no channel ${message.channel} in the fake workspace`);
      const { block, element } = findElement(message.blocks ?? [], input.actionId, input.blockId);
      const action = elementAction(block, element, input, actionTs);
      const ephemeral = 'is_ephemeral' in message;
      const responseUrl = fake.issueResponseUrl({
        channelId: channel.id,
        userId: user.id,
        messageTs: message.ts,
        ephemeral,
        ...(message.thread_ts ? { threadTs: message.thread_ts } : {}),
      });
      const payload = messageActionPayload({
        identity,
        user,
        channel,
        message,
        action,
        triggerId,
        responseUrl,
      });
      // A message a step's run posted with its own token answers with that run (Bolt then acts with its token).
      const run = ephemeral ? undefined : state.functions.poster(channel.id, message.ts);
      if (run) Object.assign(payload, functionDataOf(run));
      return { ...(await sendPayload(payload, input)), payload, triggerId, responseUrl };
    },

    async viewSubmission(input) {
      const user = userOf(input.userId);
      const current = input.view ? state.views.get(input.view.id) : state.views.top(user.id);
      if (!current || state.views.ownerOf(current.id) !== user.id) {
        throw new Error(`no open view ${input.view?.id ?? ''} for ${user.id} to submit`);
      }
      const view = state.views.setValues(current.id, buildStateValues(current, input.values, files));
      const payload = viewSubmissionPayload(
        identity,
        user,
        structuredClone(view),
        fake.issueTriggerId(user.id),
      );
      const response = await sendPayload(payload, input);
      const outcome = applyViewSubmissionAck(state, user.id, view, response);
      return { ...response, payload, outcome };
    },

    async viewClosed(input) {
      const user = userOf(input.userId);
      const view = input.view ?? state.views.top(user.id);
      if (!view) throw new Error(`no open view for ${user.id} to close`);
      const closed = view.clear_on_close ? state.views.clear(user.id) : state.views.close(view.id);
      if (!view.notify_on_close) return { closed };
      const payload = viewClosedPayload(identity, user, view, view.clear_on_close);
      return { closed, delivered: { ...(await sendPayload(payload, input)), payload } };
    },

    appHomeOpened(userId, delivery = {}) {
      const user = userOf(userId);
      const home = state.views.home(user.id);
      const imId = state.directory.resolve(user.id)?.id ?? user.id;
      const event = {
        type: 'app_home_opened',
        user: user.id,
        channel: imId,
        tab: 'home',
        ...(home ? { view: home } : {}),
        event_ts: (state.clock() / 1000).toFixed(6),
      };
      return sendEvent(event, delivery);
    },

    async userMessage(input) {
      const user = userOf(input.userId);
      const channel = state.directory.channel(input.channelId);
      if (!channel?.members.has(user.id)) throw new Error(`${user.id} is not in ${input.channelId}`);
      const message = state.messages.post({
        channel: channel.id,
        user: user.id,
        team: identity.teamId,
        text: input.text,
        ...(input.threadTs ? { thread_ts: input.threadTs } : {}),
      });
      const channelType = { im: 'im', mpim: 'mpim', private: 'group', public: 'channel' }[channel.kind];
      // Slack sends a `message` event only to an app subscribed to the conversation type's message.* event.
      const subscription = MESSAGE_SUBSCRIPTIONS[channel.kind];
      const event = subscribes(subscription)
        ? await deliverEvent(
            { ...message, type: 'message', event_ts: message.ts, channel_type: channelType },
            input,
          )
        : undefined;
      if (!message.text.includes(`<@${identity.botUserId}>`) || !subscribes('app_mention')) {
        return { message, ...(event ? { event } : {}) };
      }
      const mention = await deliverEvent(
        {
          type: 'app_mention',
          user: user.id,
          text: message.text,
          ts: message.ts,
          ...(message.thread_ts ? { thread_ts: message.thread_ts } : {}),
          team: identity.teamId,
          channel: channel.id,
          event_ts: message.ts,
        },
        input,
      );
      return { message, ...(event ? { event } : {}), mention };
    },

    event(event, delivery = {}) {
      return sendEvent(event, delivery);
    },
  };
}

/** The Events API subscription that brings a conversation type's messages (docs.slack.dev/reference/events/message). */
const MESSAGE_SUBSCRIPTIONS: Record<ChannelKind, string> = {
  public: 'message.channels',
  private: 'message.groups',
  im: 'message.im',
  mpim: 'message.mpim',
};

/** Exactly what Slack sends; Bolt compares the content type verbatim, so no `; charset=…` suffix. */
const FORM = 'application/x-www-form-urlencoded';

/** The default transport: fetch from this process, timed here. */
const fetchFromHere: BotTransport = async ({ url, headers, body }) => {
  const started = performance.now();
  const response = await fetch(url, { method: 'POST', headers, body });
  const text = await response.text();
  return {
    status: response.status,
    text,
    headers: Object.fromEntries(response.headers),
    elapsedMs: performance.now() - started,
  };
};

function parseAck(text: string, contentType: string | null): unknown {
  if (text === '' || !contentType?.includes('json')) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** A command ack with a body is a message to show: JSON as a message payload, plain text as an ephemeral. */
function ackMessageBody(response: DriverResponse): Record<string, unknown> | undefined {
  if (response.late || response.status !== 200 || response.body === '') return undefined;
  if (typeof response.body === 'string') return { text: response.body };
  return typeof response.body === 'object' && response.body !== null
    ? (response.body as Record<string, unknown>)
    : undefined;
}
