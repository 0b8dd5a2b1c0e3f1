import type { Gateway } from '../gateway/index.js';
import type { Logger } from '../log.js';
import { formatCost } from '../money.js';
import { analyzeText, encodingOf, type UnsendableCharacter, unsendableCharacters } from '../sms/index.js';
import type { OutboxRow, Store } from '../store/index.js';
import type { SendDeps, SendOutcome, SendPlan, SendRequest } from './send.js';

/**
 * What the send path asks of the present moment. Roles and limits live outside `sending/` (roles are
 * Slack users, limits are configuration); they are read again at every send, never carried over
 * from the compose.
 */
export interface SendPolicy {
  /** Whether this user may send now. */
  maySend(slackUser: string): Promise<boolean>;
  /** MAX_RECIPIENTS and MAX_SEGMENTS as they are now. */
  limits(): { maxRecipients: number; maxSegments: number };
}

/** Why a send was refused at the moment of sending; nothing reached the gateway. */
export type SendRefusal =
  | { kind: 'role' }
  | { kind: 'all-opted-out'; optedOut: readonly string[] }
  | { kind: 'too-many-recipients'; recipients: number; limit: number }
  | { kind: 'too-many-segments'; segments: number; limit: number }
  | { kind: 'unsendable-text'; recipient?: string; characters: readonly UnsendableCharacter[] }
  /** Asked of scheduled sends: the usable balance is below the estimated cost of what is left to send. */
  | { kind: 'balance-short'; needed: number; usable: number };

export interface SendCheck {
  /** The request to send: opted-out numbers left out, segments and cost counted for what is left. */
  request: SendRequest;
  /** Numbers that opted out after the send was composed: left out, never sent to. */
  optedOut: readonly string[];
  refusal?: SendRefusal;
}

function firstUnsendable(plan: SendPlan): SendRefusal | undefined {
  const messages = plan.envelopes ?? [{ to: undefined, message: plan.text }];
  for (const { to, message } of messages) {
    const characters = unsendableCharacters(message);
    if (characters.length > 0) {
      return { kind: 'unsendable-text', characters, ...(to === undefined ? {} : { recipient: to }) };
    }
  }
  return undefined;
}

/** Segments of the longest message and of the whole send, counted in the coding it goes out in. */
function segmentsOf(plan: SendPlan): { perMessage: number; total: number } {
  const encoding = encodingOf(plan.dataCoding);
  const count = (message: string) => analyzeText(message, { encoding }).segments;
  if (!plan.envelopes) {
    const perMessage = count(plan.text);
    return { perMessage, total: perMessage * plan.recipients.length };
  }
  let perMessage = 0;
  let total = 0;
  for (const { message } of plan.envelopes) {
    const segments = count(message);
    perMessage = Math.max(perMessage, segments);
    total += segments;
  }
  return { perMessage, total };
}

function withoutNumbers(plan: SendPlan, numbers: ReadonlySet<string>): SendPlan {
  const envelopes = plan.envelopes?.filter((e) => !numbers.has(e.to));
  return {
    ...plan,
    recipients: plan.recipients.filter((r) => !numbers.has(r)),
    ...(envelopes ? { envelopes } : {}),
  };
}

/**
 * Checked again when the gateway is about to be called, however long ago the send was composed: the
 * sender's role, the text, opt-outs and the limits. Numbers that opted out meanwhile are left out and
 * the rest is sent, as the composer itself does (a send to fewer people costs less, never more, than
 * what was confirmed); a refusal sends nothing at all.
 */
