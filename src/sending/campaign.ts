import { GatewayRejected } from '../gateway/index.js';
import type { Logger } from '../log.js';
import { analyzeText, encodingOf } from '../sms/index.js';
import type { Campaign, CampaignChunkRow, JsonValue, Store } from '../store/index.js';
import { refusalReason } from './checks.js';
import { executeSend, type SendDeps, type SendOutcome, type SendPlan, type SendRequest } from './send.js';

/**
 * A send to more recipients than one gateway call should carry (SUBMIT_CHUNK_SIZE) is a campaign: the plan is
 * kept once, and its chunks go one by one, in order, each through the one send path (executeSend, with its
 * checks at sending and its outbox row written before the gateway is called). A chunk refused or of unknown
 * fate stops the campaign; a chunk that may have reached the gateway is never sent again.
 */

/** Whether this plan is sent as a campaign rather than as one gateway call. */
export function isCampaign(plan: Pick<SendPlan, 'recipients'>, chunkSize: number): boolean {
  return plan.recipients.length > chunkSize;
}

/** Only what the send path takes: a compose draft carries more (notices, mode) that the store need not keep. */
function storedPlan(plan: SendPlan): JsonValue {
  return {
    sender: plan.sender,
    recipients: [...plan.recipients],
    ...(plan.envelopes ? { envelopes: plan.envelopes.map((e) => ({ to: e.to, message: e.message })) } : {}),
    text: plan.text,
    encoding: plan.encoding,
    dataCoding: plan.dataCoding,
    validityMinutes: plan.validityMinutes,
    totalSegments: plan.totalSegments,
    estimatedCost: plan.estimatedCost,
  };
}

/**
 * Starts a campaign from a validated plan, the same plan an immediate send takes (a scheduler calls this when
 * the time comes). Idempotent on the request's key. Nothing is sent here: the campaign runner submits the
 * chunks at SUBMIT_CHUNK_INTERVAL_MS.
 */
export async function startCampaign(
  deps: { store: Store; logger: Logger; now: () => Date },
  request: SendRequest,
  chunkSize: number,
): Promise<{ campaign: Campaign; created: boolean }> {
  const { plan } = request;
  const result = await deps.store.campaigns.create({
    idempotencyKey: request.idempotencyKey,
    slackUser: request.slackUser,
    channel: request.channel,
    threadTs: request.threadTs ?? null,
    sender: plan.sender,
    text: plan.text,
    plan: storedPlan(plan),
    recipientCount: plan.recipients.length,
    segments: plan.totalSegments,
    estimatedCost: plan.estimatedCost,
    chunkSize,
    at: deps.now(),
  });
  const { campaign } = result;
  if (result.created) {
    await deps.store.audit.append({
      actor: request.slackUser,
      action: 'campaign_start',
      target: `campaign ${campaign.id}`,
      details: {
        recipients: campaign.recipientCount,
        chunks: campaign.chunkCount,
        chunkSize,
        segments: campaign.segments,
        estimatedCost: campaign.estimatedCost,
        channel: campaign.channel,
      },
      at: deps.now(),
    });
    deps.logger.info(
      { campaignId: campaign.id, recipients: campaign.recipientCount, chunks: campaign.chunkCount },
      'campaign started',
    );
  }
  return result;
}

/** The part of the plan that chunk `chunk` sends: its recipients (or envelopes), segments and cost. */
export function chunkOf(plan: SendPlan, chunkSize: number, chunk: number): SendPlan {
  const from = chunk * chunkSize;
  const to = from + chunkSize;
  const price = plan.totalSegments > 0 ? plan.estimatedCost / plan.totalSegments : 0;
  // A number forgotten on request is blanked in place (see CampaignsRepo.forgetNumber): it is not sent to.
  if (plan.envelopes) {
    const envelopes = plan.envelopes.slice(from, to).filter((e) => e.to !== '');
    const encoding = encodingOf(plan.dataCoding);
    let segments = 0;
    for (const e of envelopes) segments += analyzeText(e.message, { encoding }).segments;
    return {
      ...plan,
      envelopes,
      recipients: envelopes.map((e) => e.to),
      totalSegments: segments,
      estimatedCost: segments * price,
    };
  }
  const recipients = plan.recipients.slice(from, to).filter((r) => r !== '');
  const perMessage = plan.recipients.length > 0 ? plan.totalSegments / plan.recipients.length : 0;
  const segments = Math.round(perMessage * recipients.length);
  return { ...plan, recipients, totalSegments: segments, estimatedCost: segments * price };
}

