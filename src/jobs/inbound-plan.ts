/**
 * Turns one channel's waiting messages into posts. Slack takes about one post per second per channel,
 * so a burst cannot get a post per message: messages are grouped, and the grouping gives way to speed
 * only as far as the backlog needs.
 */

export interface PlanEntry<T> {
  msisdn: string;
  /** The number's conversation thread in this channel, when it has a live one. */
  threadTs?: string;
  /** In the poster's units (see InboundPoster.size). */
  size: number;
  value: T;
}

export type PlannedThread =
  | { kind: 'existing'; ts: string }
  /** A new top-level post, which starts the thread of every number in it. */
  | { kind: 'new' }
  /** A reply in the thread started by an earlier post of this plan (by index). */
  | { kind: 'follow'; post: number };

export interface PlannedPost<T> {
  thread: PlannedThread;
  entries: PlanEntry<T>[];
  /** More than one number in the post. */
  shared: boolean;
}

export interface PlanLimits {
  maxItems: number;
  maxSize: number;
  /** Posts this channel can take within the latency we aim for. */
  budget: number;
}

interface Group<T> {
  entries: PlanEntry<T>[];
  threadTs?: string;
  first: number;
}

/** Splits entries, in order, into runs that each fit one post. */
function chunk<T>(entries: readonly PlanEntry<T>[], limits: PlanLimits): PlanEntry<T>[][] {
  const chunks: PlanEntry<T>[][] = [];
  let current: PlanEntry<T>[] = [];
  let size = 0;
  for (const entry of entries) {
    if (current.length > 0 && (current.length >= limits.maxItems || size + entry.size > limits.maxSize)) {
      chunks.push(current);
      current = [];
      size = 0;
    }
    current.push(entry);
    size += entry.size;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

const numbersIn = <T>(entries: readonly PlanEntry<T>[]) => new Set(entries.map((e) => e.msisdn)).size;

/**
 * Conversations (one per thread, or per number without a live thread) each get posts of their own
 * while the whole backlog fits the budget. Beyond it, numbers without a thread are packed together
 * into shared posts first, then as few existing threads as needed (the latest ones) join them; a number
 * always stays within one post's thread, the shared post becoming its thread when it had none.
 */
export function planPosts<T>(entries: readonly PlanEntry<T>[], limits: PlanLimits): PlannedPost<T>[] {
  const byConversation = new Map<string, Group<T>>();
  entries.forEach((entry, i) => {
    const key = entry.threadTs ? `t:${entry.threadTs}` : `n:${entry.msisdn}`;
    const group = byConversation.get(key) ?? { entries: [], threadTs: entry.threadTs, first: i };
    group.entries.push(entry);
    byConversation.set(key, group);
  });
  const groups = [...byConversation.values()];
  const costOf = (g: Group<T>) => chunk(g.entries, limits).length;
  const own = groups.reduce((n, g) => n + costOf(g), 0);
  const existing = groups.filter((g) => g.threadTs !== undefined);
  const fresh = groups.filter((g) => g.threadTs === undefined);

  let kept: Group<T>[] = groups;
  if (own > limits.budget) {
    // Keep the earliest existing threads whole while the pool of everything else still fits.
    const pooledCost = (rest: Group<T>[]) =>
      chunk(
        rest.sort((a, b) => a.first - b.first).flatMap((g) => g.entries),
        limits,
      ).length;
    let keep = existing.length;
    while (
      keep > 0 &&
      existing.slice(0, keep).reduce((n, g) => n + costOf(g), 0) +
        pooledCost([...fresh, ...existing.slice(keep)]) >
        limits.budget
    ) {
      keep--;
    }
    kept = existing.slice(0, keep);
  }

  const keptSet = new Set(kept);
  const posts: Array<PlannedPost<T> & { first: number }> = [];
  for (const group of kept) {
    const chunks = chunk(group.entries, limits);
    const start = posts.length;
    chunks.forEach((entries, i) => {
      const thread: PlannedThread = group.threadTs
        ? { kind: 'existing', ts: group.threadTs }
        : i === 0
          ? { kind: 'new' }
          : { kind: 'follow', post: start };
      posts.push({ thread, entries, shared: false, first: group.first + i / chunks.length });
    });
  }
  const pool = groups
    .filter((g) => !keptSet.has(g))
    .sort((a, b) => a.first - b.first)
    .flatMap((g) => g.entries.map((entry) => ({ entry, first: g.first })));
  for (const entries of chunk(
    pool.map((p) => p.entry),
    limits,
  )) {
    const first = pool.find((p) => p.entry === entries[0])!.first;
    posts.push({ thread: { kind: 'new' }, entries, shared: numbersIn(entries) > 1, first });
  }

  // Posts go out in the order their first message arrived; 'follow' indexes are remapped to match.
  const order = posts.map((p, i) => ({ p, i })).sort((a, b) => a.p.first - b.p.first || a.i - b.i);
  const newIndex = new Map(order.map(({ i }, at) => [i, at]));
  return order.map(({ p }) => ({
    thread: p.thread.kind === 'follow' ? { kind: 'follow', post: newIndex.get(p.thread.post)! } : p.thread,
    entries: p.entries,
    shared: p.shared,
  }));
}
