import type { IncomingMessage, ServerResponse } from 'node:http';
import { type Logger, silentLogger } from '../src/log.js';
import { concealSecrets, REDACTED } from '../src/secrets.js';
import type { SlackDriver } from './driver/driver-types.js';
import { createSlackDriver } from './driver/slack-driver.js';
import { type Asset, loadAssets, sendAsset } from './page/assets.js';
import { EventHub } from './page/events.js';
import { checkPage, checkSlackRoute, type GuardVerdict } from './page/guard.js';
import { loadSlashCommands, type SlashCommandInfo } from './page/manifest.js';
import { createPageApi } from './page/page-api.js';
import { randomToken } from './state/ids.js';
import { keepWorkspace } from './state/kept-workspace.js';
import { SEEDED } from './state/seed.js';
import { WorkspaceState } from './state/workspace-state.js';
import { sendJson } from './web-api/http-io.js';
import { UPLOAD_PATH } from './web-api/methods/index.js';
import type { RateLimitOptions } from './web-api/rate-limiter.js';
import {
  API_PATH,
  createSlackRoutes,
  FILES_PATH,
  RESPONSE_PATH,
  type SlackRoutes,
} from './web-api/slack-routes.js';

export interface LocalWorkspaceOptions {
  /** The bot's signing secret: every request the workspace sends it is signed with it, as Slack does. */
  signingSecret: string;
  /**
   * Where the bot takes Slack's requests, e.g. `http://127.0.0.1:3000/slack/events`. Its origin is also where
   * the bot reaches this workspace (Web API, response_url, uploads): the workspace is served by the same server.
   */
  botEventsUrl: string;
  /** The gateway simulator's base URL; the page's simulator panel drives its /_sim/ endpoints. Unset: no panel. */
  simulatorUrl?: string;
  logger?: Logger;
  /**
   * The bot token the Web API accepts. Default: a new random one each run, so no page on the web can know it (the
   * fake Slack of the tests keeps `xoxb-local`).
   */
  botToken?: string;
  /** Slack-like rate limits on the Web API (default on, as in Slack). */
  rateLimits?: boolean | RateLimitOptions;
  /** Answer other machines too (e.g. a container's published port). Default: only this machine. */
  allowRemote?: boolean;
  /** An existing state; a fresh seeded workspace otherwise. */
  state?: WorkspaceState;
  /**
   * A JSON file that keeps the workspace across restarts (messages, threads, files, channels, open views): read at
   * start (absent: a fresh workspace; unreadable: a fresh one and one warning line), written a second after
   * changes, on saveState() and on close. Uploaded files' bytes go beside it, one file each, written once
   * (`workspace-files/<file id>` beside `workspace.json`). Unset: in memory only.
   */
  statePath?: string;
}

export interface LocalWorkspace {
  /**
   * Serves the page (`/`, `/assets/…`), its JSON endpoints and event stream (`/_ws/…`), the Web API (`/api/…`)
   * and its side routes (`/response/…`, `/upload/…`, `/files/…`). Resolves false for any other path, so the
   * caller answers it (404); never throws.
   */
  handle(req: IncomingMessage, res: ServerResponse): Promise<boolean>;
  /** The bot's SLACK_API_URL: `http://127.0.0.1:PORT/api/` (the origin of botEventsUrl). */
  readonly apiUrl: string;
  /** The bot's SLACK_BOT_TOKEN. */
  readonly botToken: string;
  /** The person using the page at first, an admin: put it in ADMIN_USER_IDS. */
  readonly localUserId: string;
  readonly state: WorkspaceState;
  /** Slack's side, for tests that drive the bot directly. */
  readonly driver: SlackDriver;
  readonly routes: SlackRoutes;
  /** Writes the state file now (with statePath; else does nothing). */
  saveState(): Promise<void>;
  /** Ends the page's event streams and saves. Call it before closing the HTTP server, which waits for open requests. */
  close(): Promise<void>;
}

/** The first person on the page: seeded as a workspace admin. */
export const LOCAL_USER_ID = SEEDED.users.admin;

const PAGE_API_PREFIX = '/_ws/';
const ASSETS_PREFIX = '/assets/';

/**
 * The local workspace that stands in for Slack: the same fake Web API the tests use, a signed-request driver
 * towards the bot, and a web page that looks and behaves like Slack, all mounted on the bot's own HTTP server.
 * It talks to the bot only over HTTP, exactly as Slack does.
 */