/** Chunk keys derive from the campaign's; a chunk sent again in a later round gets a key of its own. */
export function chunkKey(campaign: Pick<Campaign, 'idempotencyKey' | 'round'>, chunk: number): string {
  return `${campaign.idempotencyKey}#${chunk}${campaign.round > 0 ? `:r${campaign.round}` : ''}`;
}

/** The newest outbox row of each chunk: what became of it. */
export function latestByChunk(rows: readonly CampaignChunkRow[]): Map<number, CampaignChunkRow> {
  const latest = new Map<number, CampaignChunkRow>();
  for (const row of rows) {
    const seen = latest.get(row.chunk);
    if (!seen || seen.outboxId < row.outboxId) latest.set(row.chunk, row);
  }
  return latest;
}

export interface CampaignProgress {
  chunkCount: number;
  /** Chunks the gateway accepted (a MessageId each). */
  chunksSubmitted: number;
  /** Recipients in accepted chunks. */
  sent: number;
  /** Recipients of chunks whose fate is unknown: they may have been sent; never sent again. */
  unknown: number;
  /** Recipients of a chunk whose gateway call is in flight. */
  inFlight: number;
  /** Recipients not sent: chunks never submitted, refused, or numbers that opted out meanwhile. */
  notSent: number;
  delivered: number;
  undelivered: number;
  pending: number;
  /** MessageIds of the accepted chunks, in chunk order. */
  messageIds: string[];
  /** Chunk rows of unknown fate (their `S-` reference finds them). */
  unknownRows: CampaignChunkRow[];
  /** Every accepted chunk is final at the gateway. */
  final: boolean;
  /** Accepted chunks not final and not cancelled at the gateway: what a Cancel can still stop. */
  cancellable: number;
}

/** The campaign's figures over all of its chunks, as the card shows them. */
export function campaignProgress(
  campaign: Pick<Campaign, 'recipientCount' | 'chunkCount'>,
  rows: readonly CampaignChunkRow[],
): CampaignProgress {
  const p: CampaignProgress = {
    chunkCount: campaign.chunkCount,
    chunksSubmitted: 0,
    sent: 0,
    unknown: 0,
    inFlight: 0,
    notSent: 0,
    delivered: 0,
    undelivered: 0,
    pending: 0,
    messageIds: [],
    unknownRows: [],
    final: true,
    cancellable: 0,
  };
  const latest = [...latestByChunk(rows).values()].sort((a, b) => a.chunk - b.chunk);
  for (const row of latest) {
    if ((row.state === 'submitted' || row.state === 'cancelled') && row.messageId) {
      p.chunksSubmitted++;
      p.sent += row.recipientCount;
      p.messageIds.push(row.messageId);
      const count = row.deliveryCount || row.recipientCount;
      p.delivered += row.delivered;
      p.undelivered += row.undelivered;
      p.pending += Math.max(0, count - row.delivered - row.undelivered);
      if (!row.final) p.final = false;
      if (!row.final && row.state === 'submitted') p.cancellable++;
    } else if (row.state === 'unknown') {
      p.unknown += row.recipientCount;
      p.unknownRows.push(row);
    } else if (row.state === 'pending') {
      p.inFlight += row.recipientCount;
    }
  }
  p.notSent = Math.max(0, campaign.recipientCount - p.sent - p.unknown - p.inFlight);
  return p;
}

export interface ChunkRunDeps extends SendDeps {
  /** The instance claiming chunks, and how long its claim holds without renewal. */
  owner: string;
  leaseMs: number;
  /** SUBMIT_CHUNK_INTERVAL_MS: the least time between two chunks of one campaign. */
  paceMs: number;
  /** The campaign's plan (the runner keeps it in memory between chunks). */
  planOf: (campaign: Campaign) => Promise<SendPlan | undefined>;
}

export type ChunkStep =
  /** Nothing to do now: not running, not due, or another instance holds it. */
  | { kind: 'idle'; campaign?: Campaign }
  /** A chunk went through the send path (or was found already sent) and the cursor moved on. */
  | { kind: 'advanced'; campaign: Campaign; chunk: number; outcome?: SendOutcome['kind'] }
  /** The chunk's gateway call is in flight elsewhere (or was cut off and awaits the tracker's verdict). */
  | { kind: 'in-flight'; campaign: Campaign; chunk: number }
  | { kind: 'stopped'; campaign: Campaign; chunk: number; reason: string }
  | { kind: 'done'; campaign: Campaign };

