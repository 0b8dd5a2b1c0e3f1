import type { IncomingMessage } from 'node:http';

/**
 * Checks for servers meant for this machine alone (the local workspace, the gateway simulator). A browser on
 * this machine can reach them too, from any site it opens: a form posted from another origin, or a page whose
 * host name was rebound to 127.0.0.1 (DNS rebinding). Programs (the bot, curl, tests) send neither an Origin
 * nor Sec-Fetch-Site and name a loopback host, so they pass.
 */

const LOOPBACK_HOSTNAMES = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
}

function parseHost(host: string | undefined): { hostname: string; port: number } | undefined {
  if (!host) return undefined;
  try {
    const url = new URL(`http://${host}`);
    return { hostname: url.hostname.toLowerCase(), port: Number(url.port || 80) };
  } catch {
    return undefined;
  }
}

/** Why a request comes from another site, or undefined when it does not (same origin, or no browser at all). */
export function crossSiteReason(req: IncomingMessage): string | undefined {
  // Sent by every current browser: `none` is an address typed or bookmarked, `same-origin` a page of ours.
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') {
    return `cross-site requests are refused (Sec-Fetch-Site: ${site})`;
  }
  const origin = req.headers.origin;
  if (origin === undefined) return undefined;
  // `null` is what a sandboxed frame or a file:// page sends: another site as far as we can tell.
  let originHost: string | undefined;
  try {
    originHost = origin === 'null' ? undefined : new URL(origin).host.toLowerCase();
  } catch {
    originHost = undefined;
  }
  if (originHost === undefined || originHost !== (req.headers.host ?? '').toLowerCase()) {
    return 'cross-origin requests are refused';
  }
  return undefined;
}

/**
 * Why the Host header is not this machine at the port the request came in on, or undefined when it is. A page
 * of a rebound name (evil.example → 127.0.0.1) still says `Host: evil.example`.
 */
export function foreignHostReason(req: IncomingMessage): string | undefined {
  const host = parseHost(req.headers.host);
  if (host && LOOPBACK_HOSTNAMES.has(host.hostname) && host.port === req.socket.localPort) return undefined;
  return `only http://localhost:${req.socket.localPort}/ is served here`;
}
