import { connect, type Socket } from 'node:net';

export interface RawExchange {
  socket: Socket;
  /** The status code of the first response line; rejects if the socket closes before one arrives. */
  status: Promise<number>;
  /** Resolves once the server has closed the connection. */
  closed: Promise<void>;
  /** Writes more of the body, unless the socket is gone. */
  send(data: string | Buffer): boolean;
}

/**
 * A hand-written HTTP/1.1 request over a bare socket, for what fetch cannot do: send the headers and
 * then stall, trickle a body, or keep sending after the answer. `head` lines are joined with CRLF.
 */
export function rawRequest(port: number, head: string[], body?: string | Buffer): RawExchange {
  const socket = connect(port, '127.0.0.1');
  let received = '';
  let onStatus: (status: number) => void = () => undefined;
  let onNoStatus: (error: Error) => void = () => undefined;
  const status = new Promise<number>((resolve, reject) => {
    onStatus = resolve;
    onNoStatus = reject;
  });
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.on('data', (chunk) => {
    received += chunk.toString('latin1');
    const line = /^HTTP\/1\.1 (\d{3})/.exec(received);
    if (line) onStatus(Number(line[1]));
  });
  // A server that cuts a sender off may reset the connection; what matters is what was answered.
  socket.on('error', () => undefined);
  socket.once('close', () => onNoStatus(new Error(`closed without an answer: ${received.slice(0, 200)}`)));
  socket.write(`${[...head, 'Host: 127.0.0.1', '', ''].join('\r\n')}`);
  if (body !== undefined) socket.write(body);
  return {
    socket,
    status,
    closed,
    send: (data) => !socket.destroyed && socket.write(data),
  };
}

/** Resolves with the promise's value, or rejects once `ms` have passed without one. */
export function within<T>(ms: number, promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no ${what} within ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}
