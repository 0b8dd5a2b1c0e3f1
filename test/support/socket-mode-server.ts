import { createHash, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * Slack's side of Socket Mode, on loopback: `apps.connections.open` over HTTP and the WebSocket it hands out.
 *
 * `@slack/socket-mode` 3 dials with undici's WebSocket and `ws` is not installed, so the server end speaks
 * RFC 6455 itself: the opening handshake, text/ping/pong/close frames, no extensions. That is all Slack's
 * protocol needs: `hello` once connected, then envelopes the app answers with `{ envelope_id, payload }`.
 *
 * Every other `/api/<method>` is passed on to `upstream` (the fake Slack), because a bot has one Web API base
 * URL for both its bot-token calls and `apps.connections.open`.
 */
export interface SocketModeServerOptions {
  /** The app-level token `apps.connections.open` accepts; others get `invalid_auth`. */
  appToken?: string;
  /** Web API base (ending in `/api/`) that every other method is forwarded to. */
  upstreamApiUrl?: string;
  appId?: string;
}

export type EnvelopeType = 'slash_commands' | 'interactive' | 'events_api';

export interface Envelope {
  envelope_id: string;
  type: EnvelopeType;
  payload: object;
  accepts_response_payload: boolean;
  retry_attempt?: number;
  retry_reason?: string;
}

export interface Ack {
  envelope_id: string;
  payload?: Record<string, unknown>;
  /** From the envelope leaving the server to its ack arriving. */
  elapsedMs: number;
}

export interface CloseInfo {
  /** Who sent the first close frame; `undefined` when the TCP connection just dropped. */
  initiator?: 'client' | 'server';
  code?: number;
  reason?: string;
}

export interface SocketModeConnection {
  readonly id: number;
  /** Every text message the app sent, parsed. */
  readonly received: unknown[];
  /** Resolves when the TCP connection is gone, with how the WebSocket was closed. */
  readonly closed: Promise<CloseInfo>;
  sendJson(message: unknown): void;
  /** Starts the close handshake from Slack's side. */
  close(code?: number, reason?: string): void;
}

export interface SocketModeServer {
  /** What to give WebClient as `slackApiUrl`. */
  readonly apiUrl: string;
  readonly appToken: string;
  /** `apps.connections.open` calls answered, successful or not. */
  readonly opens: number;
  readonly connections: readonly SocketModeConnection[];
  /** The next connection that got its `hello` (an already open one counts if none came since). */
  waitForConnection(timeoutMs?: number): Promise<SocketModeConnection>;
  /** Sends an envelope on the latest open connection and resolves with the app's ack for it. */
  send(envelope: Envelope, options?: { timeoutMs?: number }): Promise<Ack>;
  close(): Promise<void>;
}

const WS_GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';
const DEFAULT_WAIT_MS = 5000;

/** Builds the envelope Slack sends for a slash command: the payload is the form fields of the HTTP variant. */
export function slashCommandEnvelope(payload: object): Envelope {
  return { envelope_id: randomUUID(), type: 'slash_commands', payload, accepts_response_payload: true };
}

export async function startSocketModeServer(
  options: SocketModeServerOptions = {},
): Promise<SocketModeServer> {
  const appToken = options.appToken ?? 'xapp-1-test';
  const appId = options.appId ?? 'A0SMSOPS';
  const tickets = new Set<string>();
  const connections: Connection[] = [];
  const pendingAcks = new Map<string, (ack: Omit<Ack, 'elapsedMs'>) => void>();
  const connectionWaiters = new Set<(c: Connection) => void>();
  const sockets = new Set<Socket>();
  let opens = 0;
  let nextId = 1;
  let origin = '';

  const server = createServer((req, res) => {
    route(req, res).catch((error: unknown) => {
      if (!res.headersSent) json(res, 500, { ok: false, error: String(error) });
      else res.destroy();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBody(req);
    const method = new URL(req.url ?? '/', origin).pathname.replace(/^\/api\//, '');
    if (method === 'apps.connections.open') {
      opens += 1;
      if (bearer(req) !== appToken) return json(res, 200, { ok: false, error: 'invalid_auth' });
      const ticket = randomUUID();
      tickets.add(ticket);
      return json(res, 200, { ok: true, url: `${origin.replace(/^http/, 'ws')}/link/?ticket=${ticket}` });
    }
    if (!options.upstreamApiUrl || !req.url?.startsWith('/api/')) {
      return json(res, 404, { ok: false, error: 'unknown_method' });
    }
    const headers: Record<string, string> = {};
    for (const name of ['content-type', 'authorization']) {
      const value = req.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    const upstream = await fetch(new URL(req.url.slice('/api/'.length), options.upstreamApiUrl), {
      method: req.method,
      headers,
      ...(body.length > 0 ? { body } : {}),
    });
    const passOn: Record<string, string> = {};
    for (const name of ['content-type', 'retry-after', 'x-oauth-scopes']) {
      const value = upstream.headers.get(name);
      if (value !== null) passOn[name] = value;
    }
    res.writeHead(upstream.status, passOn);
    res.end(Buffer.from(await upstream.arrayBuffer()));
  }

  server.on('upgrade', (req: IncomingMessage, socket: Socket, head: Buffer) => {
    const url = new URL(req.url ?? '/', origin);
    const ticket = url.searchParams.get('ticket') ?? '';
    const key = req.headers['sec-websocket-key'];
    if (url.pathname !== '/link/' || !tickets.delete(ticket) || typeof key !== 'string') {
      socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    const accept = createHash('sha1')
      .update(key + WS_GUID)
      .digest('base64');
    socket.write(
      'HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
        `Sec-WebSocket-Accept: ${accept}\r\n\r\n`,
    );
    const connection = new Connection(nextId++, socket, (message) => {
      const ack = message as { envelope_id?: unknown; payload?: Record<string, unknown> };
      if (typeof ack.envelope_id !== 'string') return;
      pendingAcks.get(ack.envelope_id)?.({ envelope_id: ack.envelope_id, payload: ack.payload });
    });
    connections.push(connection);
    connection.sendJson({
      type: 'hello',
      num_connections: connections.filter((c) => c.open).length,
      debug_info: { host: 'applink-loopback', approximate_connection_time: 18060 },
      connection_info: { app_id: appId },
    });
    for (const waiter of connectionWaiters) waiter(connection);
    connectionWaiters.clear();
    if (head.length > 0) connection.feed(head);
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  function latestOpen(): Connection | undefined {
    return connections.filter((c) => c.open).at(-1);
  }

  return {
    apiUrl: `${origin}/api/`,
    appToken,
    get opens() {
      return opens;
    },
    connections,
    waitForConnection(timeoutMs = DEFAULT_WAIT_MS) {
      const open = latestOpen();
      if (open) return Promise.resolve(open);
      return bounded(
        new Promise<Connection>((resolve) => connectionWaiters.add(resolve)),
        timeoutMs,
        'no Socket Mode connection',
      );
    },
    async send(envelope, sendOptions = {}) {
      const connection = latestOpen();
      if (!connection) throw new Error('no open Socket Mode connection to send on');
      const acked = new Promise<Omit<Ack, 'elapsedMs'>>((resolve) =>
        pendingAcks.set(envelope.envelope_id, resolve),
      );
      const started = performance.now();
      connection.sendJson(envelope);
      try {
        const ack = await bounded(
          acked,
          sendOptions.timeoutMs ?? DEFAULT_WAIT_MS,
          `no ack for ${envelope.type} envelope ${envelope.envelope_id}`,
        );
        return { ...ack, elapsedMs: performance.now() - started };
      } finally {
        pendingAcks.delete(envelope.envelope_id);
      }
    },
    async close() {
      for (const connection of connections) if (connection.open) connection.close(1001, 'server closing');
      await bounded(Promise.all(connections.map((c) => c.closed)), 1000, 'close handshake').catch(
        () => undefined,
      );
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** One server-side WebSocket: frames in (masked, from the client), frames out (unmasked). */
class Connection implements SocketModeConnection {
  readonly received: unknown[] = [];
  readonly closed: Promise<CloseInfo>;
  open = true;
  #buffer = Buffer.alloc(0);
  #fragments: Buffer[] = [];
  #closeInfo: CloseInfo = {};
  #closeSent = false;

  constructor(
    readonly id: number,
    private readonly socket: Socket,
    private readonly onMessage: (message: unknown) => void,
  ) {
    socket.setNoDelay(true);
    this.closed = new Promise((resolve) => {
      socket.on('close', () => {
        this.open = false;
        resolve(this.#closeInfo);
      });
    });
    socket.on('data', (chunk: Buffer) => this.feed(chunk));
    socket.on('error', () => socket.destroy());
  }

  sendJson(message: unknown): void {
    this.#write(0x1, Buffer.from(JSON.stringify(message)));
  }

  close(code = 1000, reason = ''): void {
    if (this.#closeSent) return;
    this.#closeInfo = { initiator: 'server', code, reason };
    this.#sendClose(code, reason);
  }

  feed(chunk: Buffer): void {
    this.#buffer = Buffer.concat([this.#buffer, chunk]);
    for (;;) {
      const frame = parseFrame(this.#buffer);
      if (!frame) return;
      this.#buffer = this.#buffer.subarray(frame.size);
      this.#onFrame(frame.fin, frame.opcode, frame.payload);
    }
  }

  #onFrame(fin: boolean, opcode: number, payload: Buffer): void {
    switch (opcode) {
      case 0x0:
      case 0x1:
      case 0x2: {
        this.#fragments.push(payload);
        if (!fin) return;
        const text = Buffer.concat(this.#fragments).toString('utf8');
        this.#fragments = [];
        let message: unknown;
        try {
          message = JSON.parse(text);
        } catch {
          message = text;
        }
        this.received.push(message);
        this.onMessage(message);
        return;
      }
      case 0x8: {
        const code = payload.length >= 2 ? payload.readUInt16BE(0) : undefined;
        const reason = payload.subarray(2).toString('utf8');
        if (!this.#closeSent) {
          this.#closeInfo = { initiator: 'client', code, reason };
          this.#sendClose(code ?? 1000, '');
        }
        this.socket.end();
        return;
      }
      case 0x9:
        this.#write(0xa, payload);
        return;
      default:
        return;
    }
  }

  #sendClose(code: number, reason: string): void {
    this.#closeSent = true;
    const body = Buffer.alloc(2 + Buffer.byteLength(reason));
    body.writeUInt16BE(code, 0);
    body.write(reason, 2);
    this.#write(0x8, body);
  }

  #write(opcode: number, payload: Buffer): void {
    if (this.socket.destroyed || this.socket.writableEnded) return;
    let header: Buffer;
    if (payload.length < 126) {
      header = Buffer.from([0x80 | opcode, payload.length]);
    } else if (payload.length < 65_536) {
      header = Buffer.alloc(4);
      header.writeUInt16BE(payload.length, 2);
      header[1] = 126;
    } else {
      header = Buffer.alloc(10);
      header.writeBigUInt64BE(BigInt(payload.length), 2);
      header[1] = 127;
    }
    header[0] = 0x80 | opcode;
    this.socket.write(Buffer.concat([header, payload]));
  }
}

/** One complete frame at the start of `data`, unmasked, or undefined until enough bytes have arrived. */
function parseFrame(
  data: Buffer,
): { fin: boolean; opcode: number; payload: Buffer; size: number } | undefined {
  if (data.length < 2) return undefined;
  const fin = (data[0]! & 0x80) !== 0;
  const opcode = data[0]! & 0x0f;
  const masked = (data[1]! & 0x80) !== 0;
  let length = data[1]! & 0x7f;
  let offset = 2;
  if (length === 126) {
    if (data.length < 4) return undefined;
    length = data.readUInt16BE(2);
    offset = 4;
  } else if (length === 127) {
    if (data.length < 10) return undefined;
    length = Number(data.readBigUInt64BE(2));
    offset = 10;
  }
  const maskOffset = offset;
  if (masked) offset += 4;
  if (data.length < offset + length) return undefined;
  const payload = Buffer.from(data.subarray(offset, offset + length));
  if (masked) {
    for (let i = 0; i < payload.length; i += 1) payload[i]! ^= data[maskOffset + (i % 4)]!;
  }
  return { fin, opcode, payload, size: offset + length };
}

function bearer(req: IncomingMessage): string | undefined {
  const header = req.headers.authorization;
  return header?.startsWith('Bearer ') ? header.slice('Bearer '.length).trim() : undefined;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
}

/** `promise`, or a rejection naming what never happened once `ms` have passed. */
export function bounded<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
