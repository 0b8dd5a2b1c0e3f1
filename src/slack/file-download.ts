import { Agent, type Dispatcher, request } from 'undici';
import { MAX_TABLE_FILE_BYTES } from '../tables/table-file.js';
import {
  fileOriginsFor,
  isHtmlPage,
  isSignInLink,
  judgeFileLink,
  PRIVATE_ADDRESS,
  publicAddressLookup,
  SLACK_FILE_ORIGIN,
} from './file-links.js';

const DOWNLOAD_TIMEOUT_MS = 20_000;
// As many as fetch follows.
const MAX_REDIRECTIONS = 20;

/** A download that failed, with a message for the person who uploaded the file. */
export class FileDownloadError extends Error {
  override name = 'FileDownloadError';
}

let toNamedOrigin: Dispatcher | undefined;
let toPublicAddresses: Dispatcher | undefined;

/**
 * undici's request on Agents of its own, not fetch: a 3 MB file arrives in half the time (measured over loopback,
 * 2026-11-27: ~5 against ~11 ms; fetch hands every chunk through a web stream). Redirects are followed here, one
 * at a time, so each one is judged before anything is sent to it. Slack's hosts are reached at public addresses
 * only; the origin of another Slack the operator named (SLACK_API_URL: the local workspace on loopback) as named.
 */
function dispatcherFor(url: URL): Dispatcher {
  const slacks = url.origin === SLACK_FILE_ORIGIN || judgeFileLink(url, []).kind === 'without-token';
  if (!slacks) {
    toNamedOrigin ??= new Agent();
    return toNamedOrigin;
  }
  toPublicAddresses ??= new Agent({ connect: { lookup: publicAddressLookup } });
  return toPublicAddresses;
}

/** What the bot reaches Slack with: its Web API client satisfies it. */
export interface SlackFileAccess {
  /** The bot token, sent as Bearer to the allowed origins only. */
  token?: string;
  /**
   * The Web API base the bot talks to (SLACK_API_URL, or the local workspace's): it decides where the token may
   * go (fileOriginsFor): Slack's file host, or that other Slack's own origin.
   */
  slackApiUrl: string;
}

export interface DownloadOptions {
  /** How long the whole download may take; 20 seconds unless a test says less. */
  timeoutMs?: number;
}

type SlackFileLinks = { name: string; size?: number; url_private?: string; url_private_download?: string };

/**
 * The bytes of a file uploaded to Slack: `url_private_download` (or `url_private`) with the bot token as
 * Bearer, as Slack documents. At most 10 MB (a file_input's limit) and 20 seconds; the token never
 * appears in what is thrown. The token goes to the allowed origins only; a redirect may lead on to another of
 * Slack's https hosts, without it. Slack's sign-in page, which it answers with when the app lacks files:read,
 * is reported as such and never returned as the file.
 */
