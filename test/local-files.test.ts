import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type WebAPIPlatformError, WebClient } from '@slack/web-api';
import { describe, expect, it } from 'vitest';
import type { Bot } from '../src/bot.js';
import { SEEDED } from '../workspace/index.js';
import { useLocalDataDirs } from './support/local-data-dir.js';

const { users, channels } = SEEDED;
const { dataDir, startLocal, stop } = useLocalDataDirs('smsops-local-files-');

/** A saved workspace of a few messages is a few KB; one that kept the uploads' bytes would be megabytes. */
const SMALL_STATE_BYTES = 64 * 1024;

function botClient(bot: Bot): WebClient {
  return new WebClient(bot.workspace!.botToken, {
    slackApiUrl: bot.workspace!.apiUrl,
    retryConfig: { retries: 0 },
  });
}

/** A recipients list of about `size` bytes, each line different (so no part of it repeats another). */
function recipientsCsv(size: number): Buffer {
  const lines = ['Telefon,Ad'];
  for (let i = 0, length = 0; length < size; i++) {
    const line = `0532${String(i).padStart(7, '0')},Kişi ${i}`;
    lines.push(line);
    length += line.length + 1;
  }
  return Buffer.from(lines.join('\n'));
}

/** A person picks a file in a modal on the page: POST /_ws/upload, as the browser sends it. */
async function uploadOnPage(bot: Bot, name: string, bytes: Buffer): Promise<string> {
  const res = await fetch(`${bot.http.url}/_ws/upload`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: bot.http.url },
    body: JSON.stringify({ user: users.admin, name, base64: bytes.toString('base64') }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { id: string }).id;
}

/** What the bot gets when it reads a file: files.info, then url_private_download with its token. */
async function downloadAsBot(bot: Bot, fileId: string): Promise<Buffer> {
  const { file } = await botClient(bot).files.info({ file: fileId });
  const res = await fetch(file!.url_private_download!, {
    headers: { authorization: `Bearer ${bot.workspace!.botToken}` },
  });
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

async function slackError(call: Promise<unknown>): Promise<string> {
  const error = (await call.then(
    () => undefined,
    (e: unknown) => e,
  )) as WebAPIPlatformError | undefined;
  return error?.data?.error ?? 'no error';
}

describe('local mode keeps uploaded files beside workspace.json, not in it', () => {
  it('after uploads and a restart, workspace.json stays small and each file still downloads with the bot token', async () => {
    const dir = dataDir();
    const picked = recipientsCsv(3_000_000);
    const shared = recipientsCsv(700_000);

    const first = await startLocal(dir);
    const pickedId = await uploadOnPage(first, 'alicilar.csv', picked);
    // The bot's own upload (as a report is shared): getUploadURLExternal, the bytes, completeUploadExternal.
    const upload = await botClient(first).filesUploadV2({
      channel_id: channels.smsOps,
      file: shared,
      filename: 'rapor.csv',
    });
    const sharedId = (upload.files[0] as { files?: { id?: string }[] }).files![0]!.id!;
    await stop(first);

    const saved = readFileSync(join(dir, 'workspace.json'), 'utf8');
    expect(statSync(join(dir, 'workspace.json')).size).toBeLessThan(SMALL_STATE_BYTES);
    expect(JSON.parse(saved).files.map((f: { id: string }) => f.id)).toEqual(
      expect.arrayContaining([pickedId, sharedId]),
    );
    expect(readdirSync(join(dir, 'workspace-files')).sort()).toEqual([pickedId, sharedId].sort());

    const second = await startLocal(dir);
    expect((await downloadAsBot(second, pickedId)).equals(picked)).toBe(true);
    expect((await downloadAsBot(second, sharedId)).equals(shared)).toBe(true);
    // The page shows it too (its own route, without the token).
    const onPage = await fetch(`${second.http.url}/_ws/files/${pickedId}`);
    expect(Buffer.from(await onPage.arrayBuffer()).equals(picked)).toBe(true);

    // Later saves (a message, a stop) leave the bytes as written and workspace.json small.
    const bytesPath = join(dir, 'workspace-files', pickedId);
    const writtenAt = statSync(bytesPath).mtimeMs;
    await botClient(second).chat.postMessage({ channel: channels.general, text: 'After the restart' });
    await stop(second);
    expect(statSync(join(dir, 'workspace.json')).size).toBeLessThan(SMALL_STATE_BYTES);
    expect(readFileSync(join(dir, 'workspace.json'), 'utf8')).toContain('After the restart');
    expect(statSync(bytesPath).mtimeMs).toBe(writtenAt);
  }, 30_000);

  it('a file whose bytes were deleted answers file_not_found after a restart, with one warning line', async () => {
    const dir = dataDir();
    const first = await startLocal(dir);
    const goneId = await uploadOnPage(first, 'silinen.csv', recipientsCsv(100_000));
    const kept = recipientsCsv(50_000);
    const keptId = await uploadOnPage(first, 'kalan.csv', kept);
    const { file } = await botClient(first).files.info({ file: goneId });
    const oldUrl = new URL(file!.url_private_download!);
    await stop(first);
    const gonePath = join(dir, 'workspace-files', goneId);
    expect(existsSync(gonePath)).toBe(true);
    rmSync(gonePath);

    const second = await startLocal(dir);
    expect(await slackError(botClient(second).files.info({ file: goneId }))).toBe('file_not_found');
    const download = await fetch(`${second.http.url}${oldUrl.pathname}`, {
      headers: { authorization: `Bearer ${second.workspace!.botToken}` },
    });
    expect(download.status).toBe(404);
    expect(await download.json()).toEqual({ ok: false, error: 'file_not_found' });
    const warnings = second.logLines.filter((l) => l.level === 'warn' && l.msg.includes('file_not_found'));
    expect(warnings.map((l) => l.msg)).toEqual([expect.stringContaining(goneId)]);
    // The others are untouched.
    expect((await downloadAsBot(second, keptId)).equals(kept)).toBe(true);
  }, 30_000);

  it('a workspace.json that still holds its files inline (saved by an earlier version) is taken up and slimmed', async () => {
    const dir = dataDir();
    const first = await startLocal(dir);
    const bytes = recipientsCsv(500_000);
    const id = await uploadOnPage(first, 'eski.csv', bytes);
    await stop(first);
    // As the earlier version saved it: the bytes in base64 inside the file's entry, no folder beside it.
    const path = join(dir, 'workspace.json');
    const saved = JSON.parse(readFileSync(path, 'utf8'));
    for (const file of saved.files) if (file.id === id) file.bytes = bytes.toString('base64');
    writeFileSync(path, JSON.stringify(saved));
    rmSync(join(dir, 'workspace-files'), { recursive: true, force: true });

    const second = await startLocal(dir);
    expect((await downloadAsBot(second, id)).equals(bytes)).toBe(true);
    await stop(second);
    expect(statSync(path).size).toBeLessThan(SMALL_STATE_BYTES);
    expect(readFileSync(join(dir, 'workspace-files', id)).equals(bytes)).toBe(true);

    const third = await startLocal(dir);
    expect((await downloadAsBot(third, id)).equals(bytes)).toBe(true);
  }, 30_000);
});
