import type { Store } from '../store/index.js';

/**
 * What a subscription remembers of its last posted digest, so the next one can say what changed. Kept in
 * the store's digest memory, one entry per subscription: every instance reads the same memory.
 */
export interface DigestMemory {
  /** The slot (ISO instant) of the last posted digest. */
  slot: string;
  /** When it was posted. */
  at: string;
  /** Balance digest: usable credit at that time. */
  usable?: number;
  /** Surveys digest: answered count per survey id. */
  answered?: Record<string, number>;
}

export async function readMemory(store: Store, subscriptionId: number): Promise<DigestMemory | undefined> {
  const raw = await store.digestMemory.get(subscriptionId);
  if (!raw) return undefined;
  try {
    const value = JSON.parse(raw) as DigestMemory;
    return typeof value.slot === 'string' && typeof value.at === 'string' ? value : undefined;
  } catch {
    // A damaged memory only costs one digest its comparison.
    return undefined;
  }
}

export async function writeMemory(store: Store, subscriptionId: number, memory: DigestMemory): Promise<void> {
  await store.digestMemory.put(subscriptionId, JSON.stringify(memory), new Date(memory.at));
}
