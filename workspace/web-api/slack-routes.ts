import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../../src/log.js';
import type { ResponseUrlPost, WorkspaceIdentity } from '../state/model.js';
import type { ResponseTarget } from '../state/response-urls.js';
import type { WorkspaceState } from '../state/workspace-state.js';
import { handleApiRequest } from './api-router.js';
import { FaultInjector, type FaultSpec } from './faults.js';
import { UPLOAD_PATH } from './methods/index.js';
import { presentFile } from './presenters.js';
import { type RateLimitOptions, RateLimits } from './rate-limiter.js';
import { manifestBotScopes } from './scopes.js';
import { deliverResponse, handleFileDownload, handleResponseUrl, handleUpload } from './side-routes.js';

export const API_PATH = '/api/';
export const RESPONSE_PATH = '/response/';
export const FILES_PATH = '/files/';

/** What the signed-request driver needs from Slack's side: the state, and the URLs and ids Slack hands out. */
export interface SlackSide {
  readonly state: WorkspaceState;
  readonly identity: WorkspaceIdentity;
  /** A trigger_id for this user, valid for one views.open/push within 3 s: what Slack puts in interactions. */
  issueTriggerId(userId: string): string;
  /** A response_url on this server that turns what is POSTed to it into messages for `target`. */
  issueResponseUrl(target: ResponseTarget): string;
  /** Applies a slash-command ack body the way Slack does: as a free response to the command's response_url. */
  applyAckMessage(responseUrl: string, body: Record<string, unknown>): ResponseUrlPost;
  /** A file as Slack puts it in a file_input's state (and files.info): links on this server. */
  fileObject(fileId: string): Record<string, unknown> | undefined;
}

export interface SlackRoutesOptions {
  state: WorkspaceState;
  botToken: string;
  /** The bot token's scopes; by default those manifest.yml requests, so a call the manifest does not allow fails. */
  scopes?: readonly string[];
  /** `true` means Slack's ~1 chat.postMessage per second per channel with a burst of 3, and every method's tier. */
  rateLimits?: boolean | RateLimitOptions;
  logger: Logger;
  /**
   * The origin the bot reaches these routes at (`http://127.0.0.1:PORT`, no trailing slash), read each time a URL
   * is handed out (response_url, upload_url, permalinks), so it may be set after the server listens.
   */
  baseUrl: () => string;
}

/** The fake Slack's HTTP surface, independent of any server: mount `handle` on whichever server serves it. */
export interface SlackRoutes extends SlackSide {
  readonly botToken: string;
  /** Serves the Web API under /api/ and its side routes (upload, response_url, files); false for any other path. */
  handle(req: IncomingMessage, res: ServerResponse): Promise<boolean>;
  /** The next matching Web API calls answer with this HTTP error instead of running. */
  injectFault(spec: FaultSpec): void;
  clearFaults(): void;
  /** The app reinstalled with these bot scopes (the same token): every call and download from now on has them. */
  setScopes(scopes: readonly string[]): void;
}

export function createSlackRoutes(options: SlackRoutesOptions): SlackRoutes {
  const { state, botToken, logger } = options;
  const rateLimits = options.rateLimits === true ? {} : options.rateLimits || undefined;
  const limiter = rateLimits ? new RateLimits(rateLimits, state.clock) : undefined;
  const faults = new FaultInjector();
  const scopes = new Set(options.scopes ?? manifestBotScopes());
  const responsePrefix = () => `${options.baseUrl()}${RESPONSE_PATH}`;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    const url = new URL(req.url ?? '/', 'http://fake.invalid');
    const path = url.pathname;
    if (path.startsWith(API_PATH)) {
      const deps = { state, botToken, scopes, faults, limiter, logger, baseUrl: options.baseUrl() };
      const method = decodeURIComponent(path.slice(API_PATH.length));
      await handleApiRequest(deps, method, req, res, url.searchParams);
      return true;
    }
    if (path.startsWith(UPLOAD_PATH) && req.method === 'POST') {
      await handleUpload(state, path.slice(UPLOAD_PATH.length), req, res);
      return true;
    }
    if (path.startsWith(RESPONSE_PATH) && req.method === 'POST') {
      await handleResponseUrl(state, path.slice(RESPONSE_PATH.length), req, res);
      return true;
    }
    if (path.startsWith(FILES_PATH) && req.method === 'GET') {
      handleFileDownload(state, path.slice(FILES_PATH.length).split('/')[0]!, req, res, {
        botToken,
        scopes,
        baseUrl: options.baseUrl(),
      });
      return true;
    }
    return false;
  }

  return {
    state,
    identity: state.identity,
    botToken,
    handle,
    injectFault: (spec) => faults.inject(spec),
    clearFaults: () => faults.clear(),
    setScopes: (granted) => {
      scopes.clear();
      for (const scope of granted) scopes.add(scope);
    },
    issueTriggerId: (userId) => state.triggers.issue(userId),
    issueResponseUrl: (target) => `${responsePrefix()}${state.responseUrls.issue(target).id}`,
    fileObject: (fileId) => {
      const file = state.files.get(fileId);
      return file?.completed ? presentFile(file, options.baseUrl()) : undefined;
    },
    applyAckMessage: (responseUrl, body) => {
      const prefix = responsePrefix();
      const id = responseUrl.startsWith(prefix)
        ? responseUrl.slice(prefix.length)
        : responseUrl.slice(responseUrl.lastIndexOf('/') + 1);
      return deliverResponse(state, id, body, { spend: false });
    },
  };
}
