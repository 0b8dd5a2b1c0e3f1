import { randomBytes } from 'node:crypto';

/** Slack-looking ids (`V0000001A`): readable in test failures and stable across runs of the same scenario. */
export class IdFactory {
  readonly #counters = new Map<string, number>();

  next(prefix: string, width = 8): string {
    const n = (this.#counters.get(prefix) ?? 0) + 1;
    this.#counters.set(prefix, n);
    return `${prefix}${n.toString(36).toUpperCase().padStart(width, '0')}`;
  }
}

/** Secrets handed out in URLs (response_url, upload_url) must not be guessable from ids seen elsewhere. */
export function randomToken(bytes = 12): string {
  return randomBytes(bytes).toString('hex');
}
