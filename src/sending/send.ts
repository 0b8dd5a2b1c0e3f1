import { setTimeout as sleep } from 'node:timers/promises';
import { type DataCoding, type Gateway, GatewayError, GatewayRejected } from '../gateway/index.js';
import type { Logger } from '../log.js';
import { scrubSecrets } from '../secrets.js';
import type { SendsInFlight } from '../sends-in-flight.js';
import type { JsonValue, OutboxRow, Store } from '../store/index.js';
import { checkAtSending, refuseSend, type SendPolicy, type SendRefusal } from './checks.js';
import { defaultSendLease, keepLease, type SendLease } from './lease.js';

/** What is about to be sent, already validated. */
export interface SendPlan {
  sender: string;
  recipients: readonly string[];
  /** Personalised: one text per recipient (SubmitMulti); otherwise `text` goes to all (Submit). */
  envelopes?: readonly { to: string; message: string }[];
  text: string;
  encoding: string;
  dataCoding: DataCoding;
  validityMinutes: number;
  totalSegments: number;
  estimatedCost: number;
}

export interface SendRequest {
  /** The same key twice never sends twice: a retried request or a double click finds the first row. */
  idempotencyKey: string;
  slackUser: string;
  channel: string;
  threadTs?: string;
  plan: SendPlan;
  /** Ask the gateway's balance before sending (a scheduled send, composed long ago). */
  checkBalance?: boolean;
  /**
   * A scheduled send: its outbox row already exists and is claimed (scheduled → pending) instead of
   * created; whoever loses the claim gets `duplicate` and sends nothing.
   */
  scheduled?: {
    outboxId: number;
    from: readonly ('scheduled' | 'held')[];
    /** Only if it is due by then (the job); unset for Send now. */
    dueBy?: Date;
    /** The row's `updatedAt` as read: an edit saved since then wins over this send (see ScheduledClaim). */
    unchangedSince?: Date;
    /** Kept in the row's payload (what the card says about the schedule). */
    keep: { [key: string]: JsonValue };
    /**
     * Claimed once before to go as a campaign (see scheduled-campaign.ts): it goes as one again, under the same
     * key, whatever its recipients number now, so that a campaign started meanwhile is found, never doubled.
     */
    asCampaign?: boolean;
  };
  /** A chunk of a campaign (see campaign.ts): recorded on its outbox row. */
  campaign?: { id: number; chunk: number };
}

export type SendOutcome =
  /** `late`: the MessageId came after the send had been marked unknown (or not sent) and was recorded all the same. */
  | { kind: 'submitted'; row: OutboxRow; messageId: number; late?: boolean }
  | { kind: 'rejected'; row: OutboxRow; code: number; description: string }
  | { kind: 'not-sent'; row: OutboxRow; reason: string }
  | { kind: 'unknown'; row: OutboxRow; reason: string }
  | { kind: 'duplicate'; row: OutboxRow }
  | { kind: 'refused'; row: OutboxRow; refusal: SendRefusal };

/** What an outbox row records of a plan, the same for a send made now and one saved for later. */
export function outboxContentOf(plan: SendPlan) {
  return {
    sender: plan.sender,
    recipients: [...plan.recipients],
    text: plan.text,
    segments: plan.totalSegments,
    encoding: plan.encoding,
    estimatedCost: plan.estimatedCost,
  };
}

/** Numbers the send left out because they opted out after the compose (recorded on the row at sending). */
export function optedOutAtSending(row: OutboxRow): string[] {
  const payload = row.payload as { optedOutAtSending?: unknown } | null;
  const numbers = payload?.optedOutAtSending;
  return Array.isArray(numbers) ? numbers.filter((n): n is string => typeof n === 'string') : [];
}

/**
 * Told of every send's outcome, with the recipients and segments that went to the gateway when it took
 * them (zero otherwise): the composition's metrics. Called synchronously: keep it cheap.
 */
export interface SendObserver {
  /** `error`: the send failed before the gateway (e.g. the store refused the outbox row). */
  onSend(outcome: SendOutcome['kind'] | 'error', sent: { recipients: number; segments: number }): void;
}

