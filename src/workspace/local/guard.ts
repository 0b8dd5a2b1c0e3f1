import type { IncomingMessage } from 'node:http';

/**
 * The local workspace acts as any user, admin included, and may sit in front of a real gateway: only this
 * machine may use it. Checks the peer address, the Host header (against DNS rebinding) and, for POSTs, that the
 * body is JSON from a page of this origin (a cross-site form cannot send JSON without a CORS preflight, which is
 * never granted).
 */
export type GuardVerdict = { ok: true } | { ok: false; status: number; reason: string };

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
}

function hostnameOf(host: string | undefined): string | undefined {
  if (!host) return undefined;
  try {
    return new URL(`http://${host}`).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}

export interface GuardOptions {
  /** Also answer other machines (a container's published port). Off by default. */
  allowRemote: boolean;
}

/** For the Web API and its side routes, which the bot calls from this machine. */
export function checkPeer(req: IncomingMessage, options: GuardOptions): GuardVerdict {
  if (options.allowRemote || isLoopbackAddress(req.socket.remoteAddress)) return { ok: true };
  return { ok: false, status: 403, reason: 'the local workspace only answers requests from this machine' };
}

/** For the page and its JSON endpoints, which a browser calls. */
export function checkPage(req: IncomingMessage, options: GuardOptions): GuardVerdict {
  const peer = checkPeer(req, options);
  if (!peer.ok) return peer;
  const hostname = hostnameOf(req.headers.host);
  if (!options.allowRemote && (!hostname || !LOOPBACK_HOSTS.has(hostname))) {
    return { ok: false, status: 403, reason: 'open the local workspace as http://localhost:PORT/' };
  }
  if (req.method !== 'POST') return { ok: true };
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json') return { ok: false, status: 415, reason: 'send JSON' };
  const origin = req.headers.origin;
  if (origin !== undefined && origin !== 'null') {
    const originHost = (() => {
      try {
        return new URL(origin).host.toLowerCase();
      } catch {
        return '';
      }
    })();
    if (originHost !== (req.headers.host ?? '').toLowerCase()) {
      return { ok: false, status: 403, reason: 'cross-origin requests are refused' };
    }
  }
  return { ok: true };
}
