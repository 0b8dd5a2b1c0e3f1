import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ResponseUrlPost } from '../state/model.js';
import { applyResponseMessage } from '../state/response-messages.js';
import type { WorkspaceState } from '../state/workspace-state.js';
import { SlackApiError } from './api-error.js';
import { mediaType, parseApiArgs, parseMultipart, readBody, sendJson } from './http-io.js';

/**
 * The upload URL from files.getUploadURLExternal. @slack/web-api sends the bytes as a multipart form (one part,
 * named `body`); curl-style raw bodies work too.
 */
export async function handleUpload(
  state: WorkspaceState,
  fileId: string,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const raw = await readBody(req);
  const contentType = req.headers['content-type'];
  let bytes = raw;
  if (mediaType(contentType) === 'multipart/form-data') {
    const parts = await parseMultipart(contentType!, raw);
    bytes =
      Object.values(parts).find((v): v is Buffer => Buffer.isBuffer(v)) ??
      Buffer.from(String(parts.body ?? ''));
  }
  const file = state.files.receive(fileId, bytes);
  if (!file) {
    res.writeHead(404, { 'content-type': 'text/plain' }).end('file not found');
    return;
  }
  res.writeHead(200, { 'content-type': 'text/plain' }).end(`OK - ${file.size}`);
}

/**
 * url_private(_download): the file to the bot token with files:read, as Slack serves it. Slack refuses no other
 * way than a browser would be refused, and so does this: without the token (or with another) a redirect to the
 * team's sign-in page, `/?redir=<the file's path>` (node-slack-sdk#1750, deno-slack-sdk#285); to a token
 * without files:read the sign-in page itself, HTML with status 200 (bolt-js#2585, slack-go/slack#1284). Never a
 * JSON 401 or 403.
 */
export function handleFileDownload(
  state: WorkspaceState,
  fileId: string,
  req: IncomingMessage,
  res: ServerResponse,
  access: { botToken: string; scopes?: ReadonlySet<string>; baseUrl: string },
): void {
  if (req.headers.authorization !== `Bearer ${access.botToken}`) {
    const path = new URL(req.url ?? '/', 'http://fake.invalid').pathname;
    const signIn = `${access.baseUrl}/?redir=${encodeURIComponent(path)}`;
    res
      .writeHead(302, { location: signIn, 'content-type': 'text/html; charset=utf-8' })
      .end(`<a href="${signIn}">Found</a>.`);
    return;
  }
  if (access.scopes && !access.scopes.has('files:read')) {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(SIGN_IN_PAGE);
    return;
  }
  const file = state.files.get(fileId);
  if (!file?.completed) {
    sendJson(res, 404, { ok: false, error: 'file_not_found' });
    return;
  }
  res.writeHead(200, { 'content-type': file.mimetype, 'content-length': file.bytes.length }).end(file.bytes);
}

const SIGN_IN_PAGE =
  '<!DOCTYPE html><html lang="en-US"><head><meta charset="utf-8"><title>Slack</title></head>' +
  '<body><h1>Sign in to your workspace</h1><p>You need to sign in to see this page.</p></body></html>';

/** A POST to a response_url: each one spends a use (Slack allows 5 in 30 minutes). */
export async function handleResponseUrl(
  state: WorkspaceState,
  id: string,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  let body: Record<string, unknown> = {};
  try {
    body = await parseApiArgs(req.headers['content-type'], await readBody(req), new URLSearchParams());
  } catch {
    // an unreadable body is answered below like an empty one
  }
  const post = deliverResponse(state, id, body, { spend: true });
  sendJson(res, post.status, post.error ? { ok: false, error: post.error } : { ok: true });
}

/**
 * Applies a message to what a response_url points at and journals it. Slash-command ack bodies come through here
 * too, without spending a use, since Slack treats them as a free first response.
 */
export function deliverResponse(
  state: WorkspaceState,
  id: string,
  body: Record<string, unknown>,
  options: { spend: boolean },
): ResponseUrlPost {
  const target = options.spend ? state.responseUrls.spend(id) : (state.responseUrls.get(id) ?? 'expired_url');
  let post: ResponseUrlPost;
  if (typeof target === 'string') {
    post = { responseUrlId: id, body, status: 404, error: target, at: state.clock() };
  } else {
    try {
      applyResponseMessage(state, target, body);
      post = { responseUrlId: id, body, status: 200, at: state.clock() };
    } catch (error) {
      if (!(error instanceof SlackApiError)) throw error;
      post = { responseUrlId: id, body, status: 400, error: error.error, at: state.clock() };
    }
  }
  state.journal.record('response', post);
  return post;
}
