import type { InboundRepo } from '../store/index.js';

/**
 * A message is delivered once per channel it is routed to, and each delivery is claimed on its own, so
 * a post that fails in one channel never repeats a post that worked in another.
 */
export function deliveryKey(gatewayId: number | string, channel: string): string {
  return `${gatewayId}@${channel}`;
}

export interface Ownership {
  /** Ours to post: won now, taken over from a dead holder, or left claimed by this instance earlier. */
  mine: Set<string>;
  /** Someone (maybe we, before a restart) already posted these. */
  posted: Set<string>;
  /** Claimed by a live instance and not posted yet: theirs to finish. */
  elsewhere: Set<string>;
}

const LOOKUPS_IN_FLIGHT = 8;

async function eachLimited<T>(items: readonly T[], limit: number, run: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await run(items[next++]!);
    }),
  );
}

/**
 * One statement claims the whole batch (claimMany); only the keys it did not win are looked at one by
 * one, which in steady state are the few re-read through the overlap window.
 */
export async function claimDeliveries(
  inbound: InboundRepo,
  keys: readonly string[],
  options: { instanceId: string; at: Date; leaseMs: number },
): Promise<Ownership> {
  const { instanceId, at, leaseMs } = options;
  const result: Ownership = { mine: new Set(), posted: new Set(), elsewhere: new Set() };
  if (keys.length === 0) return result;
  const won = await inbound.claimMany(keys, instanceId, at);
  for (const key of won) result.mine.add(key);
  const lost = keys.filter((k) => !won.has(k));
  await eachLimited(lost, LOOKUPS_IN_FLIGHT, async (key) => {
    const row = await inbound.get(key);
    if (row?.posted) result.posted.add(key);
    // Cycles of one instance never overlap, so a claim of ours still open is a leftover, not in flight.
    else if (row?.claimedBy === instanceId) result.mine.add(key);
    else if (!row || row.claimedAt.getTime() < at.getTime() - leaseMs) {
      // Released meanwhile, or its holder is presumed dead: the lease lets exactly one caller take it.
      if (await inbound.claim(key, instanceId, { leaseMs, at })) result.mine.add(key);
      else result.elsewhere.add(key);
    } else result.elsewhere.add(key);
  });
  return result;
}