export interface SendDeps {
  gateway: Gateway;
  store: Store;
  logger: Logger;
  now: () => Date;
  /** Roles and limits as they are at the moment of sending. */
  policy: SendPolicy;
  /** Who claims a send while its gateway call is in flight; default: this host and process, 40 s. */
  sendLease?: SendLease;
  /** Backoff while the store refuses to record a MessageId; it is retried until it lands. */
  storeRetry?: { baseDelayMs: number; maxDelayMs: number };
  sendObserver?: SendObserver;
  /** Where the composition counts the sends it has started, so that shutdown can wait for them. */
  sendsInFlight?: SendsInFlight;
}

const STORE_RETRY = { baseDelayMs: 500, maxDelayMs: 15_000 };

/**
 * The one path by which an SMS leaves: role, text, opt-outs and limits are checked again (checks.ts),
 * the outbox row is written, then the gateway is called once. A call that may have reached the
 * gateway leaves the row `unknown`; nothing resends it. While the call is in flight the row's lease is
 * renewed, so no instance takes a slow send for an abandoned one.
 */
export function executeSend(deps: SendDeps, requested: SendRequest): Promise<SendOutcome> {
  const send = observedSend(deps, requested);
  return deps.sendsInFlight ? deps.sendsInFlight.track(send) : send;
}

async function observedSend(deps: SendDeps, requested: SendRequest): Promise<SendOutcome> {
  const observer = deps.sendObserver;
  if (!observer) return sendOnce(deps, requested);
  let outcome: SendOutcome;
  try {
    outcome = await sendOnce(deps, requested);
  } catch (error) {
    observer.onSend('error', { recipients: 0, segments: 0 });
    throw error;
  }
  const took = outcome.kind === 'submitted';
  observer.onSend(outcome.kind, {
    recipients: took ? outcome.row.recipientCount : 0,
    segments: took ? outcome.row.segments : 0,
  });
  return outcome;
}

async function sendOnce(deps: SendDeps, requested: SendRequest): Promise<SendOutcome> {
  // Before the row, so that it records what is really sent (opted-out numbers left out); a refusal is
  // recorded on the row below, so that a repeated confirm still finds the first one.
  const check = await checkAtSending(deps, requested);
  const { request } = check;
  const { plan } = request;
  const lease = deps.sendLease ?? defaultSendLease();
  const createdAt = deps.now();
  const payload = outboxPayloadOf(request, check.optedOut);
  const leaseUntil = new Date(createdAt.getTime() + lease.ttlMs);
  const { row, created } = request.scheduled
    ? await claimScheduled(deps, request.scheduled, {
        at: createdAt,
        owner: lease.owner,
        leaseUntil,
        recipients: [...plan.recipients],
        segments: plan.totalSegments,
        estimatedCost: plan.estimatedCost,
        // When it was handed on: the gateway check looks for it around then, not around its scheduling.
        payload: { ...payload, ...request.scheduled.keep, claimedAt: createdAt.toISOString() },
      })
    : await deps.store.outbox.createPending({
        idempotencyKey: request.idempotencyKey,
        slackUser: request.slackUser,
        channel: request.channel,
        ...outboxContentOf(plan),
        payload,
        at: createdAt,
        owner: lease.owner,
        leaseUntil,
        campaign: request.campaign ?? null,
      });
  const log = deps.logger.child({ outboxId: row.id, user: request.slackUser });
  if (!created) {
    log.info({ state: row.state }, 'send repeated with the same key: not sent again');
    return { kind: 'duplicate', row };
  }
  if (check.refusal) return refuseSend(deps, row, request, check.refusal);

  const heartbeat = keepLease(deps.store, row.id, lease, deps.now, log);
  try {
    let messageId: number;
    try {
      ({ messageId } = plan.envelopes
        ? await deps.gateway.submitMulti({
            from: plan.sender,
            envelopes: plan.envelopes,
            dataCoding: plan.dataCoding,
            validityMinutes: plan.validityMinutes,
          })
        : await deps.gateway.submit({
            from: plan.sender,
            to: plan.recipients,
            message: plan.text,
            dataCoding: plan.dataCoding,
            validityMinutes: plan.validityMinutes,
          }));
    } catch (error) {
      return await recordNoMessageId(deps, row, error, log);
    }
    // Before any store write: should the store never take it, this line still holds the MessageId.
    log.info(
      { messageId, recipients: plan.recipients.length, segments: plan.totalSegments },
      'gateway accepted the SMS batch',
    );
    const landing = await recordMessageId(deps, row.id, String(messageId), log);
    if (landing.kind !== 'already') {
      await untilStored(deps, log, messageId, 'audit entry', () =>
        deps.store.audit.append({
          actor: request.slackUser,
          action: 'send',
          target: String(messageId),
          details: {
            recipients: plan.recipients.length,
            segments: plan.totalSegments,
            sender: plan.sender,
            estimatedCost: plan.estimatedCost,
            channel: request.channel,
            outboxId: row.id,
            ...(landing.kind === 'late'
              ? { resolved: `late: the send had been marked ${landing.was} (${landing.reason})` }
              : {}),
            ...(landing.kind === 'conflict' ? { unrecorded: landing.reason } : {}),
          },
          at: deps.now(),
        }),
      );
    }
    log.info(
      {
        messageId,
        recipients: plan.recipients.length,
        segments: plan.totalSegments,
        ...(landing.kind === 'late' ? { resolvedLate: true } : {}),
      },
      'SMS batch submitted',
    );
    const fresh = await deps.store.outbox.get(row.id).catch(() => undefined);
    return { kind: 'submitted', row: fresh ?? row, messageId, late: landing.kind === 'late' };
  } finally {
    heartbeat.stop();
  }
}

