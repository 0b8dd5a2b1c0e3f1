import type { View } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import type { Logger } from '../../log.js';

/** How many views' last hashes are kept; the oldest go first (a view lives minutes, not days). */
const MAX_TRACKED_VIEWS = 500;

interface Wish {
  actionTs: number;
  payloadHash: string | undefined;
  build: () => Promise<View>;
  client: WebClient;
}

interface Tracked {
  /** The hash Slack gave our last update of this view: newer than any action payload sent before it. */
  hash?: string;
  /** The newest action seen; an older one arriving late is dropped. */
  latestActionTs: number;
  pending?: Wish;
  running: boolean;
}

/**
 * Updates of one view, one at a time, the latest wish winning. Keystrokes send an action each; updating the view
 * for each with the hash their payload carried makes the later ones fail with hash_conflict (Slack changes the hash
 * at every update), and the view can end showing an older estimate. Here a burst of actions becomes at most one
 * update in flight and one waiting, built from the newest action, sent with the hash Slack gave the last update.
 */
export class ViewUpdates {
  readonly #views = new Map<string, Tracked>();
  readonly #logger: Logger;

  constructor(logger: Logger) {
    this.#logger = logger;
  }

  /** Resolves once the view shows this wish or a newer one (or the update failed, which is logged). */
  async request(viewId: string, wish: Wish): Promise<void> {
    const tracked = this.#track(viewId);
    if (wish.actionTs < tracked.latestActionTs) return;
    tracked.latestActionTs = wish.actionTs;
    tracked.pending = wish;
    if (tracked.running) return;
    tracked.running = true;
    try {
      while (tracked.pending) {
        const next = tracked.pending;
        tracked.pending = undefined;
        await this.#send(viewId, tracked, next);
      }
    } finally {
      tracked.running = false;
    }
  }

  async #send(viewId: string, tracked: Tracked, wish: Wish): Promise<void> {
    const view = await wish.build();
    const hash = tracked.hash ?? wish.payloadHash;
    try {
      const result = await wish.client.views.update({ view_id: viewId, ...(hash ? { hash } : {}), view });
      tracked.hash = result.view?.hash ?? tracked.hash;
    } catch (error) {
      const code = (error as { data?: { error?: string } }).data?.error;
      // Someone else changed the view (a submission replaced it, another instance updated it): leave it be.
      if (code === 'hash_conflict' || code === 'not_found') {
        this.#logger.debug({ viewId, code }, 'view changed elsewhere; estimate update dropped');
        tracked.hash = undefined;
        return;
      }
      throw error;
    }
  }

  #track(viewId: string): Tracked {
    let tracked = this.#views.get(viewId);
    if (tracked) {
      // Map order is insertion order: refresh it, so pruning drops the views left alone longest.
      this.#views.delete(viewId);
    } else {
      tracked = { latestActionTs: 0, running: false };
    }
    this.#views.set(viewId, tracked);
    if (this.#views.size > MAX_TRACKED_VIEWS) {
      const oldest = this.#views.keys().next().value;
      if (oldest !== undefined && !this.#views.get(oldest)?.running) this.#views.delete(oldest);
    }
    return tracked;
  }
}
