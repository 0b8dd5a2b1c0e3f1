import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Ids as IdFactory makes them; a hand-edited workspace.json naming `../x` never reaches outside the folder. */
const FILE_ID = /^F[0-9A-Z]+$/;

export interface FileBytesFolderOptions {
  dir: string;
  /** A file's bytes are whole on disk (workspace.json may name it now). */
  onStored: (id: string) => void;
  /** They could not be written (the file is then not kept across a restart). */
  onFailed: (id: string, error: unknown) => void;
}

/**
 * The uploaded files' bytes, one file each, named by the file's id. Kept out of workspace.json so that a large
 * upload is written once, not again with every save of the workspace (each message, each card update).
 */
export class FileBytesFolder {
  readonly #options: FileBytesFolderOptions;
  readonly #stored = new Set<string>();
  readonly #writing = new Map<string, Promise<void>>();

  constructor(options: FileBytesFolderOptions) {
    this.#options = options;
  }

  get dir(): string {
    return this.#options.dir;
  }

  /** At start: the bytes of a file workspace.json names, or undefined when they are missing or unreadable. */
  read(id: string): Buffer | undefined {
    if (!FILE_ID.test(id)) return undefined;
    try {
      const bytes = readFileSync(join(this.dir, id));
      this.#stored.add(id);
      return bytes;
    } catch {
      return undefined;
    }
  }

  /** Only files whose bytes are whole on disk may be named in workspace.json. */
  isStored(id: string): boolean {
    return this.#stored.has(id);
  }

  /**
   * Writes a file's bytes once, in the background, to a temporary file renamed into place: a crash never leaves
   * half of them under the file's name. Then onStored, or onFailed.
   */
  store(id: string, bytes: Buffer): void {
    if (this.#stored.has(id) || this.#writing.has(id) || !FILE_ID.test(id)) return;
    const written = this.#write(id, bytes).then(
      () => {
        this.#stored.add(id);
        this.#options.onStored(id);
      },
      (error: unknown) => this.#options.onFailed(id, error),
    );
    this.#writing.set(
      id,
      written.finally(() => this.#writing.delete(id)),
    );
  }

  async #write(id: string, bytes: Buffer): Promise<void> {
    const temporary = join(this.dir, `.${id}.${process.pid}.tmp`);
    await mkdir(this.dir, { recursive: true });
    try {
      await writeFile(temporary, bytes);
      await rename(temporary, join(this.dir, id));
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
  }

  /** Resolves when every write begun so far has ended (and its onStored or onFailed has run). */
  async settled(): Promise<void> {
    while (this.#writing.size > 0) await Promise.all(this.#writing.values());
  }

  /**
   * At start, before any write: removes what no file of the workspace owns, the bytes of files the saved workspace
   * no longer names and temporary files a crash left. Returns how many were removed.
   */
  sweep(keep: ReadonlySet<string>): number {
    let names: string[];
    try {
      names = readdirSync(this.dir);
    } catch {
      return 0;
    }
    let removed = 0;
    for (const name of names) {
      const owned = keep.has(name) || !(FILE_ID.test(name) || name.endsWith('.tmp'));
      if (owned) continue;
      rmSync(join(this.dir, name), { force: true });
      this.#stored.delete(name);
      removed += 1;
    }
    return removed;
  }
}
