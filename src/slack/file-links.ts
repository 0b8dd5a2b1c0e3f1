import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { BlockList, isIP } from 'node:net';

/** Where Slack serves uploaded files (`url_private`, `url_private_download`) to a bot token. */
export const SLACK_FILE_ORIGIN = 'https://files.slack.com';

/**
 * The origins a file link may point at for the bot token to go with it: Slack's file host, or, when the bot talks
 * to another Slack (SLACK_API_URL: the local workspace, a test's), that Slack's own origin, which every Web API
 * call already sends the token to.
 */
export function fileOriginsFor(apiUrl: string | undefined): string[] {
  if (!apiUrl) return [SLACK_FILE_ORIGIN];
  const api = new URL(apiUrl);
  return api.protocol === 'https:' && isSlackHost(api.hostname) ? [SLACK_FILE_ORIGIN] : [api.origin];
}

/**
 * Slack's own hosts, which a download may be sent on to (without the token): Slack answers a PDF's url_private
 * with a redirect to slack-files.com (reported in github.com/curie-eng/curie/pull/2718), its CDN is
 * slack-edge.com, a team's pages are on <team>.slack.com.
 */
function isSlackHost(hostname: string): boolean {
  return ['slack.com', 'slack-files.com', 'slack-edge.com'].some(
    (domain) => hostname === domain || hostname.endsWith(`.${domain}`),
  );
}

/**
 * Loopback, private, link-local and unique-local addresses (and "this network", CGNAT, multicast): nothing a file
 * from Slack is on, and what a forged link would aim at (a metadata service on 169.254.169.254, an admin port
 * on 127.0.0.1). IPv4-mapped IPv6 addresses are checked as the IPv4 address they carry.
 */
const PRIVATE = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['224.0.0.0', 3],
  // IETF protocol assignments, benchmarking and documentation networks: never a public host either.
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
] as const) {
  PRIVATE.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
  ['100::', 64],
  ['2001:db8::', 32],
] as const) {
  PRIVATE.addSubnet(network, prefix, 'ipv6');
}

export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  if (family === 4) return PRIVATE.check(address, 'ipv4');
  // An IPv6 address that carries an IPv4 one (IPv4-compatible ::a.b.c.d, NAT64 64:ff9b::/96, 6to4 2002::/16)
  // reaches that IPv4 address: it is judged as the address it carries.
  const carried = carriedIpv4(address);
  return PRIVATE.check(address, 'ipv6') || (carried !== undefined && PRIVATE.check(carried, 'ipv4'));
}

function carriedIpv4(address: string): string | undefined {
  const groups = ipv6Groups(address);
  if (!groups) return undefined;
  const ipv4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;
  const zeros = (from: number, to: number) => groups.slice(from, to).every((g) => g === 0);
  if (zeros(0, 6)) return ipv4(groups[6]!, groups[7]!);
  if (groups[0] === 0x64 && groups[1] === 0xff9b && zeros(2, 6)) return ipv4(groups[6]!, groups[7]!);
  if (groups[0] === 0x2002) return ipv4(groups[1]!, groups[2]!);
  return undefined;
}

/** The eight 16-bit groups of an IPv6 address (a dotted IPv4 tail included), or undefined. */
function ipv6Groups(address: string): number[] | undefined {
  let text = address.toLowerCase();
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((g) => Number.parseInt(g, 16)));
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  const missing = 8 - left.length - right.length;
  if (missing < 0 || (tail === undefined && missing !== 0)) return undefined;
  const groups = [...left, ...new Array<number>(missing).fill(0), ...right];
  return groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : undefined;
}

/** What may happen to one URL of a download: the first link, or where a redirect leads. */
export type FileLinkVerdict =
  /** One of the allowed origins: asked with the bot token. */
  | { kind: 'with-token' }
  /** Another of Slack's https hosts: asked without the token, and only if the name resolves to a public address. */
  | { kind: 'without-token' }
  | { kind: 'refused' };

export function judgeFileLink(url: URL, allowedOrigins: readonly string[]): FileLinkVerdict {
  if (allowedOrigins.includes(url.origin)) return { kind: 'with-token' };
  // URL already reads 2130706433, 0x7f.1 and the like as 127.0.0.1; an address is never a Slack host.
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (url.protocol !== 'https:' || url.port !== '' || isIP(host) !== 0 || !isSlackHost(host)) {
    return { kind: 'refused' };
  }
  return { kind: 'without-token' };
}

/** A redirect to Slack's sign-in page: `https://<team>.slack.com/?redir=%2Ffiles-pri%2F…`, or a /signin path. */
export function isSignInLink(url: URL): boolean {
  return url.searchParams.has('redir') || /^\/(signin|sign_in|login)(\/|$)/i.test(url.pathname);
}

/** An HTML page where a file was expected: by its content type, or by its first bytes when that says nothing. */
export function isHtmlPage(contentType: string | undefined, bytes: Uint8Array): boolean {
  if (contentType && /^\s*text\/html\b/i.test(contentType)) return true;
  const start = Buffer.from(bytes.subarray(0, 64))
    .toString('latin1')
    .replace(/^(\xEF\xBB\xBF|\s)+/, '');
  return /^<!doctype html|^<html[\s>]/i.test(start);
}

/** The code of the error a lookup gives for a name that resolves to a private address. */
export const PRIVATE_ADDRESS = 'ERR_PRIVATE_ADDRESS';

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * dns.lookup for sockets that must not reach a private address: a Slack host name that resolves to one (a
 * poisoned resolver, a hosts file) fails the connection before a byte is sent. Checked at connection time, so a
 * name cannot resolve one way when checked and another when used.
 */
export function publicAddressLookup(
  hostname: string,
  options: LookupOptions,
  callback: LookupCallback,
): void {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, []);
    const found = addresses as LookupAddress[];
    if (found.length === 0 || found.some((a) => isPrivateAddress(a.address))) {
      const refusal: NodeJS.ErrnoException = new Error(`${hostname} resolves to a private address`);
      refusal.code = PRIVATE_ADDRESS;
      return callback(refusal, []);
    }
    if (options.all) return callback(null, found);
    callback(null, found[0]!.address, found[0]!.family);
  });
}
