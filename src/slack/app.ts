import type { RequestListener } from 'node:http';
import { App, AuthorizationError, HTTPModuleFunctions, HTTPReceiver, SocketModeReceiver } from '@slack/bolt';
import { SLACK_GATE_LIMITS } from '../http/slack-gate.js';
import type { Logger } from '../log.js';
import { register as registerActions } from './actions/index.js';
import { observedFetch, type SlackApiObserver } from './api-calls.js';
import { boltLogger } from './bolt-logger.js';
import { register as registerCommands } from './commands/index.js';
import { concealSlackApp } from './conceal.js';
import type { SlackDeps } from './deps.js';
import { register as registerEvents } from './events/index.js';
import { tellClickFailed } from './failure-notice.js';
import { ReplayGuard } from './replay-guard.js';
import { checkedSlackListener } from './request-check.js';
import { register as registerViews } from './views/index.js';

export interface SlackAppOptions {
  mode: 'http' | 'socket';
  botToken: string;
  signingSecret?: string;
  appToken?: string;
  /** Base URL of the Web API (tests and local mode). */
  apiUrl?: string;
  logger: Logger;
  /** Web API retry policy; tests turn retries off to see failures at once. */
  retryConfig?: { retries: number; factor?: number; minTimeout?: number; maxTimeout?: number };
  /** Told of every Web API request of every client the app makes (the metrics, when METRICS_PORT is set). */
  apiObserver?: SlackApiObserver;
}

/** Requests remembered for replay detection: far above what Slack sends one app in five minutes. */
const REPLAY_MEMORY = 10_000;

export interface SlackApp {
  app: App;
  /**
   * HTTP mode: the handler for POST /slack/events, mounted behind our server's gate (which reads the body).
   * It verifies the signature, runs each signed request once, and refuses bodies Bolt cannot route.
   */
  requestListener?: RequestListener;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The Bolt app built, without listeners yet, its token being checked (auth.test) meanwhile: the composition
 * starts this before it opens the store, so the round trip to Slack overlaps the migrations instead of
 * following them.
 */
export interface PreparedSlackApp {
  readonly app: App;
  readonly receiver: HTTPReceiver | SocketModeReceiver;
  readonly options: SlackAppOptions;
  /** Where the app's request refusals are logged. */
  readonly requestLog: Logger;
  /** Settles when auth.test has answered; rejects for a token Slack refuses. */
  readonly verified: Promise<void>;
}

/** Builds the Bolt app and sends its auth.test; nothing is listening, and no listener is registered. */
export function prepareSlackApp(options: SlackAppOptions): PreparedSlackApp {
  const logger = boltLogger(options.logger);
  const requestLog = options.logger.child({ component: 'slack' });
  const clientOptions = {
    slackApiUrl: options.apiUrl,
    logger,
    // Web API calls are retried by the client (429 honours Retry-After); a few quick tries keep a
    // listener from hanging for minutes on a Slack outage.
    retryConfig: options.retryConfig ?? { retries: 5, factor: 2, minTimeout: 500, maxTimeout: 30_000 },
    // A 429 comes back to the call that met it (see withRetryAfter) rather than pausing the client's whole queue:
    // listeners share one client, and a views.open held behind another method's Retry-After misses its trigger.
    rejectRateLimitedCalls: true,
    // Bolt hands these options to every client it makes, the listeners' included: one place to count calls.
    ...(options.apiObserver ? { fetch: observedFetch(options.apiObserver, options.apiUrl) } : {}),
  };
  let receiver: HTTPReceiver | SocketModeReceiver;
  if (options.mode === 'socket') {
    // The connection client must use SLACK_API_URL too, or apps.connections.open always goes to slack.com.
    receiver = new SocketModeReceiver({
      appToken: options.appToken!,
      logger,
      installerOptions: { clientOptions: { slackApiUrl: options.apiUrl } },
    });
  } else {
    receiver = new HTTPReceiver({
      signingSecret: options.signingSecret!,
      endpoints: '/slack/events',
      logger,
      // Acks leave at once; the work continues after the HTTP response.
      processBeforeResponse: false,
      bodyLimit: SLACK_GATE_LIMITS.bodyLimitBytes,
      // What throws before any listener runs is a body Bolt could not route: a 400, one line, and serving on.
      processEventErrorHandler: async (args) => {
        if (args.error instanceof AuthorizationError) {
          return HTTPModuleFunctions.defaultProcessEventErrorHandler(args);
        }
        const err = args.error instanceof Error ? args.error.message : String(args.error);
        requestLog.warn({ err }, 'ignored a Slack request Bolt could not route');
        if (!args.response.headersSent) args.response.writeHead(400).end();
        return false;
      },
    });
  }
  const app = new App({
    token: options.botToken,
    receiver,
    logger,
    clientOptions,
    deferInitialization: true,
    extendedErrorHandler: true,
  });
  concealSlackApp(app, receiver);
  app.error(async (args) => {
    const { error, body } = args as unknown as { error: Error & { code?: string }; body?: unknown };
    options.logger.warn({ err: error.message, code: error.code }, 'unhandled listener error');
    await tellClickFailed(body, error, { client: app.client, logger: options.logger });
  });
  const verified = app.init();
  // Awaited by createSlackApp; until then a refusal must not surface as an unhandled rejection.
  verified.catch(() => undefined);
  return { app, receiver, options, requestLog, verified };
}

/**
 * Builds the Bolt app with every listener (from a prepared one, or anew) once its token is verified; nothing
 * is listening until start().
 */
export async function createSlackApp(
  deps: SlackDeps,
  from: SlackAppOptions | PreparedSlackApp,
): Promise<SlackApp> {
  const { app, receiver, options, requestLog, verified } = 'verified' in from ? from : prepareSlackApp(from);
  registerCommands(app, deps);
  registerViews(app, deps);
  registerActions(app, deps);
  registerEvents(app, deps);
  await verified;
  return {
    app,
    requestListener:
      receiver instanceof HTTPReceiver
        ? checkedSlackListener(receiver.requestListener, {
            signingSecret: options.signingSecret!,
            replay: new ReplayGuard({
              windowSeconds: SLACK_GATE_LIMITS.timestampWindowSeconds,
              capacity: REPLAY_MEMORY,
            }),
            logger: requestLog,
          })
        : undefined,
    start: async () => {
      if (receiver instanceof SocketModeReceiver) await app.start();
    },
    stop: async () => {
      if (receiver instanceof SocketModeReceiver) await app.stop();
    },
  };
}
