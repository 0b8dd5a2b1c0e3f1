import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../../src/log.js';
import { OPERATIONS } from '../../src/simulator/types.js';
import { elementsOf } from '../block-kit/block-ids.js';
import type { LooseStateValues } from '../block-kit/state-values.js';
import type { SlackDriver } from '../driver/driver-types.js';
import { INTERACTIVITY_TYPE } from '../driver/payloads.js';
import type { Channel, EphemeralMessage, SlackMessage, User, ViewOutput } from '../state/model.js';
import type { WorkspaceState } from '../state/workspace-state.js';
import { appManifest } from '../web-api/app-manifest.js';
import { readBody, sendJson } from '../web-api/http-io.js';
import type { SlashCommandInfo } from './manifest.js';
import { presentMessage, viewsOf } from './present.js';
import { slackEscape } from './slack-text.js';

/** Slackbot speaks for Slack itself: command errors and refusals the app never sees. */
export const SLACKBOT = 'USLACKBOT';

const JSON_LIMIT_BYTES = 2 * 1024 * 1024;
/** Slack takes files of at most 10 MB in a file_input. */
const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
/** Its base64, with room for the rest of the JSON. */
const UPLOAD_JSON_LIMIT_BYTES = Math.ceil((MAX_UPLOAD_BYTES * 4) / 3) + 64 * 1024;

export interface PageApiDeps {
  state: WorkspaceState;
  driver: SlackDriver;
  commands: readonly SlashCommandInfo[];
  simulatorUrl: string | undefined;
  logger: Logger;
}

/** A refusal the page shows as it is. */
/** How long the step panel waits for the bot to end a step (functions.completeSuccess or completeError). */
const STEP_WAIT_MS = 20_000;

class PageError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

type Body = Record<string, unknown>;

async function readJson(req: IncomingMessage, limit = JSON_LIMIT_BYTES): Promise<Body> {
  const raw = await readBody(req, limit).catch(() => {
    throw new PageError(413, 'the body is too large');
  });
  if (raw.length === 0) return {};
  try {
    const value: unknown = JSON.parse(raw.toString('utf8'));
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Body;
  } catch {
    // answered below
  }
  throw new PageError(400, 'the body must be a JSON object');
}