function stopReasonOf(campaign: Campaign, chunk: number, outcome: SendOutcome): string | undefined {
  const which = `Chunk ${chunk + 1} of ${campaign.chunkCount}`;
  switch (outcome.kind) {
    case 'submitted':
      return undefined;
    case 'refused':
      return outcome.refusal.kind === 'all-opted-out'
        ? undefined
        : `${which} was refused at sending: ${refusalReason(outcome.refusal)}`;
    case 'rejected':
      return `${which} was refused by the gateway: ${outcome.description} (code ${outcome.code})`;
    case 'not-sent':
      return `${which} did not reach the gateway: ${outcome.reason}`;
    case 'unknown':
      return `${which} is of unknown fate (${outcome.reason}): it may have reached the gateway and is never sent again`;
    case 'duplicate':
      switch (outcome.row.state) {
        case 'submitted':
        case 'cancelled':
          return undefined;
        case 'unknown':
          return `${which} is of unknown fate (${outcome.row.reason ?? 'no reason recorded'}): it may have reached the gateway and is never sent again`;
        case 'failed':
          return `${which} was not sent: ${outcome.row.reason ?? 'no reason recorded'}`;
        default:
          return undefined;
      }
  }
}

/**
 * One step of a running campaign: claim the chunk at its cursor (one instance wins the claim, which it renews
 * while the gateway call is in flight), send it through executeSend under a key derived from the campaign's,
 * and move on, or stop the campaign. A chunk whose outbox row already exists is never sent again: its row says
 * what became of it (executeSend answers `duplicate`).
 */
export async function runNextChunk(deps: ChunkRunDeps, campaignId: number): Promise<ChunkStep> {
  const { store } = deps;
  const campaign = await store.campaigns.get(campaignId);
  if (campaign?.state !== 'running') return { kind: 'idle', campaign };
  const now = deps.now();
  if (campaign.cursor >= campaign.chunkCount) {
    await store.campaigns.finish(campaign.id, now);
    return { kind: 'done', campaign: (await store.campaigns.get(campaign.id)) ?? campaign };
  }
  const chunk = campaign.cursor;
  if (campaign.nextAt.getTime() > now.getTime()) return { kind: 'idle', campaign };
  const claimed = await store.campaigns.claimChunk(
    campaign.id,
    chunk,
    deps.owner,
    now,
    new Date(now.getTime() + deps.leaseMs),
  );
  if (!claimed) return { kind: 'idle', campaign };
  const log = deps.logger.child({ campaignId: campaign.id, chunk });

  const advance = async (outcome?: SendOutcome['kind']): Promise<ChunkStep> => {
    const nextAt = new Date(deps.now().getTime() + deps.paceMs);
    await store.campaigns.advance(campaign.id, chunk, deps.owner, nextAt);
    if (chunk + 1 >= campaign.chunkCount) await store.campaigns.finish(campaign.id, deps.now());
    const fresh = (await store.campaigns.get(campaign.id)) ?? campaign;
    return { kind: 'advanced', campaign: fresh, chunk, outcome };
  };

  // In a later round, a chunk that already went (or may have) is passed over; only one refused is sent again.
  const latest = latestByChunk(await store.campaigns.chunks(campaign.id)).get(chunk);
  const key = chunkKey(campaign, chunk);
  if (latest && latest.idempotencyKey !== key) {
    if (latest.state !== 'failed') return advance();
  } else if (latest?.state === 'pending') {
    // Someone's gateway call for this chunk is in flight, or was cut off: the tracker decides, not us.
    await store.campaigns.release(campaign.id, deps.owner);
    return { kind: 'in-flight', campaign, chunk };
  }

  const plan = await deps.planOf(campaign);
  if (!plan) {
    const reason = 'the campaign’s recipients are no longer kept (retention)';
    await store.campaigns.stop(campaign.id, reason, deps.now());
    return { kind: 'stopped', campaign, chunk, reason };
  }
  const renew = setInterval(
    () => {
      void store.campaigns
        .renewLease(campaign.id, deps.owner, new Date(deps.now().getTime() + deps.leaseMs))
        .catch((error: unknown) =>
          log.warn(
            { err: error instanceof Error ? error.message : String(error) },
            'campaign lease not renewed',
          ),
        );
    },
    Math.max(50, Math.floor(deps.leaseMs / 4)),
  );
  renew.unref();
  let outcome: SendOutcome;
  try {
    outcome = await executeSend(deps, {
      idempotencyKey: key,
      slackUser: campaign.actingUser,
      channel: campaign.channel,
      ...(campaign.threadTs ? { threadTs: campaign.threadTs } : {}),
      plan: chunkOf(plan, campaign.chunkSize, chunk),
      campaign: { id: campaign.id, chunk },
    });
  } catch (error) {
    // The store failed before or around the outbox row: the claim runs out and the chunk is looked at again,
    // when its row (if any) says what happened.
    await store.campaigns.release(campaign.id, deps.owner).catch(() => undefined);
    throw error;
  } finally {
    clearInterval(renew);
  }

  if (outcome.kind === 'duplicate' && outcome.row.state === 'pending') {
    // Someone's gateway call for this chunk is in flight, or was cut off: the tracker decides, not us.
    await store.campaigns.release(campaign.id, deps.owner);
    return { kind: 'in-flight', campaign, chunk };
  }
  const reason = stopReasonOf(campaign, chunk, outcome);
  if (reason) {
    await store.campaigns.stop(campaign.id, reason, deps.now());
    log.warn({ reason }, 'campaign stopped');
    return { kind: 'stopped', campaign: (await store.campaigns.get(campaign.id)) ?? campaign, chunk, reason };
  }
  try {
    return await advance(outcome.kind);
  } finally {
    // Cancelled while this chunk was in flight: it is cancelled too, even when the store failed to move the
    // campaign on (that error still reaches the caller; the chunk is not left sending after a Cancel).
    if (outcome.kind === 'submitted') {
      await cancelIfCampaignCancelled(deps, outcome.row.id).catch((error: unknown) =>
        log.warn(
          { outboxId: outcome.row.id, err: error instanceof Error ? error.message : String(error) },
          'chunk of a cancelled campaign not cancelled yet: the delivery tracker tries again',
        ),
      );
    }
  }
}

