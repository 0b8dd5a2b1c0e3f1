import {
  createServer,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Logger, silentLogger } from '../log.js';
import { throttledCounter } from '../log-throttle.js';
import { createSlackGate, type GateRefusal, type SlackGateLimits } from './slack-gate.js';

export interface HealthReport {
  ok: boolean;
  [key: string]: unknown;
}

export interface HttpServerOptions {
  port: number;
  host?: string;
  /**
   * POST /slack/events (HTTP mode and local mode). It gets only requests that passed the gate (signature
   * headers, timestamp window, size), with the body already read into `rawBody`.
   */
  slackListener?: RequestListener;
  /** Tests shrink these; production uses SLACK_GATE_LIMITS. */
  slackLimits?: Partial<SlackGateLimits>;
  logger?: Logger;
  health: () => Promise<HealthReport>;
  /** Extra routes (the local workspace); returns true when it handled the request. */
  extra?: (req: IncomingMessage, res: ServerResponse) => boolean | Promise<boolean>;
}

export interface RunningHttpServer {
  server: Server;
  port: number;
  url: string;
  /** Stops taking new connections and waits for open requests to end. */
  close(): Promise<void>;
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}

/**
 * Slack's own requests are small and quick, so a client that is slow to send its headers or its request
 * is not Slack and must not hold a socket for long. The connection cap keeps a flood of sockets from
 * exhausting memory and file descriptors; the workspace's file uploads fit in the request timeout.
 */
export const SERVER_LIMITS = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  maxConnections: 512,
};

/** One listener for everything the bot serves, so /slack/events, /healthz and the workspace share PORT. */
export async function startHttpServer(options: HttpServerOptions): Promise<RunningHttpServer> {
  const logger = (options.logger ?? silentLogger).child({ component: 'http' });
  // Refusals come from outsiders, possibly thousands a second: one line per reason every 10 s, with a count.
  const refusals = throttledCounter<GateRefusal>(10_000, (reason, count) =>
    logger.warn({ reason, count }, 'refused requests to /slack/events'),
  );
  const slackGate = createSlackGate({ limits: options.slackLimits, onRefused: refusals.note });
  const route = async (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/healthz' && (req.method === 'GET' || req.method === 'HEAD')) {
      const report = await options.health();
      json(res, report.ok ? 200 : 503, report);
      return;
    }
    const slackListener = options.slackListener;
    if (path === '/slack/events' && slackListener) {
      slackGate(req, res, slackListener);
      return;
    }
    if (options.extra && (await options.extra(req, res))) return;
    json(res, 404, { ok: false, error: 'not_found' });
  };
  const server = createServer(
    {
      headersTimeout: SERVER_LIMITS.headersTimeoutMs,
      requestTimeout: SERVER_LIMITS.requestTimeoutMs,
      // Node checks the two timeouts above this often (default 30 s, which would triple them).
      connectionsCheckingInterval: 1_000,
    },
    (req, res) => {
      route(req, res).catch((error: unknown) => {
        logger.error({ err: error instanceof Error ? error.message : String(error) }, 'request failed');
        if (!res.headersSent) json(res, 500, { ok: false, error: 'internal_error' });
        else res.destroy();
      });
    },
  );
  server.keepAliveTimeout = SERVER_LIMITS.keepAliveTimeoutMs;
  server.maxConnections = SERVER_LIMITS.maxConnections;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '0.0.0.0', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    server,
    port,
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        refusals.flush();
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}
