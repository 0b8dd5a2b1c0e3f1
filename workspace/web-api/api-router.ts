import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../../src/log.js';
import type { WorkspaceState } from '../state/workspace-state.js';
import { SlackApiError } from './api-error.js';
import type { FaultInjector } from './faults.js';
import { parseApiArgs, readBody, sendJson } from './http-io.js';
import { METHODS } from './methods/index.js';
import type { RateLimits } from './rate-limiter.js';
import { checkScopes } from './scopes.js';

export interface ApiRouterDeps {
  state: WorkspaceState;
  botToken: string;
  /** What the bot token was granted; web-api surfaces it as response_metadata.scopes. */
  scopes: ReadonlySet<string>;
  faults: FaultInjector;
  limiter: RateLimits | undefined;
  logger: Logger;
  baseUrl: string;
}

interface Answer {
  status: number;
  body: Record<string, unknown>;
  headers?: Record<string, string>;
  injected?: boolean;
}

/** One Web API request, start to finish: parse, fault, auth, rate limit, run, answer, log. */
export async function handleApiRequest(
  deps: ApiRouterDeps,
  method: string,
  req: IncomingMessage,
  res: ServerResponse,
  query: URLSearchParams,
): Promise<void> {
  let args: Record<string, unknown> = {};
  let answer: Answer;
  let auth: 'bot' | 'workflow' | undefined;
  try {
    args = await parseApiArgs(req.headers['content-type'], await readBody(req), query);
    auth = tokenKind(deps, req, args);
    answer = answerCall(deps, method, req, args);
    if (auth === 'workflow' && method === 'chat.postMessage') notePostedByRun(deps, req, args, answer);
  } catch (error) {
    answer = refusalOrCrash(deps, method, error);
  }
  const { token: _token, ...loggedArgs } = args;
  const text = JSON.stringify(answer.body);
  deps.state.journal.record('call', {
    seq: deps.state.journal.seq + 1,
    method,
    args: loggedArgs,
    at: deps.state.clock(),
    status: answer.status,
    result: JSON.parse(text) as Record<string, unknown>,
    injected: answer.injected ?? false,
    ...(auth ? { auth } : {}),
  });
  deps.logger.debug({ method, status: answer.status, error: answer.body.error }, 'fake slack api call');
  sendJson(res, answer.status, answer.body, {
    'x-oauth-scopes': [...deps.scopes].join(','),
    ...answer.headers,
  });
}

function answerCall(
  deps: ApiRouterDeps,
  method: string,
  req: IncomingMessage,
  args: Record<string, unknown>,
) {
  const fault = deps.faults.take(method);
  if (fault) return { ...fault, injected: true };
  const handler = METHODS[method];
  if (!handler) throw new SlackApiError('unknown_method');
  checkToken(deps, method, req, args);
  checkScopes(deps.scopes, method, args, deps.state.directory);
  const retryAfter = rateLimit(deps, method, args);
  if (retryAfter > 0) {
    return {
      status: 429,
      body: { ok: false, error: 'ratelimited' },
      headers: { 'retry-after': String(retryAfter) },
    };
  }
  const result = handler({ state: deps.state, args, baseUrl: deps.baseUrl });
  return { status: 200, body: { ok: true, ...result } };
}

/** Remembers which run posted a message, so that a click on it carries that run as Slack's payloads do. */
function notePostedByRun(
  deps: ApiRouterDeps,
  req: IncomingMessage,
  args: Record<string, unknown>,
  answer: Answer,
): void {
  const body = answer.body as { ok?: boolean; channel?: unknown; ts?: unknown };
  const execution = deps.state.functions.byToken(tokenOf(req, args) ?? '');
  if (body.ok && execution && typeof body.channel === 'string' && typeof body.ts === 'string')
    deps.state.functions.notePosted(body.channel, body.ts, execution);
}

/** Bearer header first (what @slack/web-api sends), then a `token` argument, as Slack accepts both. */
function tokenOf(req: IncomingMessage, args: Record<string, unknown>): string | undefined {
  const header = req.headers.authorization;
  const bearer = header?.startsWith('Bearer ') ? header.slice('Bearer '.length).trim() : undefined;
  return bearer || (typeof args.token === 'string' ? args.token : undefined);
}

function tokenKind(
  deps: ApiRouterDeps,
  req: IncomingMessage,
  args: Record<string, unknown>,
): 'bot' | 'workflow' | undefined {
  const token = tokenOf(req, args);
  if (token === undefined) return undefined;
  if (token === deps.botToken) return 'bot';
  return deps.state.functions.byToken(token) ? 'workflow' : undefined;
}

/**
 * The bot token, or the token of a custom step run (the `bot_access_token` of its function_executed event), which
 * carries the bot's scopes while the run lasts; once the run has ended, only functions.* still answer for it (with
 * execution_not_in_running_state), anything else is token_expired.
 */
function checkToken(
  deps: ApiRouterDeps,
  method: string,
  req: IncomingMessage,
  args: Record<string, unknown>,
): void {
  const token = tokenOf(req, args);
  if (!token) throw new SlackApiError('not_authed');
  if (token === deps.botToken) return;
  const execution = deps.state.functions.byToken(token);
  if (!execution) throw new SlackApiError('invalid_auth');
  if (execution.state !== 'running' && !method.startsWith('functions.'))
    throw new SlackApiError('token_expired');
}

/** chat.postMessage about once a second per channel; every other method by its tier, per workspace. */
function rateLimit(deps: ApiRouterDeps, method: string, args: Record<string, unknown>): number {
  if (!deps.limiter) return 0;
  const ref = typeof args.channel === 'string' ? args.channel : '';
  const channelId = deps.state.directory.resolve(ref)?.id ?? ref;
  return deps.limiter.take(method, channelId);
}

function refusalOrCrash(deps: ApiRouterDeps, method: string, error: unknown): Answer {
  if (error instanceof SlackApiError) return { status: 200, body: error.toBody() };
  deps.logger.error({ err: error, method }, 'fake slack method crashed');
  return { status: 500, body: { ok: false, error: 'internal_error' } };
}