export async function checkAtSending(
  deps: {
    policy: SendPolicy;
    store: Pick<Store, 'optOuts'>;
    logger: Logger;
    /** Asked for the usable balance only when the request says checkBalance. */
    gateway?: Pick<Gateway, 'getBalance'>;
  },
  request: SendRequest,
): Promise<SendCheck> {
  const refused = (refusal: SendRefusal, optedOut: readonly string[] = []): SendCheck => ({
    request,
    optedOut,
    refusal,
  });
  if (!(await deps.policy.maySend(request.slackUser))) return refused({ kind: 'role' });
  const unsendable = firstUnsendable(request.plan);
  if (unsendable) return refused(unsendable);

  const found = await deps.store.optOuts.hasMany([...request.plan.recipients]);
  const optedOut = request.plan.recipients.filter((r) => found.has(r));
  if (optedOut.length === request.plan.recipients.length) {
    return refused({ kind: 'all-opted-out', optedOut }, optedOut);
  }
  const left = optedOut.length > 0 ? withoutNumbers(request.plan, found) : request.plan;
  const segments = segmentsOf(left);
  const limits = deps.policy.limits();
  if (left.recipients.length > limits.maxRecipients) {
    return refused(
      { kind: 'too-many-recipients', recipients: left.recipients.length, limit: limits.maxRecipients },
      optedOut,
    );
  }
  if (segments.perMessage > limits.maxSegments) {
    return refused(
      { kind: 'too-many-segments', segments: segments.perMessage, limit: limits.maxSegments },
      optedOut,
    );
  }
  if (left === request.plan) return withBalance(deps, { request, optedOut });
  deps.logger.info(
    { user: request.slackUser, key: request.idempotencyKey, optedOut: optedOut.length },
    'numbers that opted out since the compose are left out of the send',
  );
  // The price per segment the user saw when they confirmed, applied to what is really sent.
  const price = request.plan.totalSegments > 0 ? request.plan.estimatedCost / request.plan.totalSegments : 0;
  const plan: SendPlan = { ...left, totalSegments: segments.total, estimatedCost: segments.total * price };
  return withBalance(deps, { request: { ...request, plan }, optedOut });
}

/**
 * A send made long after it was composed (a scheduled one) asks the gateway's usable balance first: below
 * the estimated cost of what is left to send, nothing goes. A balance that cannot be read stops nothing:
 * the gateway refuses a send it cannot pay for, and that refusal is shown.
 */
async function withBalance(
  deps: { gateway?: Pick<Gateway, 'getBalance'>; logger: Logger },
  check: SendCheck,
): Promise<SendCheck> {
  const { request } = check;
  if (!request.checkBalance || !deps.gateway) return check;
  let usable: number;
  try {
    usable = (await deps.gateway.getBalance()).usable;
  } catch (error) {
    deps.logger.warn(
      { key: request.idempotencyKey, err: error instanceof Error ? error.message : String(error) },
      'balance not read before a scheduled send; sending, the gateway refuses what it cannot pay for',
    );
    return check;
  }
  const needed = request.plan.estimatedCost;
  if (usable >= needed) return check;
  return { ...check, refusal: { kind: 'balance-short', needed, usable } };
}

/** One line for the outbox row and the log: what stopped the send. */
export function refusalReason(refusal: SendRefusal): string {
  switch (refusal.kind) {
    case 'role':
      return 'the user no longer has the sender role';
    case 'all-opted-out':
      return `every recipient opted out (${refusal.optedOut.length})`;
    case 'too-many-recipients':
      return `${refusal.recipients} recipients, more than MAX_RECIPIENTS (${refusal.limit})`;
    case 'too-many-segments':
      return `${refusal.segments} segments per message, more than MAX_SEGMENTS (${refusal.limit})`;
    case 'unsendable-text': {
      const first = refusal.characters[0]!;
      return `character ${first.position} of the text cannot be sent (${first.kind})`;
    }
    case 'balance-short':
      return `the usable balance (${formatCost(refusal.usable)}) is below the estimated cost (${formatCost(refusal.needed)})`;
  }
}

/** The row written for a refused send ends failed, with the reason, in the audit log too; nothing was sent. */
export async function refuseSend(
  deps: SendDeps,
  row: OutboxRow,
  request: SendRequest,
  refusal: SendRefusal,
): Promise<SendOutcome> {
  const reason = `refused at sending: ${refusalReason(refusal)}`;
  await deps.store.outbox.markFailed(row.id, reason, deps.now());
  await deps.store.audit.append({
    actor: request.slackUser,
    action: 'send_refused',
    target: `outbox ${row.id}`,
    details: { reason, recipients: request.plan.recipients.length, channel: request.channel },
    at: deps.now(),
  });
  deps.logger.info(
    { outboxId: row.id, user: request.slackUser, refusal: refusal.kind },
    'send refused at the moment of sending: the gateway was not called',
  );
  return { kind: 'refused', row: (await deps.store.outbox.get(row.id)) ?? row, refusal };
}
