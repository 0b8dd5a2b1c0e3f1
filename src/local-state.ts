import { dirname, join, resolve } from 'node:path';
import type { Store } from './store/index.js';
import { parseDatabaseUrl } from './store/url.js';

/**
 * Where local mode keeps the workspace's and the simulator's state: beside an SQLite store (`./data/` by
 * default), in `./data/` with PostgreSQL, nowhere with an in-memory store (which itself forgets).
 */
export function localStateDir(databaseUrl: string): string | undefined {
  const target = parseDatabaseUrl(databaseUrl);
  if (target.kind === 'postgres') return resolve('data');
  return target.path === ':memory:' ? undefined : dirname(target.path);
}

export function localStatePaths(dir: string): { workspace: string; simulator: string } {
  return { workspace: join(dir, 'workspace.json'), simulator: join(dir, 'simulator.json') };
}

/**
 * The ids a simulated gateway starts above: past every MessageId and inbound Id the store holds, so a simulator
 * that lost its state (a deleted or unreadable file, a crash before its last write) never hands one out twice.
 */
export async function simulatorIdsAbove(store: Store): Promise<{ batch?: number; inbound?: number }> {
  const { messageId, inboundId } = await store.gatewayIds.highest();
  return { batch: nextSafe(messageId), inbound: nextSafe(inboundId) };
}

function nextSafe(id: bigint | undefined): number | undefined {
  return id !== undefined && id < BigInt(Number.MAX_SAFE_INTEGER) ? Number(id) + 1 : undefined;
}