/** The payload of an outbox row: how the send goes out, and who was left out at sending. */
export function outboxPayloadOf(
  request: Pick<SendRequest, 'plan' | 'threadTs'>,
  optedOut: readonly string[] = [],
): { [key: string]: JsonValue } {
  const { plan } = request;
  return {
    mode: plan.envelopes ? 'personalised' : 'same',
    validityMinutes: plan.validityMinutes,
    dataCoding: plan.dataCoding,
    threadTs: request.threadTs ?? null,
    ...(optedOut.length > 0 ? { optedOutAtSending: [...optedOut] } : {}),
    ...(plan.envelopes ? { envelopes: plan.envelopes.map((e) => ({ to: e.to, message: e.message })) } : {}),
  };
}

/** The claim of a scheduled send, shaped as createPending's answer: the row, and whether this call won it. */
async function claimScheduled(
  deps: SendDeps,
  scheduled: NonNullable<SendRequest['scheduled']>,
  claim: Omit<Parameters<Store['outbox']['claimScheduled']>[1], 'from' | 'dueBy'>,
): Promise<{ row: OutboxRow; created: boolean }> {
  const claimed = await deps.store.outbox.claimScheduled(scheduled.outboxId, {
    ...claim,
    from: scheduled.from,
    ...(scheduled.dueBy ? { dueBy: scheduled.dueBy } : {}),
    ...(scheduled.unchangedSince ? { unchangedSince: scheduled.unchangedSince } : {}),
  });
  if (claimed) return { row: claimed, created: true };
  const current = await deps.store.outbox.get(scheduled.outboxId);
  if (!current) throw new Error(`scheduled send ${scheduled.outboxId} is gone from the outbox`);
  return { row: current, created: false };
}

type Landing =
  | { kind: 'on-time' }
  | { kind: 'late'; was: string; reason: string }
  /** Someone else recorded this very MessageId first (a person confirming it from the gateway). */
  | { kind: 'already' }
  | { kind: 'conflict'; reason: string };

/**
 * The MessageId goes on the send whatever happened meanwhile: `pending` to `submitted` as usual, or, when
 * the send was taken for abandoned (or marked not sent) while the reply was on its way, `submitted` all the
 * same, as resolved late. Retried until the store takes it.
 */
