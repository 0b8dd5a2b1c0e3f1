import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * What /slack/events accepts before a single byte of the body is read. The body is what the signature
 * covers, so anyone can make the bot read it: these limits are what keeps that cheap.
 */
export interface SlackGateLimits {
  /** Largest body read. The README explains the figure (Slack's 250 kB view limit, form-encoded). */
  bodyLimitBytes: number;
  /** Slack signs with the time of sending; further away than this, past or future, is refused. */
  timestampWindowSeconds: number;
  /** Slack sends the whole body at once; a body still arriving after this is a stalling client. */
  bodyDeadlineMs: number;
  /** Each body may hold this much whatever else is being read: a command or a click always fits. */
  bytesPerBody: number;
  /** Beyond bytesPerBody, all bodies being read at once share this much. */
  sharedBodyBytes: number;
}

export const SLACK_GATE_LIMITS: SlackGateLimits = {
  bodyLimitBytes: 1024 * 1024,
  timestampWindowSeconds: 5 * 60,
  bodyDeadlineMs: 5_000,
  bytesPerBody: 16 * 1024,
  sharedBodyBytes: 8 * 1024 * 1024,
};

export type GateRefusal =
  | 'method_not_allowed'
  | 'unsigned'
  | 'timestamp_out_of_window'
  | 'body_too_large'
  | 'body_too_slow'
  | 'busy';

/** A request whose body has been read: Bolt's HTTPReceiver uses `rawBody` instead of reading again. */
export type BufferedRequest = IncomingMessage & { rawBody: Buffer };

export type GatedListener = (req: BufferedRequest, res: ServerResponse) => void;

const SIGNATURE = /^v0=[0-9a-f]{64}$/;
const TIMESTAMP = /^\d{1,12}$/;

/** Shared by every request of one server: the bytes of bodies being read beyond their own allowance. */
class SharedBytes {
  private used = 0;
  constructor(private readonly capacity: number) {}
  take(bytes: number): boolean {
    if (this.used + bytes > this.capacity) return false;
    this.used += bytes;
    return true;
  }
  give(bytes: number): void {
    this.used -= bytes;
  }
}

/**
 * Guards POST /slack/events: refuses, before reading the body, anything Slack would not send (another
 * method, no signature headers, a timestamp outside the window, a declared length over the limit), then
 * reads the body within the byte, time and memory limits and hands it on. A refusal closes the connection,
 * so a client that keeps sending is cut off rather than read.
 */
export function createSlackGate(
  options: {
    limits?: Partial<SlackGateLimits>;
    now?: () => number;
    onRefused?: (reason: GateRefusal) => void;
  } = {},
): (req: IncomingMessage, res: ServerResponse, next: GatedListener) => void {
  const limits = { ...SLACK_GATE_LIMITS, ...options.limits };
  const now = options.now ?? Date.now;
  const shared = new SharedBytes(limits.sharedBodyBytes);

  const refuse = (res: ServerResponse, status: number, reason: GateRefusal, headers = {}) => {
    options.onRefused?.(reason);
    res.writeHead(status, {
      ...headers,
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
      // Node then closes the socket once the answer is out instead of draining the rest of the body.
      connection: 'close',
    });
    res.end(JSON.stringify({ ok: false, error: reason }));
  };

  return (req, res, next) => {
    if (req.method !== 'POST') return refuse(res, 405, 'method_not_allowed', { allow: 'POST' });
    const signature = req.headers['x-slack-signature'];
    const timestamp = req.headers['x-slack-request-timestamp'];
    if (typeof signature !== 'string' || !SIGNATURE.test(signature)) return refuse(res, 401, 'unsigned');
    if (typeof timestamp !== 'string' || !TIMESTAMP.test(timestamp)) return refuse(res, 401, 'unsigned');
    if (Math.abs(now() / 1000 - Number(timestamp)) > limits.timestampWindowSeconds) {
      return refuse(res, 401, 'timestamp_out_of_window');
    }
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > limits.bodyLimitBytes) return refuse(res, 413, 'body_too_large');
    readBody(req, res, next);
  };

  function readBody(req: IncomingMessage, res: ServerResponse, next: GatedListener): void {
    const chunks: Buffer[] = [];
    let size = 0;
    let borrowed = 0;
    let done = false;
    const finish = () => {
      done = true;
      clearTimeout(deadline);
      shared.give(borrowed);
      borrowed = 0;
      req.off('data', onData);
    };
    const fail = (status: number, reason: GateRefusal, headers = {}) => {
      if (done) return;
      finish();
      chunks.length = 0;
      refuse(res, status, reason, headers);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limits.bodyLimitBytes) return fail(413, 'body_too_large');
      const beyondOwn = Math.max(0, size - limits.bytesPerBody) - borrowed;
      if (beyondOwn > 0) {
        if (!shared.take(beyondOwn)) return fail(503, 'busy', { 'retry-after': '1' });
        borrowed += beyondOwn;
      }
      chunks.push(chunk);
    };
    const deadline = setTimeout(() => fail(408, 'body_too_slow'), limits.bodyDeadlineMs);
    req.on('data', onData);
    req.once('end', () => {
      if (done) return;
      finish();
      next(Object.assign(req, { rawBody: Buffer.concat(chunks, size) }), res);
    });
    // A client that goes away mid-body frees what it held.
    req.once('close', () => {
      if (!done) finish();
    });
    req.once('error', () => {
      if (!done) finish();
    });
  }
}
