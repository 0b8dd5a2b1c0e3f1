import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  headers: Record<string, string>;
  body: string;
}

export interface RecordingProxy {
  /** Point a driver here instead of at the bot. */
  url: string;
  /** Every request that went through, byte for byte: what someone on the wire could copy. */
  recorded: RecordedRequest[];
  close(): Promise<void>;
}

/** Forwards POSTs to `target` as they are and passes the answers back, keeping a copy of each request. */
export async function startRecordingProxy(target: string): Promise<RecordingProxy> {
  const recorded: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) {
        if (typeof value === 'string' && !['host', 'connection', 'content-length'].includes(name)) {
          headers[name] = value;
        }
      }
      const body = Buffer.concat(chunks).toString();
      recorded.push({ headers, body });
      const answer = await fetch(target, { method: 'POST', headers, body });
      const type = answer.headers.get('content-type');
      res.writeHead(answer.status, type ? { 'content-type': type } : {});
      res.end(await answer.text());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/slack/events`,
    recorded,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