async function recordMessageId(
  deps: SendDeps,
  outboxId: number,
  messageId: string,
  log: Logger,
): Promise<Landing> {
  let landing: Landing = { kind: 'on-time' };
  let earlierAttemptFailed = false;
  const attempt = async (): Promise<Landing> => {
    if (await deps.store.outbox.markSubmitted(outboxId, messageId, { at: deps.now() })) return landing;
    const current = await deps.store.outbox.get(outboxId);
    if (current?.state === 'submitted' && current.messageId === messageId) {
      // An earlier attempt of ours went through before its reply was lost, or a person recorded it first.
      return earlierAttemptFailed ? landing : { kind: 'already' };
    }
    if (
      current &&
      current.messageId === null &&
      (current.state === 'unknown' || current.state === 'failed')
    ) {
      const was = current.state === 'unknown' ? 'state unknown' : 'not sent';
      landing = { kind: 'late', was, reason: current.reason ?? 'no reason recorded' };
      const note = `The gateway's reply came late: this send had been marked ${was}.`;
      if (await deps.store.outbox.resolveSubmitted(outboxId, messageId, { note, at: deps.now() })) {
        log.warn(
          { messageId, was: current.state },
          'MessageId arrived late and was recorded: the send is submitted',
        );
        return landing;
      }
      throw new Error(`the send changed while its MessageId ${messageId} was being recorded`);
    }
    const reason = current
      ? `the send is ${current.state}${current.messageId ? ` with MessageId ${current.messageId}` : ''}`
      : 'the send is gone from the outbox';
    log.error({ messageId, reason }, 'MessageId could not be put on its send; it is kept in the audit log');
    return { kind: 'conflict', reason };
  };
  return untilStored(deps, log, messageId, 'MessageId', () =>
    attempt().catch((error: unknown) => {
      earlierAttemptFailed = true;
      throw error;
    }),
  );
}

/** Retries a store write that must not be lost, logging each failure with the MessageId it carries. */
async function untilStored<T>(
  deps: SendDeps,
  log: Logger,
  messageId: string | number,
  what: string,
  write: () => Promise<T>,
): Promise<T> {
  const { baseDelayMs, maxDelayMs } = deps.storeRetry ?? STORE_RETRY;
  for (let attempt = 0; ; attempt++) {
    try {
      return await write();
    } catch (error) {
      const delayMs = Math.min(maxDelayMs, baseDelayMs * 2 ** Math.min(attempt, 20));
      log.error(
        {
          messageId,
          attempt: attempt + 1,
          retryInMs: delayMs,
          err: error instanceof Error ? error.message : String(error),
        },
        `${what} of an accepted SMS batch not stored yet; retrying`,
      );
      await sleep(delayMs);
    }
  }
}

/**
 * No MessageId came back. A refusal, or a call that provably never left, ends the send as failed; anything
 * else may have reached the gateway and leaves it unknown. A send already taken for abandoned meanwhile
 * is unknown; a definite "not sent" still settles it.
 */
async function recordNoMessageId(
  deps: SendDeps,
  row: OutboxRow,
  error: unknown,
  log: Logger,
): Promise<SendOutcome> {
  const settleNotSent = async (reason: string) => {
    if (await deps.store.outbox.markFailed(row.id, reason, deps.now())) return;
    if (await deps.store.outbox.resolveNotSent(row.id, reason, deps.now())) return;
    const current = await deps.store.outbox.get(row.id);
    log.warn({ state: current?.state, reason }, 'send not recorded as failed: it changed meanwhile');
  };
  if (error instanceof GatewayRejected) {
    const reason = `${error.description} (code ${error.code})`;
    await settleNotSent(reason);
    log.info({ code: error.code }, 'SMS batch rejected by the gateway');
    return { kind: 'rejected', row, code: error.code, description: error.description };
  }
  // Kept with the row and shown on its card: whatever the error, no secret goes with it.
  const reason = scrubSecrets(error instanceof Error ? error.message : String(error));
  if (error instanceof GatewayError && !error.sentMaybe) {
    await settleNotSent(`not sent: ${reason}`);
    log.warn({ reason }, 'SMS batch not sent: it never reached the gateway');
    return { kind: 'not-sent', row, reason };
  }
  // It may have arrived: the row stays for a person to reconcile, never for an automatic resend.
  if (!(await deps.store.outbox.markUnknown(row.id, reason, deps.now()))) {
    const current = await deps.store.outbox.get(row.id);
    if (current?.state !== 'unknown') {
      log.warn({ state: current?.state, reason }, 'send not recorded as unknown: it changed meanwhile');
    }
  }
  log.warn({ reason }, 'SMS batch state unknown: the gateway may have accepted it');
  return { kind: 'unknown', row, reason };
}
