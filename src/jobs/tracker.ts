import { type Gateway, GatewayRejected } from '../gateway/index.js';
import type { Logger } from '../log.js';
import { cancelIfCampaignCancelled } from '../sending/campaign.js';
import { CAMPAIGN_NOT_STARTED, campaignKeyOfClaim } from '../sending/scheduled-campaign.js';
import type { AbandonedTest, OutboxRow, Store } from '../store/index.js';
import { JobLoop, type JobObserver } from './loop.js';

export interface TrackerOptions {
  gateway: Gateway;
  store: Store;
  logger: Logger;
  now?: () => Date;
  /** Called after each recorded change, to update the delivery card. */
  onProgress: (row: OutboxRow) => Promise<void>;
  /** How often the loop looks for due batches. */
  tickMs?: number;
  /** Upper bound of QueryMulti calls per minute, whatever the number of open batches. */
  maxCallsPerMinute?: number;
  /**
   * A `pending` send whose owner stopped renewing its lease was cut off by a crash or a restart while its
   * Submit was in flight: it becomes `unknown` (never resent) and `onUnknown` shows it. A send that is
   * merely slow keeps its lease and is left alone. This is the age at which a row written before sends
   * carried a lease counts as cut off.
   */
  stalePendingMs?: number;
  onUnknown?: (row: OutboxRow) => Promise<void>;
  /** Told of every pass of the loop (the metrics, when METRICS_PORT is set). */
  jobObserver?: JobObserver;
}

/** States that end a batch, in the spellings seen so far; progress counts decide otherwise. */
const FINAL_STATES = new Set([
  'delivered',
  'undelivered',
  'partiallydelivered',
  'cancelled',
  'canceled',
  'expired',
  'failed',
  'rejected',
]);

/** About 15 s, 30 s, 1 min, 2 min, 5 min, then every 15 min: fresh batches move fast, old ones slowly. */
export function nextPollDelayMs(ageMs: number): number {
  const minute = 60_000;
  if (ageMs < minute) return 15_000;
  if (ageMs < 2 * minute) return 30_000;
  if (ageMs < 5 * minute) return minute;
  if (ageMs < 15 * minute) return 2 * minute;
  if (ageMs < 60 * minute) return 5 * minute;
  return 15 * minute;
}

function validityMinutesOf(row: OutboxRow): number {
  const payload = row.payload as { validityMinutes?: unknown } | null;
  return typeof payload?.validityMinutes === 'number' ? payload.validityMinutes : 1440;
}

/**
 * One loop for every open batch (not a timer per batch): each tick leases the batches that are due,
 * so several instances never poll the same one, and asks the gateway within a per-minute budget.
 */
export class DeliveryTracker {
  readonly #o: Required<Omit<TrackerOptions, 'now' | 'jobObserver'>> & { now: () => Date };
  readonly #loop: JobLoop;
  #windowStart = 0;
  #lastStaleCheck = 0;
  #callsInWindow = 0;

