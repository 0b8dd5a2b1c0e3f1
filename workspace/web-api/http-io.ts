import type { IncomingMessage, ServerResponse } from 'node:http';
import { SlackApiError } from './api-error.js';

const BODY_LIMIT_BYTES = 10 * 1024 * 1024;

/** Form fields that carry JSON: @slack/web-api serialises every non-scalar argument with JSON.stringify. */
const JSON_FIELDS = new Set([
  'blocks',
  'attachments',
  'view',
  'metadata',
  'files',
  'unfurls',
  'user_auth_blocks',
]);

export async function readBody(req: IncomingMessage, limit = BODY_LIMIT_BYTES): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > limit) throw new SlackApiError('request_too_large');
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

export function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
}

/** Web API arguments from any body Slack accepts: form, JSON or multipart, plus query-string arguments. */
export async function parseApiArgs(
  contentType: string | undefined,
  raw: Buffer,
  query: URLSearchParams,
): Promise<Record<string, unknown>> {
  const args: Record<string, unknown> = Object.fromEntries(query);
  const type = mediaType(contentType);
  if (raw.length === 0) return args;
  if (type === 'application/json') return { ...args, ...parseJsonObject(raw.toString('utf8')) };
  if (type === 'multipart/form-data') return { ...args, ...(await parseMultipart(contentType!, raw)) };
  return { ...args, ...decodeFormFields(Object.fromEntries(new URLSearchParams(raw.toString('utf8')))) };
}

function parseJsonObject(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === 'object' && value !== null && !Array.isArray(value))
      return value as Record<string, unknown>;
  } catch {
    // fall through to Slack's answer for a body it cannot read
  }
  throw new SlackApiError('invalid_json');
}

/** A JSON field that does not parse stays a string, so the method reports it the way Slack does (invalid_blocks_format, …). */
function decodeFormFields(fields: Record<string, string>): Record<string, unknown> {
  const decoded: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) {
    decoded[key] = JSON_FIELDS.has(key) ? tryJson(value) : value;
  }
  return decoded;
}

function tryJson(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

/** Multipart parsing is borrowed from fetch's Response, which Node ships; file parts become Buffers. */
export async function parseMultipart(contentType: string, raw: Buffer): Promise<Record<string, unknown>> {
  const form = await new Response(new Uint8Array(raw), {
    headers: { 'content-type': contentType },
  }).formData();
  const fields: Record<string, string> = {};
  const files: Record<string, Buffer> = {};
  for (const [key, value] of form.entries()) {
    if (typeof value === 'string') fields[key] = value;
    else files[key] = Buffer.from(await value.arrayBuffer());
  }
  return { ...decodeFormFields(fields), ...files };
}
