import { extname } from 'node:path';
import { SlackApiError } from '../web-api/api-error.js';
import type { Clock } from './clock.js';
import type { IdFactory } from './ids.js';
import type { Journal } from './journal.js';
import type { StoredFile, WorkspaceEventMap } from './model.js';

const MIME_BY_EXTENSION: Record<string, string> = {
  '.csv': 'text/csv',
  '.txt': 'text/plain',
  '.json': 'application/json',
  '.pdf': 'application/pdf',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.html': 'text/html',
  '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

export interface Reservation {
  filename: string;
  length: number;
  altText?: string;
  uploader: string;
}

/** Files go through Slack's three steps: reserve an upload URL, send the bytes there, then complete (and share). */
export class FileStore {
  readonly #files = new Map<string, StoredFile>();
  readonly #ids: IdFactory;
  readonly #clock: Clock;
  readonly #journal: Journal<WorkspaceEventMap>;

  constructor(ids: IdFactory, clock: Clock, journal: Journal<WorkspaceEventMap>) {
    this.#ids = ids;
    this.#clock = clock;
    this.#journal = journal;
  }

  reserve(input: Reservation): StoredFile {
    const extension = extname(input.filename).toLowerCase();
    const file: StoredFile = {
      id: this.#ids.next('F'),
      name: input.filename,
      title: input.filename,
      mimetype: MIME_BY_EXTENSION[extension] ?? 'application/octet-stream',
      filetype: extension.slice(1) || 'binary',
      size: input.length,
      user: input.uploader,
      bytes: Buffer.alloc(0),
      createdSec: Math.floor(this.#clock() / 1000),
      channels: [],
      uploaded: false,
      completed: false,
      ...(input.altText ? { altText: input.altText } : {}),
    };
    this.#files.set(file.id, file);
    return file;
  }

  receive(id: string, bytes: Buffer): StoredFile | undefined {
    const file = this.#files.get(id);
    if (!file || file.completed) return undefined;
    file.bytes = bytes;
    file.size = bytes.length;
    file.uploaded = true;
    this.#journal.record('file', { action: 'uploaded', file: { ...file } });
    return file;
  }

  complete(id: string, title: string | undefined, channelId: string | undefined): StoredFile {
    const file = this.#files.get(id);
    if (!file?.uploaded) throw new SlackApiError('file_not_found');
    file.completed = true;
    if (title) file.title = title;
    if (channelId && !file.channels.includes(channelId)) file.channels.push(channelId);
    this.#journal.record('file', { action: 'shared', file: { ...file } });
    return file;
  }

  /** A file a person uploads in a modal's file_input: theirs, complete, and shared nowhere yet. */
  addUpload(input: { filename: string; bytes: Buffer; uploader: string }): StoredFile {
    const file = this.reserve({
      filename: input.filename,
      length: input.bytes.length,
      uploader: input.uploader,
    });
    this.receive(file.id, input.bytes);
    return this.complete(file.id, undefined, undefined);
  }

  /** Takes up saved files (only whole ones are saved: an upload cut by a restart is lost, as in Slack). */
  restore(files: StoredFile[]): void {
    this.#files.clear();
    for (const file of files) this.#files.set(file.id, file);
  }

  get(id: string): StoredFile | undefined {
    return this.#files.get(id);
  }

  all(): StoredFile[] {
    return [...this.#files.values()];
  }
}
