import { randomBytes } from 'node:crypto';

/** Slack-looking ids (`V0000001A`): readable in test failures and stable across runs of the same scenario. */
export class IdFactory {
  readonly #counters = new Map<string, number>();
  #base = 0;

  next(prefix: string, width = 8): string {
    const n = (this.#counters.get(prefix) ?? this.#base) + 1;
    this.#counters.set(prefix, n);
    return `${prefix}${n.toString(36).toUpperCase().padStart(width, '0')}`;
  }

  /** How far each prefix has counted, for a saved workspace. */
  counters(): Record<string, number> {
    return Object.fromEntries(this.#counters);
  }

  /**
   * Every prefix not counted yet starts above `base`. A workspace that lost its saved state starts above the clock's
   * milliseconds, so no view id (the bot's key for a compose send) repeats one an earlier run handed out.
   */
  startAbove(base: number): void {
    this.#base = Math.max(this.#base, Math.floor(base));
  }

  /** Counts on from saved counters: an id handed out before a restart is never handed out again. */
  restore(counters: Record<string, number>): void {
    for (const [prefix, n] of Object.entries(counters)) {
      this.#counters.set(prefix, Math.max(n, this.#counters.get(prefix) ?? 0));
    }
  }
}

/** Secrets handed out in URLs (response_url, upload_url) must not be guessable from ids seen elsewhere. */
export function randomToken(bytes = 12): string {
  return randomBytes(bytes).toString('hex');
}
