import type { FilesGetUploadURLExternalArguments, WebClient } from '@slack/web-api';

export interface FileToShare {
  bytes: Uint8Array;
  filename: string;
  title: string;
  /** What a screen reader says for an image. */
  altText: string;
  channelId: string;
  threadTs?: string;
}

/**
 * Shares a file the way Slack documents it: files.getUploadURLExternal, the bytes to the upload URL, then
 * files.completeUploadExternal. WebClient.filesUploadV2 does the same but sends the alternative text as `alt_text`,
 * while Slack's argument is `alt_txt` (docs.slack.dev/reference/methods/files.getUploadURLExternal), so the text
 * never reached screen readers.
 */
export async function shareFile(client: WebClient, file: FileToShare): Promise<void> {
  const reserved = await client.files.getUploadURLExternal({
    filename: file.filename,
    length: file.bytes.length,
    alt_txt: file.altText,
  } as FilesGetUploadURLExternalArguments);
  if (!reserved.upload_url || !reserved.file_id) throw new Error('Slack gave no upload URL');
  const sent = await fetch(reserved.upload_url, {
    method: 'POST',
    headers: { 'content-type': 'application/octet-stream' },
    body: file.bytes,
    signal: AbortSignal.timeout(30_000),
  });
  await sent.arrayBuffer();
  if (!sent.ok) throw new Error(`the file upload answered HTTP ${sent.status}`);
  await client.files.completeUploadExternal({
    files: [{ id: reserved.file_id, title: file.title }],
    channel_id: file.channelId,
    ...(file.threadTs ? { thread_ts: file.threadTs } : {}),
  });
}