function str(body: Body | URLSearchParams, key: string): string | undefined {
  const value = body instanceof URLSearchParams ? body.get(key) : body[key];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function need(body: Body | URLSearchParams, key: string): string {
  const value = str(body, key);
  if (value === undefined) throw new PageError(400, `${key} is required`);
  return value;
}

/** The JSON endpoints the page calls, under /_ws/. Each acts as one of the workspace's people. */
export function createPageApi(deps: PageApiDeps) {
  const { state, driver } = deps;
  const { directory } = state;

  function human(id: string): User {
    const user = directory.user(id);
    if (!user || user.isBot) throw new PageError(400, `no person ${id} in this workspace`);
    return user;
  }

  function channelFor(user: User, id: string): Channel {
    const channel = directory.channel(id);
    if (!channel?.members.has(user.id)) throw new PageError(404, `${user.name} is not in ${id}`);
    return channel;
  }

  function slackbotSays(channelId: string, userId: string, text: string, threadTs?: string) {
    state.messages.postEphemeral({
      channel: channelId,
      recipient: userId,
      user: SLACKBOT,
      team: state.identity.teamId,
      text,
      ...(threadTs ? { thread_ts: threadTs } : {}),
    });
  }

  function bootstrap(query: URLSearchParams) {
    const me = human(str(query, 'user') ?? 'U0ADMIN');
    const { identity } = state;
    const present = (c: Channel) => ({
      id: c.id,
      name: c.name,
      kind: c.kind,
      topic: c.topic,
      purpose: c.purpose,
      members: c.members.size,
      botIsMember: c.members.has(identity.botUserId),
    });
    return {
      seq: state.journal.seq,
      me: me.id,
      team: { id: identity.teamId, name: identity.teamName, domain: identity.teamDomain },
      app: {
        id: identity.appId,
        botId: identity.botId,
        botUserId: identity.botUserId,
        name: identity.botName,
      },
      users: directory.users().map((u) => ({
        id: u.id,
        name: u.name,
        realName: u.realName,
        isBot: u.isBot,
        isAdmin: u.isAdmin,
        tz: u.tz,
      })),
      channels: directory
        .channels()
        .filter((c) => c.kind !== 'im')
        .map(present),
      myChannels: directory
        .channels()
        .filter((c) => c.kind !== 'im' && c.members.has(me.id))
        .map((c) => c.id),
      appDm: directory.resolve(me.id)?.id ?? null,
      commands: deps.commands,
      // The simulator panel offers the operations the simulator itself knows, from their one list.
      simulator: deps.simulatorUrl !== undefined ? { operations: OPERATIONS } : null,
      // The custom steps manifest.yml declares, for the workflow step panel.
      functions: [...appManifest().functions.values()].map((f) => ({
        callbackId: f.callbackId,
        title: f.title,
        // An interactivity input is Slack's to fill (with the person who runs the step), not the page's to ask.
        inputs: f.inputs.filter((p) => p.type !== INTERACTIVITY_TYPE),
      })),
    };
  }

  /**
   * The workflow step panel: a workflow reaches the step with these inputs, as Slack would run it (function_executed
   * with the run's own token), and the answer is how the bot ended it: outputs or the error a workflow author sees.
   */
  async function step(body: Body) {
    const user = need(body, 'user');
    human(user);
    const callbackId = need(body, 'callbackId');
    const definition = appManifest().functions.get(callbackId);
    if (!definition) throw new PageError(404, `manifest.yml declares no step ${callbackId}`);
    const given = typeof body.inputs === 'object' && body.inputs !== null ? (body.inputs as Body) : {};
    const inputs: Record<string, unknown> = {};
    for (const parameter of definition.inputs) {
      if (parameter.type === INTERACTIVITY_TYPE) continue;
      const value = str(given, parameter.name)?.trim();
      if (value) inputs[parameter.name] = value;
      else if (parameter.is_required)
        throw new PageError(400, `${parameter.title ?? parameter.name} is required`);
    }
    // The page's user starts the workflow, by hand: Slack vouches for them as its interactor.
    const run = await driver.functionExecuted({ callbackId, inputs, startedBy: user });
    if (run.late || run.status !== 200) {
      return {
        ok: false,
        state: 'running',
        error: `the app did not ack function_executed (HTTP ${run.status})`,
      };
    }
    try {
      const ended = await run.ended(STEP_WAIT_MS);
      return {
        ok: ended.state === 'completed',
        state: ended.state,
        executionId: ended.id,
        ...(ended.outputs ? { outputs: ended.outputs } : {}),
        ...(ended.error ? { error: ended.error } : {}),
      };
    } catch {
      return {
        ok: false,
        state: 'running',
        executionId: run.execution.id,
        error: 'the app has not ended the step yet',
      };
    }
  }

  function history(query: URLSearchParams) {
    const user = human(need(query, 'user'));
    const channel = channelFor(user, need(query, 'channel'));
    // Ephemerals are not part of history: as in Slack, they live only in the client that saw them arrive.
    return { seq: state.journal.seq, messages: state.messages.history(channel.id).map(presentMessage) };
  }

  function thread(query: URLSearchParams) {
    const user = human(need(query, 'user'));
    const channel = channelFor(user, need(query, 'channel'));
    const ts = need(query, 'ts');
    return { seq: state.journal.seq, messages: state.messages.thread(channel.id, ts).map(presentMessage) };
  }

  function views(query: URLSearchParams) {
    const user = human(need(query, 'user'));
    return { seq: state.journal.seq, ...viewsOf(state, user.id) };
  }

  async function command(body: Body) {
    const user = human(need(body, 'user'));
    const channel = channelFor(user, need(body, 'channel'));
    const typed = need(body, 'text').trim();
    const threadTs = str(body, 'threadTs');
    const match = /^(\/\S+)\s*([\s\S]*)$/.exec(typed);
    if (!match) throw new PageError(400, 'a command starts with /');
    const [, name, rest] = match as unknown as [string, string, string];
    const known = deps.commands.find((c) => c.command === name);
    if (threadTs) {
      slackbotSays(channel.id, user.id, `\`${name}\` is not supported in threads. Sorry!`, threadTs);
      return { ok: false, error: 'not_supported_in_threads' };
    }
    if (!known) {
      slackbotSays(
        channel.id,
        user.id,
        `\`${name}\` is not a valid command. In Slack, all messages that start with the "/" character are interpreted as commands.`,
      );
      return { ok: false, error: 'unknown_command' };
    }
    const result = await driver.slashCommand({
      command: name,
      text: slackEscape(rest.trim(), directory, 'command'),
      userId: user.id,
      channelId: channel.id,
    });
    const error = result.late ? 'operation_timeout' : result.status !== 200 ? 'dispatch_failed' : undefined;
    if (error) slackbotSays(channel.id, user.id, `\`${name}\` failed with the error "${error}"`);
    return { ok: !error, status: result.status, elapsedMs: Math.round(result.elapsedMs), error };
  }

  async function message(body: Body) {
    const user = human(need(body, 'user'));
    const channel = channelFor(user, need(body, 'channel'));
    const text = need(body, 'text');
    const threadTs = str(body, 'threadTs');
    const result = await driver.userMessage({
      userId: user.id,
      channelId: channel.id,
      text: slackEscape(text, directory, 'message'),
      ...(threadTs ? { threadTs } : {}),
    });
    // Posted either way; what the bot was sent (a mention, a subscribed message event) may have failed.
    const failed = [result.event, result.mention].find((d) => d !== undefined && d.status !== 200);
    return { ok: failed === undefined, status: failed?.status ?? 200, ts: result.message.ts };
  }

  function ownView(user: User, viewId: string): ViewOutput {
    const view = state.views.get(viewId);
    if (!view || state.views.ownerOf(viewId) !== user.id) {
      throw new PageError(409, 'this view is no longer open');
    }
    return view;
  }

  async function action(body: Body) {
    const user = human(need(body, 'user'));
    const choice = {
      actionId: need(body, 'actionId'),
      ...(str(body, 'blockId') ? { blockId: str(body, 'blockId') } : {}),
      ...(typeof body.value === 'string' ? { value: body.value } : {}),
      ...(isOption(body.selectedOption) ? { selectedOption: body.selectedOption } : {}),
      ...(Array.isArray(body.selectedOptions)
        ? { selectedOptions: body.selectedOptions.filter(isOption) }
        : {}),
    };
    const viewId = str(body, 'viewId');
    let result: { status: number; late: boolean };
    if (viewId) {
      const view = ownView(user, viewId);
      result = await driver.blockAction({
        userId: user.id,
        view,
        values: valuesFor(view, body.values),
        ...choice,
      });
    } else {
      const channel = channelFor(user, need(body, 'channel'));
      const ts = need(body, 'ts');
      const found: SlackMessage | EphemeralMessage | undefined =
        body.ephemeral === true
          ? state.messages.findEphemeral(channel.id, ts)
          : state.messages.find(channel.id, ts);
      if (!found) throw new PageError(404, 'this message is gone');
      result = await driver.blockAction({ userId: user.id, message: found, ...choice });
    }
    return { ok: result.status === 200 && !result.late, status: result.status, late: result.late };
  }

  /**
   * A file picked in a modal's file_input, as JSON with its bytes in base64 (the page's POSTs are JSON only):
   * stored as the person's upload, as Slack does before the modal is submitted.
   */
  function upload(body: Body) {
    const user = human(need(body, 'user'));
    const filename = need(body, 'name').replace(/[\\/]/g, '_').slice(0, 255);
    const bytes = Buffer.from(need(body, 'base64'), 'base64');
    if (bytes.length > MAX_UPLOAD_BYTES) throw new PageError(413, 'a file in a modal may be at most 10 MB');
    const file = state.files.addUpload({ filename, bytes, uploader: user.id });
    return { id: file.id, name: file.name, size: file.size };
  }

  /** The page's own way to show a file: url_private needs the bot token, which the page does not have. */
  function serveFile(id: string, res: ServerResponse) {
    const file = state.files.get(id);
    if (!file?.completed) throw new PageError(404, `no file ${id}`);
    res
      .writeHead(200, { 'content-type': file.mimetype, 'content-length': file.bytes.length })
      .end(file.bytes);
  }

  async function submit(body: Body) {
    const user = human(need(body, 'user'));
    const view = ownView(user, need(body, 'viewId'));
    const result = await driver.viewSubmission({
      userId: user.id,
      view,
      values: valuesFor(view, body.values),
    });
    return { outcome: result.outcome, seq: state.journal.seq, ...viewsOf(state, user.id) };
  }

  async function close(body: Body) {
    const user = human(need(body, 'user'));
    const view = ownView(user, need(body, 'viewId'));
    await driver.viewClosed({ userId: user.id, view });
    return { seq: state.journal.seq, ...viewsOf(state, user.id) };
  }

  async function home(body: Body) {
    const user = human(need(body, 'user'));
    const result = await driver.appHomeOpened(user.id);
    return { ok: result.status === 200, status: result.status };
  }

  function dismiss(body: Body) {
    const user = human(need(body, 'user'));
    const channel = need(body, 'channel');
    const ts = need(body, 'ts');
    const found = state.messages.findEphemeral(channel, ts);
    if (found?.recipient !== user.id) throw new PageError(404, 'no such message');
    state.messages.deleteEphemeral(channel, ts);
    return { ok: true };
  }

  const SIM_OPERATIONS = new Set(['inbound', 'advance', 'fault', 'reset', 'state']);

  /** The simulator panel's calls, passed to the simulator's own /_sim/ endpoints. */
  async function simulator(operation: string, req: IncomingMessage, res: ServerResponse) {
    if (!deps.simulatorUrl) throw new PageError(404, 'the gateway is not the simulator');
    if (!SIM_OPERATIONS.has(operation)) throw new PageError(404, `no simulator operation ${operation}`);
    const isState = operation === 'state';
    if (isState !== (req.method === 'GET')) throw new PageError(405, 'wrong method');
    const upstream = await fetch(`${deps.simulatorUrl}/_sim/${operation}`, {
      method: req.method,
      headers: { 'content-type': 'application/json' },
      ...(isState ? {} : { body: JSON.stringify(await readJson(req)) }),
      signal: AbortSignal.timeout(10_000),
    });
    const text = await upstream.text();
    res.writeHead(upstream.status, {
      'content-type': upstream.headers.get('content-type') ?? 'application/json',
      'cache-control': 'no-store',
    });
    res.end(text);
  }

  const GETS: Record<string, (query: URLSearchParams) => unknown> = {
    bootstrap,
    history,
    thread,
    views,
  };
  const POSTS: Record<string, (body: Body) => unknown> = {
    command,
    message,
    action,
    submit,
    close,
    home,
    dismiss,
    step,
  };

  /** Serves `/_ws/<name>`; answers 404 for names it does not know. */
  return async function handle(
    name: string,
    req: IncomingMessage,
    res: ServerResponse,
    query: URLSearchParams,
  ) {
    try {
      if (name.startsWith('sim/')) {
        await simulator(name.slice('sim/'.length), req, res);
        return;
      }
      if (name === 'upload' && req.method === 'POST') {
        sendJson(res, 200, upload(await readJson(req, UPLOAD_JSON_LIMIT_BYTES)), {
          'cache-control': 'no-store',
        });
        return;
      }
      if (name.startsWith('files/') && req.method === 'GET') {
        serveFile(name.slice('files/'.length), res);
        return;
      }
      const get = req.method === 'GET' ? GETS[name] : undefined;
      const post = req.method === 'POST' ? POSTS[name] : undefined;
      if (!get && !post) throw new PageError(GETS[name] || POSTS[name] ? 405 : 404, `no endpoint ${name}`);
      const answer = get ? get(query) : await post!(await readJson(req));
      sendJson(res, 200, answer, { 'cache-control': 'no-store' });
    } catch (error) {
      if (error instanceof PageError) {
        sendJson(res, error.status, { ok: false, error: error.message });
        return;
      }
      deps.logger.warn(
        { err: error instanceof Error ? error.message : String(error), name },
        'local workspace',
      );
      if (!res.headersSent) {
        sendJson(res, 500, { ok: false, error: error instanceof Error ? error.message : 'internal error' });
      }
    }
  };
}

function isOption(value: unknown): value is { value: string; text?: string } {
  return (
    typeof value === 'object' && value !== null && typeof (value as { value?: unknown }).value === 'string'
  );
}

/**
 * What the page typed into a view, kept to the elements the view still has: the bot may have updated the view
 * (a new block id, fewer options) between the page's render and this request, and Slack only ever submits what
 * is on screen.
 */
export function valuesFor(view: ViewOutput, given: unknown): LooseStateValues {
  if (typeof given !== 'object' || given === null) return {};
  const values: LooseStateValues = {};
  for (const block of view.blocks as unknown as Record<string, unknown>[]) {
    const blockId = block.block_id as string;
    const typed = (given as Record<string, unknown>)[blockId];
    if (typeof typed !== 'object' || typed === null) continue;
    for (const element of elementsOf(block)) {
      const actionId = element.action_id as string | undefined;
      if (!actionId) continue;
      const value = keepKnownOptions(element, (typed as Record<string, unknown>)[actionId]);
      if (value === undefined) continue;
      values[blockId] ??= {};
      values[blockId][actionId] = value;
    }
  }
  return values;
}

type LooseValue = LooseStateValues[string][string];

function keepKnownOptions(element: Record<string, unknown>, value: unknown): LooseValue | undefined {
  const options = Array.isArray(element.options) ? (element.options as { value?: string }[]) : undefined;
  const known = (v: string) => !options || options.some((o) => o.value === v);
  if (typeof value === 'string') return known(value) ? value : undefined;
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string' && known(v));
  if (value === null) return emptyValue(String(element.type));
  return undefined;
}

/** A field the user cleared: Slack sends it as empty, not as its initial value. */
function emptyValue(type: string): LooseValue {
  if (['static_select', 'radio_buttons', 'external_select'].includes(type)) {
    return { type, selected_option: null } as unknown as LooseValue;
  }
  if (['checkboxes', 'multi_static_select'].includes(type)) {
    return { type, selected_options: [] } as unknown as LooseValue;
  }
  if (type === 'datepicker') return { type, selected_date: null } as unknown as LooseValue;
  if (type === 'timepicker') return { type, selected_time: null } as unknown as LooseValue;
  if (type === 'datetimepicker') return { type, selected_date_time: null } as unknown as LooseValue;
  return { type, value: null } as unknown as LooseValue;
}