export async function downloadSlackFile(
  file: SlackFileLinks,
  access: SlackFileAccess,
  options: DownloadOptions = {},
): Promise<Uint8Array> {
  const { token } = access;
  const allowedOrigins = fileOriginsFor(access.slackApiUrl);
  const link = file.url_private_download ?? file.url_private;
  if (!link) throw new FileDownloadError(`Slack gave no link to “${file.name}”: upload it again.`);
  const first = URL.canParse(link) ? new URL(link) : undefined;
  if (!first || judgeFileLink(first, allowedOrigins).kind !== 'with-token') {
    throw new FileDownloadError(`The link to “${file.name}” is not Slack’s: upload it again.`);
  }
  if (file.size !== undefined && file.size > MAX_TABLE_FILE_BYTES) {
    throw new FileDownloadError(`“${file.name}” is larger than 10 MB, the most a file here may be.`);
  }
  const timeoutMs = options.timeoutMs ?? DOWNLOAD_TIMEOUT_MS;
  const signal = AbortSignal.timeout(timeoutMs);
  const failed = (error: unknown) =>
    new FileDownloadError(
      signal.aborted
        ? `Downloading “${file.name}” from Slack took longer than ${formatSeconds(timeoutMs)}. Try again.`
        : isPrivateAddressRefusal(error)
          ? `Slack sent the download of “${file.name}” on to a private address: nothing was fetched from there. Upload it again.`
          : `“${file.name}” could not be downloaded from Slack. Try again.`,
      { cause: error },
    );
  const signInPage = () =>
    new FileDownloadError(
      `Slack answered with its sign-in page instead of the file “${file.name}”: the app needs the files:read scope (reinstall it after adding the scope).`,
    );

  let url: URL = first;
  let kind: 'with-token' | 'without-token' = 'with-token';
  for (let redirects = 0; ; redirects++) {
    const target = url;
    const get = () =>
      request(target, {
        dispatcher: dispatcherFor(target),
        headers: kind === 'with-token' && token ? { authorization: `Bearer ${token}` } : {},
        signal,
      });
    let response: Dispatcher.ResponseData;
    try {
      // A GET changes nothing: one more try when a kept-alive connection was closed under it (ECONNRESET).
      response = await get().catch((error: unknown) => {
        if (signal.aborted || isPrivateAddressRefusal(error)) throw error;
        return get();
      });
    } catch (error) {
      throw failed(error);
    }
    const status = response.statusCode;
    if (status >= 200 && status < 300) {
      const bytes = await readCapped(response, file.name, failed);
      if (isHtmlPage(headerOf(response, 'content-type'), bytes)) throw signInPage();
      return bytes;
    }
    // A refusal's or a redirect's body is not read (it may echo the token); dump discards it and frees the
    // connection.
    await response.body.dump().catch(() => undefined);
    const location = headerOf(response, 'location');
    if (status < 300 || status >= 400 || !location) {
      throw new FileDownloadError(
        `Slack refused the download of “${file.name}” (HTTP ${status}). Upload it again${status === 401 || status === 403 ? '; if it persists, the app may lack the files:read scope' : ''}.`,
      );
    }
    const next: URL | undefined = URL.canParse(location, target.href) ? new URL(location, target) : undefined;
    if (next && isSignInLink(next)) throw signInPage();
    if (redirects >= MAX_REDIRECTIONS) {
      throw new FileDownloadError(
        `Slack sent the download of “${file.name}” on through too many redirects (HTTP ${status}). Upload it again.`,
      );
    }
    const verdict = next ? judgeFileLink(next, allowedOrigins).kind : 'refused';
    if (!next || verdict === 'refused') {
      throw new FileDownloadError(
        `Slack sent the download of “${file.name}” on to a place that is not Slack’s: nothing was fetched from there. Upload it again.`,
      );
    }
    url = next;
    kind = verdict;
  }
}

/** The body, read with a cap so that a wrong size in the file object cannot fill the memory. */
async function readCapped(
  response: Dispatcher.ResponseData,
  name: string,
  failed: (error: unknown) => FileDownloadError,
): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of response.body as AsyncIterable<Buffer>) {
      total += chunk.byteLength;
      // Leaving the loop by a throw destroys the body.
      if (total > MAX_TABLE_FILE_BYTES) {
        throw new FileDownloadError(`“${name}” is larger than 10 MB, the most a file here may be.`);
      }
      chunks.push(chunk);
    }
  } catch (error) {
    if (error instanceof FileDownloadError) throw error;
    throw failed(error);
  }
  return Buffer.concat(chunks, total);
}

function headerOf(response: Dispatcher.ResponseData, name: string): string | undefined {
  const value = response.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function isPrivateAddressRefusal(error: unknown): boolean {
  for (let e = error; e instanceof Error; e = e.cause) {
    if ((e as NodeJS.ErrnoException).code === PRIVATE_ADDRESS) return true;
  }
  return false;
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} seconds` : `${(ms / 1000).toFixed(1)} seconds`;
}