/**
 * A chunk whose MessageId became known after its campaign was cancelled (its Submit reply came late, after a
 * store outage, or a person confirmed it with Check the gateway) is cancelled at the gateway now: Cancel could
 * not reach it while it had no MessageId. Undefined when the send is no such chunk.
 */
export async function cancelIfCampaignCancelled(
  deps: Pick<SendDeps, 'gateway' | 'store' | 'now' | 'logger'>,
  outboxId: number,
): Promise<{ campaign: Campaign; cancelled: boolean } | undefined> {
  const row = await deps.store.outbox.get(outboxId);
  if (!row?.campaignId || row.state !== 'submitted' || !row.messageId) return undefined;
  const campaign = await deps.store.campaigns.get(row.campaignId);
  if (campaign?.state !== 'cancelled') return undefined;
  const cancelled = await cancelChunk(deps, row.id, row.messageId, campaign.cancelledBy ?? 'campaign');
  deps.logger.warn(
    { campaignId: campaign.id, outboxId: row.id, messageId: row.messageId, cancelled },
    'a chunk of a cancelled campaign became known at the gateway: cancelled there too',
  );
  return { campaign, cancelled };
}

/** Cancels one accepted chunk at the gateway; true when the gateway took it (or had nothing left to cancel). */
export async function cancelChunk(
  deps: Pick<SendDeps, 'gateway' | 'store' | 'now' | 'logger'>,
  outboxId: number,
  messageId: number | string,
  by: string,
): Promise<boolean> {
  try {
    await deps.gateway.cancel(Number(messageId));
  } catch (error) {
    if (!(error instanceof GatewayRejected && error.code === 409)) {
      deps.logger.warn(
        { outboxId, messageId, err: error instanceof Error ? error.message : String(error) },
        'campaign chunk not cancelled',
      );
      return false;
    }
  }
  await deps.store.outbox.markCancelled(outboxId, by, deps.now());
  return true;
}

/**
 * Cancels a campaign: no further chunk is claimed, and every accepted chunk not yet final is cancelled at the
 * gateway (CancelBatch per MessageId). A chunk in flight meanwhile is cancelled by the runner once accepted.
 */
export async function cancelCampaign(
  deps: Pick<SendDeps, 'gateway' | 'store' | 'now' | 'logger'>,
  campaignId: number,
  by: string,
): Promise<{ changed: boolean; cancelled: number; failed: number }> {
  const changed = await deps.store.campaigns.cancel(campaignId, by, deps.now());
  let cancelled = 0;
  let failed = 0;
  for (const row of latestByChunk(await deps.store.campaigns.chunks(campaignId)).values()) {
    if (row.state !== 'submitted' || row.final || !row.messageId) continue;
    if (await cancelChunk(deps, row.outboxId, row.messageId, by)) cancelled++;
    else failed++;
  }
  return { changed, cancelled, failed };
}
