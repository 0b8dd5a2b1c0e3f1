import type { Units } from './money.js';
import type { Batch, BatchState } from './types.js';

export interface BatchCounts {
  count: number;
  queued: number;
  delivered: number;
  undelivered: number;
  cancelled: number;
}

export function countRecipients(batch: Batch): BatchCounts {
  const counts: BatchCounts = {
    count: batch.recipients.length,
    queued: 0,
    delivered: 0,
    undelivered: 0,
    cancelled: 0,
  };
  for (const r of batch.recipients) {
    if (r.state === 'Queued') counts.queued++;
    else if (r.state === 'Delivered') counts.delivered++;
    else if (r.state === 'Undelivered') counts.undelivered++;
    else counts.cancelled++;
  }
  return counts;
}

/**
 * Folds per-recipient states into the one State a QueryMulti entry carries. Cancelled recipients
 * next to delivered ones make the batch PartiallyDelivered; next to only undelivered ones, Undelivered.
 */
export function batchState(batch: Batch): BatchState {
  const c = countRecipients(batch);
  if (c.queued === c.count) return 'Queued';
  if (c.queued > 0) return 'Sending';
  if (c.delivered === c.count) return 'Delivered';
  if (c.delivered > 0) return 'PartiallyDelivered';
  if (c.undelivered > 0) return 'Undelivered';
  return 'Cancelled';
}

/** What the batch costs after refunds of cancelled recipients. */
export function netCost(batch: Batch): Units {
  return batch.recipients.reduce((sum, r) => sum + r.cost, 0) - batch.refunded;
}
