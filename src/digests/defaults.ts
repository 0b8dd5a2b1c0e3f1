import type { Store } from '../store/index.js';
import { compileSchedule } from './schedule.js';
import { DIGEST_KINDS } from './types.js';

/** Marks the subscriptions start-up makes from DIGEST_CHANNEL, so a changed setting can replace them. */
export const DEFAULT_DIGEST_CREATOR = 'DIGEST_CHANNEL';

export interface DefaultDigest {
  channel: string;
  /** DIGEST_CRON */
  cron: string;
  /** REPORT_TIMEZONE */
  timeZone: string;
}

/**
 * Makes DIGEST_CHANNEL's balance, stats and surveys digests on DIGEST_CRON exist, and removes the ones an
 * earlier setting made (another channel, cron or zone; all of them when `wanted` is undefined). Safe to run
 * on every start of every instance: adding is idempotent and removing what is gone is a no-op.
 */
export async function ensureDefaultDigests(
  store: Store,
  wanted: DefaultDigest | undefined,
  now: Date = new Date(),
): Promise<{ created: number; removed: number }> {
  const cron = wanted?.cron.trim().replace(/\s+/g, ' ');
  if (wanted) compileSchedule(wanted.cron, wanted.timeZone);
  let created = 0;
  let removed = 0;
  for (const sub of await store.subscriptions.listByKind('digest')) {
    if (sub.createdBy !== DEFAULT_DIGEST_CREATOR) continue;
    const current =
      wanted && sub.channel === wanted.channel && sub.cron === cron && sub.timezone === wanted.timeZone;
    if (!current && (await store.subscriptions.remove(sub.id))) removed++;
  }
  if (wanted) {
    for (const digest of DIGEST_KINDS) {
      const result = await store.subscriptions.add(
        wanted.channel,
        { kind: 'digest', digest, cron: cron!, timezone: wanted.timeZone },
        DEFAULT_DIGEST_CREATOR,
        now,
      );
      if (result.created) created++;
    }
  }
  return { created, removed };
}
