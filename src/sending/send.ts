import { type DataCoding, type Gateway, GatewayError, GatewayRejected } from '../gateway/index.js';
import type { Logger } from '../log.js';
import { scrubSecrets } from '../secrets.js';
import type { OutboxRow, Store } from '../store/index.js';
import { checkAtSending, refuseSend, type SendPolicy, type SendRefusal } from './checks.js';

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
}

export type SendOutcome =
  | { kind: 'submitted'; row: OutboxRow; messageId: number }
  | { kind: 'rejected'; row: OutboxRow; code: number; description: string }
  | { kind: 'not-sent'; row: OutboxRow; reason: string }
  | { kind: 'unknown'; row: OutboxRow; reason: string }
  | { kind: 'duplicate'; row: OutboxRow }
  | { kind: 'refused'; row: OutboxRow; refusal: SendRefusal };

export interface SendDeps {
  gateway: Gateway;
  store: Store;
  logger: Logger;
  now: () => Date;
  /** Roles and limits as they are at the moment of sending. */
  policy: SendPolicy;
}

/**
 * The one path by which an SMS leaves: role, text, opt-outs and limits are checked again (checks.ts),
 * the outbox row is written, then the gateway is called once. A call that may have reached the
 * gateway leaves the row `unknown`; nothing resends it.
 */
export async function executeSend(deps: SendDeps, requested: SendRequest): Promise<SendOutcome> {
  // Before the row, so that it records what is really sent (opted-out numbers left out); a refusal is
  // recorded on the row below, so that a repeated confirm still finds the first one.
  const check = await checkAtSending(deps, requested);
  const { request } = check;
  const { plan } = request;
  const { row, created } = await deps.store.outbox.createPending({
    idempotencyKey: request.idempotencyKey,
    slackUser: request.slackUser,
    channel: request.channel,
    sender: plan.sender,
    recipients: [...plan.recipients],
    text: plan.text,
    segments: plan.totalSegments,
    encoding: plan.encoding,
    estimatedCost: plan.estimatedCost,
    payload: {
      mode: plan.envelopes ? 'personalised' : 'same',
      validityMinutes: plan.validityMinutes,
      dataCoding: plan.dataCoding,
      threadTs: request.threadTs ?? null,
      ...(check.optedOut.length > 0 ? { optedOutAtSending: [...check.optedOut] } : {}),
      ...(plan.envelopes ? { envelopes: plan.envelopes.map((e) => ({ to: e.to, message: e.message })) } : {}),
    },
    at: deps.now(),
  });
  const log = deps.logger.child({ outboxId: row.id, user: request.slackUser });
  if (!created) {
    log.info({ state: row.state }, 'send repeated with the same key: not sent again');
    return { kind: 'duplicate', row };
  }
  if (check.refusal) return refuseSend(deps, row, request, check.refusal);

  try {
    const { messageId } = plan.envelopes
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
        });
    await deps.store.outbox.markSubmitted(row.id, String(messageId), { at: deps.now() });
    await deps.store.audit.append({
      actor: request.slackUser,
      action: 'send',
      target: String(messageId),
      details: {
        recipients: plan.recipients.length,
        segments: plan.totalSegments,
        sender: plan.sender,
        estimatedCost: plan.estimatedCost,
        channel: request.channel,
      },
      at: deps.now(),
    });
    log.info(
      { messageId, recipients: plan.recipients.length, segments: plan.totalSegments },
      'SMS batch submitted',
    );
    return { kind: 'submitted', row: (await deps.store.outbox.get(row.id)) ?? row, messageId };
  } catch (error) {
    if (error instanceof GatewayRejected) {
      const reason = `${error.description} (code ${error.code})`;
      await deps.store.outbox.markFailed(row.id, reason, deps.now());
      log.info({ code: error.code }, 'SMS batch rejected by the gateway');
      return { kind: 'rejected', row, code: error.code, description: error.description };
    }
    // Kept with the row and shown on its card: whatever the error, no secret goes with it.
    const reason = scrubSecrets(error instanceof Error ? error.message : String(error));
    if (error instanceof GatewayError && !error.sentMaybe) {
      await deps.store.outbox.markFailed(row.id, `not sent: ${reason}`, deps.now());
      log.warn({ reason }, 'SMS batch not sent: it never reached the gateway');
      return { kind: 'not-sent', row, reason };
    }
    // It may have arrived: the row stays for a person to reconcile, never for an automatic resend.
    await deps.store.outbox.markUnknown(row.id, reason, deps.now());
    log.warn({ reason }, 'SMS batch state unknown: the gateway may have accepted it');
    return { kind: 'unknown', row, reason };
  }
}
