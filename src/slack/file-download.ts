import { Agent, type Dispatcher, interceptors, request } from 'undici';
import { MAX_TABLE_FILE_BYTES } from '../tables/table-file.js';

const DOWNLOAD_TIMEOUT_MS = 20_000;
// As many as fetch follows.
const MAX_REDIRECTIONS = 20;

/** A download that failed, with a message for the person who uploaded the file. */
export class FileDownloadError extends Error {
  override name = 'FileDownloadError';
}

let downloads: Dispatcher | undefined;

/**
 * undici's request on an Agent of its own, not fetch: a 3 MB file arrives in half the time (measured over
 * loopback, 2026-11-27: ~5 against ~11 ms; fetch hands every chunk through a web stream). Redirects are
 * followed as fetch follows them, and undici's redirect interceptor drops the Authorization header when one
 * leads to another origin, so the token goes nowhere but Slack.
 */
function dispatcher(): Dispatcher {
  downloads ??= new Agent().compose(interceptors.redirect({ maxRedirections: MAX_REDIRECTIONS }));
  return downloads;
}

export interface DownloadOptions {
  /** How long the whole download may take; 20 seconds unless a test says less. */
  timeoutMs?: number;
}

/**
 * The bytes of a file uploaded to Slack: `url_private_download` (or `url_private`) with the bot token as
 * Bearer, as Slack documents. At most 10 MB (a file_input's limit) and 20 seconds; the token never
 * appears in what is thrown.
 */
export async function downloadSlackFile(
  file: { name: string; size?: number; url_private?: string; url_private_download?: string },
  token: string | undefined,
  options: DownloadOptions = {},
): Promise<Uint8Array> {
  const url = file.url_private_download ?? file.url_private;
  if (!url) throw new FileDownloadError(`Slack gave no link to “${file.name}”: upload it again.`);
  if (file.size !== undefined && file.size > MAX_TABLE_FILE_BYTES) {
    throw new FileDownloadError(`“${file.name}” is larger than 10 MB, the most a file here may be.`);
  }
  const timeoutMs = options.timeoutMs ?? DOWNLOAD_TIMEOUT_MS;
  const signal = AbortSignal.timeout(timeoutMs);
  const failed = (error: unknown) =>
    new FileDownloadError(
      signal.aborted
        ? `Downloading “${file.name}” from Slack took longer than ${formatSeconds(timeoutMs)}. Try again.`
        : `“${file.name}” could not be downloaded from Slack. Try again.`,
      { cause: error },
    );
  const get = () =>
    request(url, {
      dispatcher: dispatcher(),
      headers: token ? { authorization: `Bearer ${token}` } : {},
      signal,
    });
  let response: Dispatcher.ResponseData;
  try {
    // A GET changes nothing: one more try when a kept-alive connection was closed under it (ECONNRESET).
    response = await get().catch((error: unknown) => {
      if (signal.aborted) throw error;
      return get();
    });
  } catch (error) {
    throw failed(error);
  }
  if (response.statusCode < 200 || response.statusCode >= 300) {
    // The refusal's body is not read (it may echo the token); dump discards it and frees the connection.
    await response.body.dump().catch(() => undefined);
    const status = response.statusCode;
    if (status >= 300 && status < 400) {
      throw new FileDownloadError(
        `Slack sent the download of “${file.name}” on through too many redirects (HTTP ${status}). Upload it again.`,
      );
    }
    throw new FileDownloadError(
      `Slack refused the download of “${file.name}” (HTTP ${status}). Upload it again${status === 401 || status === 403 ? '; if it persists, the app may lack the files:read scope' : ''}.`,
    );
  }
  // Read with a cap, so a wrong size in the file object cannot fill the memory.
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of response.body as AsyncIterable<Buffer>) {
      total += chunk.byteLength;
      // Leaving the loop by a throw destroys the body.
      if (total > MAX_TABLE_FILE_BYTES) {
        throw new FileDownloadError(`“${file.name}” is larger than 10 MB, the most a file here may be.`);
      }
      chunks.push(chunk);
    }
  } catch (error) {
    if (error instanceof FileDownloadError) throw error;
    throw failed(error);
  }
  return Buffer.concat(chunks, total);
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} seconds` : `${(ms / 1000).toFixed(1)} seconds`;
}