  constructor(options: TrackerOptions) {
    this.#o = {
      tickMs: 5_000,
      maxCallsPerMinute: 120,
      stalePendingMs: 120_000,
      onUnknown: async () => undefined,
      now: () => new Date(),
      ...options,
    };
    this.#loop = JobLoop.every({
      name: 'delivery tracker tick',
      logger: this.#o.logger,
      observer: options.jobObserver,
      run: () => this.tick(),
      everyMs: this.#o.tickMs,
    });
  }

  start(): void {
    this.#loop.start();
  }

  /**
   * Abandons the QueryMulti in flight (a gateway holding it does not hold the stop, up to its timeout and
   * retries), then waits for the tick in progress, so no poll is cut off half-recorded: an abandoned poll records
   * nothing, and its batch is polled again once its claim runs out.
   */
  async stop(): Promise<void> {
    await this.#loop.stop();
  }

  /**
   * Poll this batch now (after a send, a refresh or a cancel). A cancelled batch is asked until the gateway's
   * report is final: what was delivered before the Cancel, and so what it cancelled; then it is left alone.
   */
  async pollNow(outboxId: number): Promise<OutboxRow | undefined> {
    const row = await this.#o.store.outbox.get(outboxId);
    const tracked = row?.state === 'submitted' || row?.state === 'cancelled';
    if (!row || !tracked || row.delivery.final || !row.messageId) return row;
    return this.#poll(row);
  }

  /** One pass over due batches; exposed for tests and drills. Returns how many were polled. */
  async tick(): Promise<number> {
    const now = this.#o.now();
    if (now.getTime() - this.#lastStaleCheck >= 15_000) {
      this.#lastStaleCheck = now.getTime();
      await this.reconcileStale(now);
    }
    if (now.getTime() - this.#windowStart >= 60_000) {
      this.#windowStart = now.getTime();
      this.#callsInWindow = 0;
    }
    const budget = this.#o.maxCallsPerMinute - this.#callsInWindow;
    if (budget <= 0) return 0;
    const due = await this.#o.store.outbox.claimDueForPoll(
      now,
      Math.min(budget, 50),
      new Date(now.getTime() + 60_000),
    );
    for (const row of due) {
      if (this.#loop.stopping) break;
      await this.#poll(row);
    }
    return due.length;
  }

  /**
   * Sends left `pending` by an owner that is gone (its lease ran out) become `unknown`, once, whichever
   * instance gets there first. A send whose gateway call is still running keeps its lease and is skipped.
   */
  async reconcileStale(now: Date = this.#o.now()): Promise<number> {
    const test = { now, unleasedBefore: new Date(now.getTime() - this.#o.stalePendingMs) };
    const abandoned = await this.#o.store.outbox.abandonedPending(test, 100);
    let marked = 0;
    for (const row of abandoned) {
      const campaignKey = campaignKeyOfClaim(row);
      if (campaignKey !== undefined) {
        if (await this.#settleCampaignClaim(row, campaignKey, test)) marked++;
        continue;
      }
      const reason =
        'the bot stopped while this send was in progress: it may or may not have reached the gateway';
      if (!(await this.#o.store.outbox.markAbandoned(row.id, reason, test))) continue;
      marked++;
      this.#o.logger.warn(
        { outboxId: row.id, owner: row.owner, leaseUntil: row.leaseUntil?.toISOString() ?? null },
        'interrupted send marked unknown; it is never resent automatically',
      );
      const updated = (await this.#o.store.outbox.get(row.id)) ?? row;
      await this.#o.onUnknown(updated).catch((error: unknown) => {
        this.#o.logger.warn(
          { outboxId: row.id, err: error instanceof Error ? error.message : String(error) },
          'card for an interrupted send not posted',
        );
      });
    }
    return marked;
  }

  /**
   * A scheduled send claimed to go as a campaign, cut off before its row was closed: the claim never calls the
   * gateway itself, so it is not `unknown`. If its campaign was started, the chunks are the sends and the row
   * closes as it would have; if not, nothing was sent, and the row is held for its sender or an admin to send
   * now (its time has passed) or cancel: never started again unasked.
   */
  async #settleCampaignClaim(row: OutboxRow, campaignKey: string, test: AbandonedTest): Promise<boolean> {
    const { store, logger } = this.#o;
    let campaign = await store.campaigns.byKey(campaignKey);
    const settled = campaign
      ? await store.outbox.closeAsCampaign(row.id, row.slackUser, test.now)
      : await store.outbox.holdAbandoned(row.id, CAMPAIGN_NOT_STARTED, test);
    if (!settled) return false;
    // Closed here (and audited) only if this call closed it: a slow owner closes, and audits, its own.
    let closedHere = campaign !== undefined;
    if (!campaign) {
      // Its owner may have been slow rather than gone, and created the campaign in between: then it is closed.
      campaign = await store.campaigns.byKey(campaignKey);
      if (campaign) closedHere = await store.outbox.closeAsCampaign(row.id, row.slackUser, test.now);
    }
    if (campaign && closedHere) {
      logger.info(
        { outboxId: row.id, campaignId: campaign.id },
        'interrupted scheduled send had gone as a campaign; closed',
      );
      // The entry its own instance would have written had it not stopped first.
      await store.audit.append({
        actor: row.slackUser,
        action: 'schedule_campaign',
        target: `outbox ${row.id}`,
        details: { campaignId: campaign.id, recipients: row.recipientCount, closedAfterStop: true },
        at: test.now,
      });
    } else if (!campaign) {
      logger.warn(
        { outboxId: row.id, owner: row.owner },
        'interrupted scheduled send held: its campaign never started, nothing was sent',
      );
    }
    const updated = (await store.outbox.get(row.id)) ?? row;
    await this.#o.onProgress(updated).catch((error: unknown) => {
      logger.warn(
        { outboxId: row.id, err: error instanceof Error ? error.message : String(error) },
        'card of an interrupted scheduled send not updated',
      );
    });
    return true;
  }

  /**
   * A chunk of a campaign cancelled after it was accepted, still sending at the gateway: the process that should
   * have cancelled it (the runner after the chunk's Submit, or the Cancel itself) may have died or failed first.
   * Whichever pass finds it cancels it, so nothing of a cancelled campaign keeps going out after a restart.
   */
  async #cancelIfOfCancelledCampaign(row: OutboxRow): Promise<OutboxRow> {
    if (row.campaignId === null || row.state !== 'submitted' || row.delivery.final) return row;
    const { gateway, store, logger } = this.#o;
    const result = await cancelIfCampaignCancelled(
      { gateway, store, logger, now: this.#o.now },
      row.id,
    ).catch((error: unknown) => {
      logger.warn(
        { outboxId: row.id, err: error instanceof Error ? error.message : String(error) },
        'chunk of a cancelled campaign not cancelled: tried again at its next poll',
      );
      return undefined;
    });
    if (!result?.cancelled) return row;
    return (await store.outbox.get(row.id)) ?? row;
  }

  async #poll(polled: OutboxRow): Promise<OutboxRow> {
    const row = await this.#cancelIfOfCancelledCampaign(polled);
    const now = this.#o.now();
    this.#callsInWindow++;
    const submittedAt = row.submittedAt ?? row.createdAt;
    const age = now.getTime() - submittedAt.getTime();
    const expired = age > (validityMinutesOf(row) + 60) * 60_000;
    try {
      const { reports } = await this.#o.gateway.queryMulti(
        { messageId: Number(row.messageId) },
        { signal: this.#loop.signal },
      );
      const report = reports[0];
      const delivered = report?.deliveredCount ?? row.delivery.delivered;
      const undelivered = report?.undeliveredCount ?? row.delivery.undelivered;
      const count = report?.count || row.recipientCount;
      const state = report?.state || row.delivery.state || 'Queued';
      const final =
        FINAL_STATES.has(state.toLowerCase().replace(/[\s_-]/g, '')) ||
        (count > 0 && delivered + undelivered >= count) ||
        expired;
      await this.#o.store.outbox.recordProgress(row.id, {
        delivered,
        undelivered,
        count,
        state: expired && !FINAL_STATES.has(state.toLowerCase()) ? `${state} (validity passed)` : state,
        final,
        lastPolledAt: now,
        nextPollAt: final ? null : new Date(now.getTime() + nextPollDelayMs(age)),
      });
      if (final)
        this.#o.logger.info(
          { outboxId: row.id, messageId: row.messageId, state, delivered, undelivered },
          'SMS batch final',
        );
    } catch (error) {
      if (this.#loop.signal.aborted) return row;
      // A batch the gateway no longer knows is final; anything else is tried again later.
      const gone = error instanceof GatewayRejected && error.code === 404;
      await this.#o.store.outbox.recordProgress(row.id, {
        ...row.delivery,
        count: row.delivery.count || row.recipientCount,
        state: gone ? 'Unknown to the gateway' : row.delivery.state,
        final: gone || expired,
        lastPolledAt: now,
        nextPollAt: gone || expired ? null : new Date(now.getTime() + nextPollDelayMs(age)),
      });
      this.#o.logger.debug(
        { outboxId: row.id, err: error instanceof Error ? error.message : String(error) },
        'delivery poll failed',
      );
    }
    const updated = (await this.#o.store.outbox.get(row.id)) ?? row;
    const before = polled.delivery;
    const after = updated.delivery;
    // The card changes only when something a person would see changed: no chat.update per poll.
    const changed =
      polled.state !== updated.state ||
      before.delivered !== after.delivered ||
      before.undelivered !== after.undelivered ||
      before.state !== after.state ||
      before.final !== after.final;
    if (!changed) return updated;
    await this.#o.onProgress(updated).catch((error: unknown) => {
      this.#o.logger.warn(
        { outboxId: row.id, err: error instanceof Error ? error.message : String(error) },
        'delivery card update failed',
      );
    });
    return updated;
  }
}
