import { MAX_TABLE_FILE_BYTES } from '../sms/table-file.js';

const DOWNLOAD_TIMEOUT_MS = 20_000;

/** A download that failed, with a message for the person who uploaded the file. */
export class FileDownloadError extends Error {
  override name = 'FileDownloadError';
}

/**
 * The bytes of a file uploaded to Slack: `url_private_download` (or `url_private`) with the bot token as
 * Bearer, as Slack documents. At most 10 MB (a file_input's limit) and 20 seconds; the token never
 * appears in what is thrown.
 */
export async function downloadSlackFile(
  file: { name: string; size?: number; url_private?: string; url_private_download?: string },
  token: string | undefined,
): Promise<Uint8Array> {
  const url = file.url_private_download ?? file.url_private;
  if (!url) throw new FileDownloadError(`Slack gave no link to “${file.name}”: upload it again.`);
  if (file.size !== undefined && file.size > MAX_TABLE_FILE_BYTES) {
    throw new FileDownloadError(`“${file.name}” is larger than 10 MB, the most a file here may be.`);
  }
  let response: Response;
  const get = () =>
    fetch(url, {
      headers: token ? { authorization: `Bearer ${token}` } : {},
      redirect: 'follow',
      signal: AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS),
    });
  try {
    // A GET changes nothing: one more try when a kept-alive connection was closed under it (ECONNRESET).
    response = await get().catch((error: unknown) => {
      if (error instanceof Error && error.name === 'TimeoutError') throw error;
      return get();
    });
  } catch (error) {
    const timedOut = error instanceof Error && error.name === 'TimeoutError';
    throw new FileDownloadError(
      timedOut
        ? `Downloading “${file.name}” from Slack took longer than ${DOWNLOAD_TIMEOUT_MS / 1000} seconds. Try again.`
        : `“${file.name}” could not be downloaded from Slack. Try again.`,
    );
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new FileDownloadError(
      `Slack refused the download of “${file.name}” (HTTP ${response.status}). Upload it again${response.status === 401 || response.status === 403 ? '; if it persists, the app may lack the files:read scope' : ''}.`,
    );
  }
  // Read with a cap, so a wrong size in the file object cannot fill the memory.
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = response.body?.getReader();
  if (!reader) return new Uint8Array();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > MAX_TABLE_FILE_BYTES) {
      await reader.cancel();
      throw new FileDownloadError(`“${file.name}” is larger than 10 MB, the most a file here may be.`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}
