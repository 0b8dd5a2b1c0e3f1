import { readFileSync, renameSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Logger } from './log.js';

/** How long after a change the file is written: a burst of changes (a campaign's cards) is one write. */
export const STATE_SAVE_DELAY_MS = 1_000;

/**
 * Reads a state file written by StateFileWriter. Absent: undefined, silently (a first start). Unreadable, cut
 * short or of the wrong shape: undefined with one warning line, the file kept aside as `<name>.unreadable` for a
 * look, so the fresh state that follows never overwrites the only copy. Never throws.
 */
export function readStateFile<T>(
  path: string,
  parse: (raw: unknown) => T,
  logger: Logger,
  fresh: string,
): T | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    logger.warn({ file: path, err: error }, `${basename(path)} cannot be read: ${fresh}`);
    return undefined;
  }
  try {
    return parse(JSON.parse(text));
  } catch (error) {
    const aside = `${path}.unreadable`;
    let kept = `kept as ${basename(aside)}`;
    try {
      renameSync(path, aside);
    } catch {
      kept = 'left as it is';
    }
    const reason = error instanceof SyntaxError ? 'not whole JSON (cut short?)' : reasonOf(error);
    logger.warn({ file: path }, `${basename(path)} is unreadable (${reason}), ${kept}: ${fresh}`);
    return undefined;
  }
}

function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0]!.slice(0, 200);
}

export interface StateFileWriterOptions {
  path: string;
  /** The state as plain JSON, taken at write time (so a burst of changes is written once, as it ended). */
  snapshot: () => unknown;
  logger: Logger;
  delayMs?: number;
}

/**
 * Writes a JSON state file some time after a change, and at once on flush(). Each write goes to a temporary
 * file renamed over the old one, so a crash mid-write leaves the previous whole file, never half of one.
 * Writes never overlap; a failed write is logged (once until one succeeds) and tried again at the next change.
 */
export class StateFileWriter {
  readonly #options: StateFileWriterOptions;
  #timer: NodeJS.Timeout | undefined;
  #dirty = false;
  #writing: Promise<void> = Promise.resolve();
  #failing = false;

  constructor(options: StateFileWriterOptions) {
    this.#options = options;
  }

  /** Something changed: written within delayMs. */
  changed(): void {
    this.#dirty = true;
    if (this.#timer) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.#write();
    }, this.#options.delayMs ?? STATE_SAVE_DELAY_MS);
    // A pending write never keeps a process alive: stopping flushes.
    this.#timer.unref();
  }

  /** Writes what changed now, after any write under way. */
  async flush(): Promise<void> {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#write();
  }

  #write(): Promise<void> {
    this.#writing = this.#writing.then(async () => {
      if (!this.#dirty) return;
      this.#dirty = false;
      const { path, logger } = this.#options;
      const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
      try {
        const text = JSON.stringify(this.#options.snapshot());
        await mkdir(dirname(path), { recursive: true });
        await writeFile(temporary, text);
        await rename(temporary, path);
        this.#failing = false;
      } catch (error) {
        this.#dirty = true;
        if (!this.#failing) logger.warn({ file: path, err: error }, `${basename(path)} could not be saved`);
        this.#failing = true;
      }
    });
    return this.#writing;
  }
}