export async function createLocalWorkspace(options: LocalWorkspaceOptions): Promise<LocalWorkspace> {
  const logger = options.logger ?? silentLogger;
  const origin = new URL(options.botEventsUrl).origin;
  const state = options.state ?? new WorkspaceState();
  const saver = options.statePath ? keepWorkspace(state, options.statePath, logger) : undefined;
  const routes = createSlackRoutes({
    state,
    botToken: options.botToken ?? `xoxb-local-${randomToken(24)}`,
    rateLimits: options.rateLimits ?? true,
    logger,
    baseUrl: () => origin,
  });
  const driver = createSlackDriver({
    botUrl: options.botEventsUrl,
    signingSecret: options.signingSecret,
    fake: routes,
  });
  const [assets, commands] = await Promise.all([loadAssets(), loadSlashCommands()]);
  const hub = new EventHub(state);
  const simulatorUrl = options.simulatorUrl?.replace(/\/+$/, '');
  const pageApi = createPageApi({ state, driver, commands, simulatorUrl, logger });
  const guard = { allowRemote: options.allowRemote ?? false };

  async function route(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    const url = new URL(req.url ?? '/', 'http://local.invalid');
    const path = url.pathname;
    if (isSlackRoute(path)) {
      if (refused(res, checkSlackRoute(req, guard))) return true;
      return routes.handle(req, res);
    }
    const isPage =
      path === '/' || path.startsWith(ASSETS_PREFIX) || path.startsWith(PAGE_API_PREFIX) || isPermalink(path);
    if (!isPage) return false;
    if (refused(res, checkPage(req, guard))) return true;
    if (path === `${PAGE_API_PREFIX}events` && req.method === 'GET') {
      hub.attach(req, res, state.journal.seq);
      return true;
    }
    if (path.startsWith(PAGE_API_PREFIX)) {
      await pageApi(path.slice(PAGE_API_PREFIX.length), req, res, url.searchParams);
      return true;
    }
    if (isPermalink(path)) {
      // chat.getPermalink hands these out: open the channel (and thread) on the page.
      const [, , channel, p] = path.split('/');
      const ts = `${p!.slice(1, -6)}.${p!.slice(-6)}`;
      const thread = url.searchParams.get('thread_ts');
      res.writeHead(302, { location: `/#/${channel}/${thread ?? ts}` }).end();
      return true;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const asset = assetFor(assets, path);
    if (!asset) return false;
    sendAsset(res, asset, req.method === 'HEAD');
    return true;
  }

  const workspace: LocalWorkspace = {
    handle: async (req, res) => {
      try {
        return await route(req, res);
      } catch (error) {
        logger.error({ err: error, url: req.url }, 'local workspace request failed');
        if (!res.headersSent) sendJson(res, 500, { ok: false, error: 'internal_error' });
        else res.end();
        return true;
      }
    },
    apiUrl: `${origin}${API_PATH}`,
    botToken: routes.botToken,
    localUserId: LOCAL_USER_ID,
    state,
    driver,
    routes,
    saveState: async () => saver?.flush(),
    close: async () => {
      hub.close();
      await saver?.flush();
    },
  };
  // Printed or logged by mistake, it shows no token.
  return concealSecrets(workspace, () => ({ apiUrl: workspace.apiUrl, botToken: REDACTED }));
}

function isSlackRoute(path: string): boolean {
  return [API_PATH, RESPONSE_PATH, UPLOAD_PATH, FILES_PATH].some((prefix) => path.startsWith(prefix));
}

function isPermalink(path: string): boolean {
  return /^\/archives\/[A-Z0-9]+\/p\d{7,}$/.test(path);
}

function assetFor(assets: Map<string, Asset>, path: string): Asset | undefined {
  if (path === '/') return assets.get('index.html');
  const name = path.slice(ASSETS_PREFIX.length);
  return /^[a-z0-9-]+\.[a-z]+$/.test(name) ? assets.get(name) : undefined;
}

function refused(res: ServerResponse, verdict: GuardVerdict): boolean {
  if (verdict.ok) return false;
  res.writeHead(verdict.status, { 'content-type': 'text/plain; charset=utf-8' }).end(verdict.reason);
  return true;
}

export type { SlashCommandInfo };
