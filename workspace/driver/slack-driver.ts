import { buildStateValues } from '../block-kit/state-values.js';
import type { User } from '../state/model.js';
import type { DeliveryOptions, DriverResponse, SlackDriver, SlackDriverOptions } from './driver-types.js';
import {
  elementAction,
  eventEnvelope,
  findElement,
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

/** Plays Slack's side towards the bot: signed HTTP requests shaped exactly like Slack's, with effects on the fake. */
export function createSlackDriver(options: SlackDriverOptions): SlackDriver {
  const { fake, botUrl, signingSecret } = options;
  const { state, identity } = fake;
  const files = { fileObject: (id: string) => fake.fileObject(id) };

  function userOf(userId: string): User {
    const user = state.directory.user(userId);
    if (!user) throw new Error(`no user ${userId} in the fake workspace`);
    return user;
  }

  async function send(
    rawBody: string,
    contentType: string,
    delivery: DeliveryOptions = {},
  ): Promise<DriverResponse> {
    const headers: Record<string, string> = {
      'content-type': contentType,
      'user-agent': 'Slackbot 1.0 (+https://api.slack.com/robots)',
      ...signatureHeaders(signingSecret, rawBody, delivery.signing ?? 'valid'),
    };
    if (delivery.retryNum !== undefined) headers['x-slack-retry-num'] = String(delivery.retryNum);
    if (delivery.retryReason !== undefined) headers['x-slack-retry-reason'] = delivery.retryReason;
    const started = performance.now();
    const response = await fetch(botUrl, { method: 'POST', headers, body: rawBody });
    const text = await response.text();
    const elapsedMs = performance.now() - started;
    return {
      status: response.status,
      body: parseAck(text, response.headers.get('content-type')),
      rawBody: text,
      headers: Object.fromEntries(response.headers),
      elapsedMs,
      late: elapsedMs > ACK_DEADLINE_MS,
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

  return {
    send,

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
      const event = { ...message, event_ts: message.ts, channel_type: channelType };
      return { ...(await sendEvent(event, input)), message };
    },

    event(event, delivery = {}) {
      return sendEvent(event, delivery);
    },
  };
}

/** Exactly what Slack sends; Bolt compares the content type verbatim, so no `; charset=…` suffix. */
const FORM = 'application/x-www-form-urlencoded';

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
