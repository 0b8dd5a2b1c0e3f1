import type { IncomingMessage, ServerResponse } from 'node:http';

export const MAX_BODY_BYTES = 5 * 1024 * 1024;
/** Past this the upload is cut off rather than drained, so a runaway client cannot tie us up. */
const DRAIN_LIMIT_BYTES = 8 * MAX_BODY_BYTES;

export const TOO_LARGE = Symbol('too large');

/**
 * Reads the whole body as UTF-8. An oversized body is still drained to its end before the caller
 * answers, so the client reliably sees the 413 instead of a reset connection.
 */
export function readBody(req: IncomingMessage): Promise<string | typeof TOO_LARGE> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > DRAIN_LIMIT_BYTES) {
        req.destroy();
        resolve(TOO_LARGE);
      } else if (size <= MAX_BODY_BYTES) {
        chunks.push(chunk);
      }
    });
    req.on('end', () => resolve(size > MAX_BODY_BYTES ? TOO_LARGE : Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export function sendJson(res: ServerResponse, httpStatus: number, body: unknown): void {
  if (res.headersSent || res.destroyed) return;
  const text = JSON.stringify(body);
  res.writeHead(httpStatus, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

export function sendHtml(res: ServerResponse, httpStatus: number, html: string): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(httpStatus, {
    'content-type': 'text/html; charset=utf-8',
    'content-length': Buffer.byteLength(html),
  });
  res.end(html);
}

/** The ServiceStack-shaped reply: members and Status inside one `Response` object. */
export function gatewayReply(members: Record<string, unknown>, code: number, description: string): unknown {
  return { Response: { ...members, Status: { Code: code, Description: description } } };
}
