import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import type { Logger } from '../log.js';

export interface RunningMetricsServer {
  port: number;
  url: string;
  close(): Promise<void>;
}

/**
 * GET /metrics in Prometheus' text format, on a listener of its own (METRICS_PORT on METRICS_HOST), so that it is
 * never served beside /slack/events, and by default only to this machine: the metrics name channels and show
 * volumes, and HOST is every interface in HTTP mode. Nothing else is served; an error while collecting answers 500
 * without detail.
 */
export async function startMetricsServer(options: {
  registry: Registry;
  port: number;
  host: string;
  logger: Logger;
}): Promise<RunningMetricsServer> {
  const { registry } = options;
  const logger = options.logger.child({ component: 'metrics' });
  const server = createServer({ headersTimeout: 10_000, requestTimeout: 30_000 }, (req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found: try /metrics\n');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' }).end();
      return;
    }
    registry.metrics().then(
      (text) => {
        res.writeHead(200, { 'content-type': registry.contentType, 'cache-control': 'no-store' });
        res.end(req.method === 'HEAD' ? undefined : text);
      },
      (error: unknown) => {
        logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'metrics not collected');
        res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('metrics unavailable\n');
      },
    );
  });
  server.keepAliveTimeout = 5_000;
  server.maxConnections = 64;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const loopback = options.host === '0.0.0.0' || options.host === '::' ? '127.0.0.1' : options.host;
  const url = `http://${loopback.includes(':') ? `[${loopback}]` : loopback}:${port}/metrics`;
  logger.info({ port }, `metrics served at ${url}`);
  return {
    port,
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}
