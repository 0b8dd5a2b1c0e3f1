import type { IncomingMessage } from 'node:http';
import { crossSiteReason, foreignHostReason, isLoopbackAddress } from '../../src/http/same-site.js';

/**
 * The local workspace acts as any user, admin included, and may sit in front of a real gateway: only this
 * machine may use it, and no other site open in a browser on it. Checks the peer address, the Host header
 * (against DNS rebinding), the Origin and Sec-Fetch-Site headers (against forms posted from other sites) and,
 * for the page's POSTs, that the body is JSON (which a cross-site form cannot send without a CORS preflight,
 * never granted).
 */
export type GuardVerdict = { ok: true } | { ok: false; status: number; reason: string };

export interface GuardOptions {
  /** Also answer other machines (a container's published port). Off by default. */
  allowRemote: boolean;
}

const OK: GuardVerdict = { ok: true };

function refusal(reason: string | undefined, status = 403): GuardVerdict {
  return reason === undefined ? OK : { ok: false, status, reason };
}

function checkPeer(req: IncomingMessage, options: GuardOptions): GuardVerdict {
  if (options.allowRemote || isLoopbackAddress(req.socket.remoteAddress)) return OK;
  return refusal('the local workspace only answers requests from this machine');
}

/**
 * For the Web API and its side routes (response_url, uploads, files), which the bot calls from this machine with
 * no Origin at all. A browser's request from another site is refused even with the right token: the token is
 * random per run, and this keeps a leaked one from being usable by a web page.
 */
export function checkSlackRoute(req: IncomingMessage, options: GuardOptions): GuardVerdict {
  const peer = checkPeer(req, options);
  if (!peer.ok) return peer;
  if (!options.allowRemote) {
    const host = refusal(foreignHostReason(req));
    if (!host.ok) return host;
  }
  return refusal(crossSiteReason(req));
}

/** For the page and its JSON endpoints, which a browser calls. */
export function checkPage(req: IncomingMessage, options: GuardOptions): GuardVerdict {
  const peer = checkPeer(req, options);
  if (!peer.ok) return peer;
  if (!options.allowRemote && foreignHostReason(req) !== undefined) {
    return refusal('open the local workspace as http://localhost:PORT/');
  }
  if (req.method !== 'POST') return OK;
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json') return refusal('send JSON', 415);
  return refusal(crossSiteReason(req));
}
