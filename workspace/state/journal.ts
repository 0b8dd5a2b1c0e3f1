import { EventEmitter } from 'node:events';
import type { Clock } from './clock.js';

export interface JournalEntry<M, K extends keyof M = keyof M> {
  seq: number;
  at: number;
  kind: K;
  value: M[K];
}

export interface WaitOptions {
  /** Give up after this long; the rejection lists what was seen instead. Default 5000. */
  timeoutMs?: number;
  /** Only entries recorded after this sequence number (see `Journal.seq`), to wait for the *next* match. */
  after?: number;
}

const DEFAULT_WAIT_MS = 5000;

/**
 * An append-only log of workspace events with an emitter on top. Waiting first scans what already happened, so a
 * test never races the bot: whether the call landed before or after `waitFor` was called, it resolves.
 */
export class Journal<M extends object> {
  readonly #entries: JournalEntry<M>[] = [];
  readonly #emitter = new EventEmitter();
  readonly #clock: Clock;
  #seq = 0;

  constructor(clock: Clock) {
    this.#clock = clock;
    this.#emitter.setMaxListeners(0);
  }

  /** The sequence number of the latest entry; pass it as `after` to wait only for what comes next. */
  get seq(): number {
    return this.#seq;
  }

  record<K extends keyof M>(kind: K, value: M[K]): JournalEntry<M, K> {
    this.#seq += 1;
    const entry: JournalEntry<M, K> = { seq: this.#seq, at: this.#clock(), kind, value };
    this.#entries.push(entry as JournalEntry<M>);
    this.#emitter.emit('entry', entry);
    return entry;
  }

  entries<K extends keyof M>(kind: K): JournalEntry<M, K>[] {
    return this.#entries.filter((e): e is JournalEntry<M, K> => e.kind === kind);
  }

  values<K extends keyof M>(kind: K): M[K][] {
    return this.entries(kind).map((e) => e.value);
  }

  /** Subscribe to new entries of one kind; returns the unsubscribe function. */
  on<K extends keyof M>(kind: K, listener: (value: M[K], entry: JournalEntry<M, K>) => void): () => void {
    const handler = (entry: JournalEntry<M>) => {
      if (entry.kind === kind) listener(entry.value as M[K], entry as JournalEntry<M, K>);
    };
    this.#emitter.on('entry', handler);
    return () => this.#emitter.off('entry', handler);
  }

  waitFor<K extends keyof M>(
    kind: K,
    predicate: (value: M[K]) => boolean = () => true,
    options: WaitOptions = {},
  ): Promise<M[K]> {
    const after = options.after ?? 0;
    const timeoutMs = options.timeoutMs ?? DEFAULT_WAIT_MS;
    const seen = this.entries(kind).find((e) => e.seq > after && predicate(e.value));
    if (seen) return Promise.resolve(seen.value);
    return new Promise<M[K]>((resolve, reject) => {
      const timer = setTimeout(() => {
        unsubscribe();
        reject(
          new Error(`waitFor('${String(kind)}') timed out after ${timeoutMs} ms; ${this.#describe(kind)}`),
        );
      }, timeoutMs);
      const unsubscribe = this.on(kind, (value, entry) => {
        if (entry.seq <= after || !predicate(value)) return;
        clearTimeout(timer);
        unsubscribe();
        resolve(value);
      });
    });
  }

  #describe(kind: keyof M): string {
    const recent = this.entries(kind).slice(-10);
    if (recent.length === 0) return `no '${String(kind)}' entries at all`;
    const summary = recent.map((e) => JSON.stringify(e.value).slice(0, 200)).join('\n  ');
    return `last ${recent.length} '${String(kind)}' entries:\n  ${summary}`;
  }
}
