import type { Campaign, OutboxRow, Store } from '../store/index.js';
import { startCampaign } from './campaign.js';
import { checkAtSending, refuseSend, type SendRefusal } from './checks.js';
import { defaultSendLease } from './lease.js';
import { outboxPayloadOf, type SendDeps, type SendRequest } from './send.js';

/**
 * A scheduled send too large for one gateway call goes as a campaign when its time comes (or on Send now). The
 * scheduled outbox row is claimed exactly as a single send's would be (one instance wins), checked at that
 * moment (role, text, opt-outs, limits, balance), then closed, and the campaign started under a key derived
 * from the row's: the row never calls the gateway itself, and never fires again.
 */

/** The campaign a scheduled send becomes is keyed from the send's own key. */
export function scheduledCampaignKey(outboxKey: string): string {
  return `${outboxKey}:campaign`;
}

/** Why a scheduled send is held after a stop cut off its campaign's start (its card says so). */
export const CAMPAIGN_NOT_STARTED =
  'the bot stopped while this send was starting as a campaign; nothing of it was sent';

/**
 * The campaign key a scheduled row was claimed to start, when it was claimed to go as a campaign: such a claim never
 * calls the gateway itself, so a claim cut off by a stop is safe to hand back (see DeliveryTracker.reconcileStale).
 */
export function campaignKeyOfClaim(row: Pick<OutboxRow, 'payload'>): string | undefined {
  const key = (row.payload as { campaignKey?: unknown } | null)?.campaignKey;
  return typeof key === 'string' ? key : undefined;
}

/** The campaign a scheduled row was claimed to start, if it was started. */
export async function startedCampaignOf(
  store: Pick<Store, 'campaigns'>,
  row: Pick<OutboxRow, 'payload'>,
): Promise<Campaign | undefined> {
  const key = campaignKeyOfClaim(row);
  return key === undefined ? undefined : store.campaigns.byKey(key);
}

/** Whether a closed scheduled row went as a campaign (its card then says so). */
export function wentAsCampaign(row: Pick<OutboxRow, 'state' | 'payload'>): boolean {
  return row.state === 'cancelled' && campaignKeyOfClaim(row) !== undefined;
}

/**
 * A send that went as a campaign: the campaign, created=false when it had been started already; `row` is the
 * scheduled send it came from, now closed.
 */
export type CampaignStarted = { kind: 'campaign'; campaign: Campaign; created: boolean; row?: OutboxRow };

export type ScheduledCampaignOutcome =
  /** This call claimed the row and the campaign runs (created=false: it was already started). */
  | (CampaignStarted & { row: OutboxRow })
  /** Refused at that moment: the row ends failed with the reason, nothing is sent. */
  | { kind: 'refused'; row: OutboxRow; refusal: SendRefusal }
  /** Another instance (or an earlier tick, or a cancel) had it first. */
  | { kind: 'duplicate'; row: OutboxRow };

export async function startScheduledCampaign(
  deps: SendDeps,
  requested: SendRequest,
  chunkSize: number,
): Promise<ScheduledCampaignOutcome> {
  const scheduled = requested.scheduled;
  if (!scheduled) throw new Error('startScheduledCampaign takes a scheduled send');
  const check = await checkAtSending(deps, requested);
  const { request } = check;
  const { plan } = request;
  const lease = deps.sendLease ?? defaultSendLease();
  const at = deps.now();
  const campaignKey = scheduledCampaignKey(requested.idempotencyKey);
  const claimed = await deps.store.outbox.claimScheduled(scheduled.outboxId, {
    from: scheduled.from,
    ...(scheduled.dueBy ? { dueBy: scheduled.dueBy } : {}),
    ...(scheduled.unchangedSince ? { unchangedSince: scheduled.unchangedSince } : {}),
    at,
    owner: lease.owner,
    leaseUntil: new Date(at.getTime() + lease.ttlMs),
    recipients: [...plan.recipients],
    segments: plan.totalSegments,
    estimatedCost: plan.estimatedCost,
    payload: {
      ...outboxPayloadOf(request, check.optedOut),
      ...scheduled.keep,
      claimedAt: at.toISOString(),
      campaignKey,
      chunkSize,
    },
  });
  if (!claimed) {
    const current = await deps.store.outbox.get(scheduled.outboxId);
    if (!current) throw new Error(`scheduled send ${scheduled.outboxId} is gone from the outbox`);
    return { kind: 'duplicate', row: current };
  }
  if (check.refusal) {
    const refused = await refuseSend(deps, claimed, request, check.refusal);
    // Counted like any send refused at sending; the chunks of a campaign that goes are counted as they go.
    deps.sendObserver?.onSend('refused', { recipients: 0, segments: 0 });
    return refused.kind === 'refused' ? refused : { kind: 'duplicate', row: refused.row };
  }
  const { scheduled: _claimed, checkBalance: _asked, ...send } = request;
  const { campaign, created } = await startCampaign(
    deps,
    { ...send, idempotencyKey: campaignKey },
    chunkSize,
  );
  // Closed for good: `cancelled` is final, never polled, never claimed again; its chunks are the sends. Closed from
  // `held` too: a delivery tracker may have taken the claim back while this instance was slow to get here.
  if (!(await deps.store.outbox.closeAsCampaign(claimed.id, request.slackUser, deps.now()))) {
    const current = await deps.store.outbox.get(claimed.id);
    // Taken back while this instance was slow, then cancelled by a person: the campaign it just made must not go.
    if (created && current?.state === 'cancelled' && current.reason === CAMPAIGN_NOT_STARTED) {
      await deps.store.campaigns.cancel(campaign.id, current.cancelledBy ?? request.slackUser, deps.now());
      deps.logger.warn(
        { outboxId: claimed.id, campaignId: campaign.id },
        'scheduled send cancelled while its campaign was starting: the campaign is cancelled before any chunk',
      );
      const cancelled = (await deps.store.campaigns.get(campaign.id)) ?? campaign;
      return { kind: 'campaign', row: current, campaign: cancelled, created: false };
    }
  }
  await deps.store.audit.append({
    actor: request.slackUser,
    action: 'schedule_campaign',
    target: `outbox ${claimed.id}`,
    details: { campaignId: campaign.id, recipients: plan.recipients.length, chunkSize },
    at: deps.now(),
  });
  deps.logger.info(
    { outboxId: claimed.id, campaignId: campaign.id, chunks: campaign.chunkCount },
    'scheduled send went as a campaign',
  );
  return { kind: 'campaign', row: (await deps.store.outbox.get(claimed.id)) ?? claimed, campaign, created };
}
