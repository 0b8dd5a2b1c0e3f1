import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { WorkspaceState } from '../state/workspace-state.js';
import { presentMessage, viewsOf } from './present.js';

const HEARTBEAT_MS = 15_000;
/** How often streams check that their server still listens (see #endOrphans). */
const ORPHAN_CHECK_MS = 500;

/**
 * Server-sent events for the page: every message, ephemeral and view change as it happens, so new messages,
 * card updates and modal changes appear without polling. Each event carries the journal's sequence number; the
 * page uses it to ignore a snapshot older than what it already shows.
 */
export class EventHub {
  readonly #clients = new Set<ServerResponse>();
  readonly #unsubscribe: Array<() => void> = [];
  readonly #heartbeat: NodeJS.Timeout;
  readonly #orphanCheck: NodeJS.Timeout;
  #closed = false;

  constructor(state: WorkspaceState) {
    const { journal } = state;
    this.#unsubscribe.push(
      journal.on('message', (event, entry) => {
        this.#send('msg', {
          seq: entry.seq,
          action: event.action,
          message: presentMessage(event.message),
        });
        const { message } = event;
        // A new reply changes its parent's reply count, which the journal does not record as an edit.
        if (event.action === 'posted' && message.thread_ts && message.thread_ts !== message.ts) {
          const parent = state.messages.find(message.channel, message.thread_ts);
          if (parent) {
            this.#send('msg', { seq: entry.seq, action: 'updated', message: presentMessage(parent) });
          }
        }
      }),
      journal.on('ephemeral', (event, entry) => {
        this.#send('eph', {
          seq: entry.seq,
          action: event.action,
          message: presentMessage(event.message),
        });
      }),
      journal.on('view', (event, entry) => {
        this.#send('views', { seq: entry.seq, ...viewsOf(state, event.userId) });
      }),
    );
    this.#heartbeat = setInterval(() => {
      for (const res of this.#clients) res.write(': ping\n\n');
    }, HEARTBEAT_MS);
    this.#heartbeat.unref();
    this.#orphanCheck = setInterval(() => this.#endOrphans(), ORPHAN_CHECK_MS);
    this.#orphanCheck.unref();
  }

  /**
   * An open stream keeps its HTTP server from closing (server.close() waits for it). close() is the way to end
   * them; as a safety net, a stream whose server has stopped listening (it is shutting down) is ended too.
   */
  #endOrphans(): void {
    for (const res of this.#clients) {
      const server = (res.socket as { server?: Server } | null)?.server;
      if (server && !server.listening) {
        res.end();
        this.#clients.delete(res);
      }
    }
  }

  get size(): number {
    return this.#clients.size;
  }

  attach(req: IncomingMessage, res: ServerResponse, seq: number): void {
    if (this.#closed) {
      res.writeHead(503, { 'content-type': 'text/plain' }).end('shutting down');
      return;
    }
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      // A stream is never followed by another request on its connection: ending it closes the socket, so a
      // closing server is not kept waiting for an idle keep-alive connection.
      connection: 'close',
      'x-accel-buffering': 'no',
    });
    res.write(`retry: 1000\nevent: hello\ndata: ${JSON.stringify({ seq })}\n\n`);
    this.#clients.add(res);
    const drop = () => this.#clients.delete(res);
    req.on('close', drop);
    res.on('close', drop);
  }

  #send(event: string, data: unknown): void {
    if (this.#clients.size === 0) return;
    const frame = `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
    for (const res of this.#clients) res.write(frame);
  }

  /** Ends every stream, so the HTTP server can close (an open stream would hold it forever). */
  close(): void {
    this.#closed = true;
    clearInterval(this.#heartbeat);
    clearInterval(this.#orphanCheck);
    for (const off of this.#unsubscribe.splice(0)) off();
    for (const res of this.#clients) res.end();
    this.#clients.clear();
  }
}
