import type { DataCoding } from '../gateway/index.js';
import type { Logger } from '../log.js';
import type { JsonValue, OutboxRow, Store } from '../store/index.js';
import { campaignKeyOfClaim } from './scheduled-campaign.js';
import { outboxContentOf, outboxPayloadOf, type SendPlan, type SendRequest } from './send.js';

/** A scheduled send is at least this far ahead when it is saved… */
export const SCHEDULE_MIN_AHEAD_MS = 2 * 60_000;
/** …and at most this far. */
export const SCHEDULE_MAX_AHEAD_MS = 90 * 24 * 60 * 60_000;

/** What a scheduled send remembers besides the send itself: shown on its card, used to edit it. */
export interface ScheduleInfo {
  /** The author's IANA zone when it was scheduled: its time is shown in it everywhere. */
  timeZone: string;
  /** What the compose modal held, so that Edit reopens it as it was. */
  input?: { [key: string]: JsonValue };
}

/** Why a time cannot be scheduled, or undefined when it can. */
export function scheduleWindowProblem(dueAt: Date, now: Date): 'too-soon' | 'too-far' | undefined {
  const ahead = dueAt.getTime() - now.getTime();
  if (ahead < SCHEDULE_MIN_AHEAD_MS) return 'too-soon';
  if (ahead > SCHEDULE_MAX_AHEAD_MS) return 'too-far';
  return undefined;
}

export function scheduleOf(row: Pick<OutboxRow, 'payload'>): ScheduleInfo | undefined {
  const payload = row.payload as { schedule?: unknown } | null;
  const schedule = payload?.schedule as { timeZone?: unknown; input?: unknown } | undefined;
  if (!schedule || typeof schedule.timeZone !== 'string') return undefined;
  const input =
    schedule.input && typeof schedule.input === 'object' && !Array.isArray(schedule.input)
      ? (schedule.input as { [key: string]: JsonValue })
      : undefined;
  return { timeZone: schedule.timeZone, ...(input ? { input } : {}) };
}

function schedulePayload(
  request: Pick<SendRequest, 'plan' | 'threadTs'>,
  schedule: ScheduleInfo,
): { [key: string]: JsonValue } {
  return {
    ...outboxPayloadOf(request),
    schedule: { timeZone: schedule.timeZone, ...(schedule.input ? { input: schedule.input } : {}) },
  };
}

export interface ScheduleDeps {
  store: Store;
  logger: Logger;
  now: () => Date;
}

/**
 * Saves a send to be made at `dueAt`: an outbox row in state `scheduled`, keyed like an immediate send so
 * that a repeated submission finds the first one. Nothing is checked against the gateway now: everything
 * is checked again when it goes (see executeSend).
 */
export async function scheduleSend(
  deps: ScheduleDeps,
  request: Omit<SendRequest, 'scheduled' | 'checkBalance'>,
  dueAt: Date,
  schedule: ScheduleInfo,
): Promise<{ row: OutboxRow; created: boolean }> {
  const { plan } = request;
  const at = deps.now();
  const result = await deps.store.outbox.createScheduled({
    idempotencyKey: request.idempotencyKey,
    slackUser: request.slackUser,
    channel: request.channel,
    ...outboxContentOf(plan),
    payload: schedulePayload(request, schedule),
    at,
    dueAt,
  });
  if (result.created) {
    await deps.store.audit.append({
      actor: request.slackUser,
      action: 'schedule',
      target: `outbox ${result.row.id}`,
      details: {
        dueAt: dueAt.toISOString(),
        timeZone: schedule.timeZone,
        recipients: plan.recipients.length,
        estimatedCost: plan.estimatedCost,
        channel: request.channel,
      },
      at,
    });
    deps.logger.info({ outboxId: result.row.id, dueAt: dueAt.toISOString() }, 'send scheduled');
  }
  return result;
}

/** An edit: the same row gets the new content and time, and waits again; false once it has gone or was cancelled. */
export async function rescheduleSend(
  deps: ScheduleDeps,
  outboxId: number,
  actor: string,
  request: Pick<SendRequest, 'plan' | 'threadTs'>,
  dueAt: Date,
  schedule: ScheduleInfo,
): Promise<boolean> {
  const { plan } = request;
  const at = deps.now();
  const changed = await deps.store.outbox.reschedule(outboxId, {
    ...outboxContentOf(plan),
    payload: schedulePayload(request, schedule),
    dueAt,
    at,
  });
  if (changed) {
    await deps.store.audit.append({
      actor,
      action: 'schedule_edit',
      target: `outbox ${outboxId}`,
      details: { dueAt: dueAt.toISOString(), recipients: plan.recipients.length },
      at,
    });
  }
  return changed;
}

/** Cancels a send that has not gone yet; false when it already went or was cancelled. */
export async function cancelScheduledSend(
  deps: ScheduleDeps,
  outboxId: number,
  by: string,
): Promise<boolean> {
  const at = deps.now();
  const cancelled = await deps.store.outbox.cancelScheduled(outboxId, by, at);
  if (cancelled) {
    await deps.store.audit.append({ actor: by, action: 'schedule_cancel', target: `outbox ${outboxId}`, at });
  }
  return cancelled;
}

/** The plan a scheduled row holds, as the compose built it. */
export function planOf(row: OutboxRow): SendPlan {
  const payload = (row.payload ?? {}) as {
    validityMinutes?: number;
    dataCoding?: DataCoding;
    envelopes?: { to: string; message: string }[];
  };
  return {
    sender: row.sender ?? '',
    recipients: row.recipients,
    ...(payload.envelopes ? { envelopes: payload.envelopes } : {}),
    text: row.text,
    encoding: row.encoding,
    dataCoding: payload.dataCoding ?? 'Default',
    validityMinutes: payload.validityMinutes ?? 1440,
    totalSegments: row.segments,
    estimatedCost: row.estimatedCost ?? 0,
  };
}

/**
 * The send request of a scheduled row when it goes: the same entry point as an immediate send, with the
 * row to claim instead of one to create, and the balance asked first (it was composed long ago).
 * `dueBy` is set by the job (only a send due by then); Send now leaves it unset and may take a held one.
 */
export function requestOfScheduled(row: OutboxRow, how: { dueBy?: Date; sendNow?: boolean }): SendRequest {
  const payload = (row.payload ?? {}) as { threadTs?: string | null; schedule?: JsonValue };
  return {
    idempotencyKey: row.idempotencyKey,
    slackUser: row.slackUser,
    channel: row.channel ?? row.slackUser,
    ...(payload.threadTs ? { threadTs: payload.threadTs } : {}),
    plan: planOf(row),
    checkBalance: true,
    scheduled: {
      outboxId: row.id,
      from: how.sendNow ? ['scheduled', 'held'] : ['scheduled'],
      ...(how.dueBy ? { dueBy: how.dueBy } : {}),
      unchangedSince: row.updatedAt,
      keep: payload.schedule ? { schedule: payload.schedule } : {},
      ...(campaignKeyOfClaim(row) !== undefined ? { asCampaign: true } : {}),
    },
  };
}
