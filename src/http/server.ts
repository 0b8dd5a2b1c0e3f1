import {
  createServer,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HealthReport {
  ok: boolean;
  [key: string]: unknown;
}

export interface HttpServerOptions {
  port: number;
  host?: string;
  /** POST /slack/events (HTTP mode and local mode). */
  slackListener?: RequestListener;
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

/** One listener for everything the bot serves, so /slack/events, /healthz and the workspace share PORT. */
export async function startHttpServer(options: HttpServerOptions): Promise<RunningHttpServer> {
  const server = createServer(async (req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    try {
      if (path === '/healthz' && (req.method === 'GET' || req.method === 'HEAD')) {
        const report = await options.health();
        json(res, report.ok ? 200 : 503, report);
        return;
      }
      if (path === '/slack/events' && options.slackListener) {
        options.slackListener(req, res);
        return;
      }
      if (options.extra && (await options.extra(req, res))) return;
      json(res, 404, { ok: false, error: 'not_found' });
    } catch {
      if (!res.headersSent) json(res, 500, { ok: false, error: 'internal_error' });
      else res.end();
    }
  });
  // Slack's own requests are small and quick; a stuck client must not hold a socket for long.
  server.requestTimeout = 30_000;
  server.keepAliveTimeout = 5_000;
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
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}
