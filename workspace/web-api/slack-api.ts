import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Logger, silentLogger } from '../../src/log.js';
import type { Clock } from '../state/clock.js';
import type { WaitOptions } from '../state/journal.js';
import type { ApiCall, SlackMessage, WorkspaceIdentity } from '../state/model.js';
import { WorkspaceState } from '../state/workspace-state.js';
import type { FaultSpec } from './faults.js';
import { sendJson } from './http-io.js';
import type { RateLimitOptions } from './rate-limiter.js';
import { API_PATH, createSlackRoutes, type SlackSide } from './slack-routes.js';

export interface FakeSlackOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  host?: '127.0.0.1' | 'localhost' | '::1';
  botToken?: string;
  /** The bot token's scopes; default: what manifest.yml requests. */
  scopes?: readonly string[];
  botUserId?: string;
  teamId?: string;
  /** Any other part of who the workspace and app are. */
  identity?: Partial<WorkspaceIdentity>;
  /** Off by default; `true` means Slack's ~1 chat.postMessage per second per channel with a burst of 3. */
  rateLimits?: boolean | RateLimitOptions;
  logger?: Logger;
  /** Drives trigger expiry, rate limits and message timestamps; tests pass a hand-moved clock instead of sleeping. */
  clock?: Clock;
  /** Use an existing state (the local UI keeps one across restarts of the server); a fresh seeded one otherwise. */
  state?: WorkspaceState;
}

export interface FakeSlack extends SlackSide {
  /** What to give WebClient as `slackApiUrl`: it appends the method name, e.g. `…/api/chat.postMessage`. */
  readonly apiUrl: string;
  /** `http://host:port`, no trailing slash. */
  readonly baseUrl: string;
  readonly port: number;
  readonly botToken: string;
  readonly identity: WorkspaceIdentity;
  readonly state: WorkspaceState;
  /** The next matching Web API calls answer with this HTTP error instead of running. */
  injectFault(spec: FaultSpec): void;
  clearFaults(): void;
  /** The app reinstalled with these bot scopes (the same token): every call and download from now on has them. */
  setScopes(scopes: readonly string[]): void;
  waitForCall(
    method: string,
    predicate?: (call: ApiCall) => boolean,
    options?: WaitOptions,
  ): Promise<ApiCall>;
  waitForMessage(predicate: (message: SlackMessage) => boolean, options?: WaitOptions): Promise<SlackMessage>;
  close(): Promise<void>;
}

/** A request still unanswered after this long when closing is cut off. */
const CLOSE_GRACE_MS = 2000;

/** Starts the fake Slack on loopback: Web API under /api/, plus the upload, response_url and file routes. */
export async function startFakeSlack(options: FakeSlackOptions = {}): Promise<FakeSlack> {
  const logger = options.logger ?? silentLogger;
  const state =
    options.state ??
    new WorkspaceState({
      identity: {
        ...options.identity,
        ...(options.teamId ? { teamId: options.teamId } : {}),
        ...(options.botUserId ? { botUserId: options.botUserId } : {}),
      },
      ...(options.clock ? { clock: options.clock } : {}),
    });
  const host = options.host ?? '127.0.0.1';
  const inFlight = new Set<ServerResponse>();

  let baseUrl = '';
  const routes = createSlackRoutes({
    state,
    botToken: options.botToken ?? 'xoxb-local',
    ...(options.scopes ? { scopes: options.scopes } : {}),
    ...(options.rateLimits !== undefined ? { rateLimits: options.rateLimits } : {}),
    logger,
    baseUrl: () => baseUrl,
  });
  const server = createServer((req, res) => {
    inFlight.add(res);
    res.on('close', () => inFlight.delete(res));
    routes
      .handle(req, res)
      .then((handled) => {
        if (!handled) sendJson(res, 404, { ok: false, error: 'not_found' });
      })
      .catch((error: unknown) => {
        logger.error({ err: error, url: req.url }, 'fake slack request failed');
        if (!res.headersSent) sendJson(res, 500, { ok: false, error: 'internal_error' });
      });
  });

  const port = await listen(server, options.port ?? 0, host);
  baseUrl = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  logger.info({ baseUrl }, 'fake slack listening');

  return {
    apiUrl: `${baseUrl}${API_PATH}`,
    baseUrl,
    port,
    botToken: routes.botToken,
    identity: state.identity,
    state,
    injectFault: routes.injectFault,
    clearFaults: routes.clearFaults,
    setScopes: routes.setScopes,
    issueTriggerId: routes.issueTriggerId,
    issueResponseUrl: routes.issueResponseUrl,
    applyAckMessage: routes.applyAckMessage,
    fileObject: routes.fileObject,
    waitForCall: (method, predicate, waitOptions) => state.waitForCall(method, predicate, waitOptions),
    waitForMessage: (predicate, waitOptions) => state.waitForMessage(predicate, waitOptions),
    close: () => close(server, inFlight),
  };
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/**
 * Lets requests already being answered finish (a bot's call in flight when a test ends must not turn into an
 * unhandled ECONNRESET), then drops the keep-alive sockets fetch leaves open, which would otherwise hold close().
 */
async function close(server: Server, inFlight: Set<ServerResponse>): Promise<void> {
  const closed = new Promise<void>((resolve, reject) => {
    server.close((error) => (error ? reject(error) : resolve()));
  });
  server.closeIdleConnections();
  const answered = Promise.all(
    [...inFlight].map((res) => new Promise((resolve) => res.once('close', resolve))),
  );
  await Promise.race([answered, new Promise((resolve) => setTimeout(resolve, CLOSE_GRACE_MS).unref())]);
  server.closeAllConnections();
  await closed;
}
