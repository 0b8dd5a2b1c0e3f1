import type { Expression, ExpressionBuilder, Selectable, SqlBool, Updateable } from 'kysely';
import {
  fromJson,
  fromMillis,
  fromMillisOrNull,
  gatewayIdText,
  jsonStringPattern,
  newToken,
  toJson,
  toMillis,
  toMillisOrNull,
} from '../codec.js';
import type { RepoContext } from '../context.js';
import type { Database, OutboxTable } from '../schema.js';
import type { AbandonedTest, JsonValue, OutboxRepo, OutboxRow, OutboxState, SendIntent } from '../types.js';

type Row = Selectable<OutboxTable>;

export function toRow(r: Row): OutboxRow {
  return {
    id: Number(r.id),
    idempotencyKey: r.idempotency_key,
    slackUser: r.slack_user,
    channel: r.channel,
    messageTs: r.message_ts,
    sender: r.sender,
    recipients: fromJson<string[]>(r.recipients) ?? [],
    recipientCount: r.recipient_count,
    text: r.body,
    segments: r.segments,
    encoding: r.encoding,
    estimatedCost: r.estimated_cost,
    payload: fromJson<JsonValue>(r.payload),
    state: r.state as OutboxState,
    messageId: r.message_id,
    reason: r.reason,
    createdAt: fromMillis(r.created_at),
    updatedAt: fromMillis(r.updated_at),
    submittedAt: fromMillisOrNull(r.submitted_at),
    delivery: {
      delivered: r.delivered,
      undelivered: r.undelivered,
      count: r.delivery_count,
      state: r.delivery_state,
      final: r.final === 1,
      lastPolledAt: fromMillisOrNull(r.last_polled_at),
      nextPollAt: fromMillisOrNull(r.next_poll_at),
    },
    cancelledAt: fromMillisOrNull(r.cancelled_at),
    cancelledBy: r.cancelled_by,
    redactedAt: fromMillisOrNull(r.redacted_at),
    owner: r.owner,
    leaseUntil: fromMillisOrNull(r.lease_until),
    dueAt: fromMillisOrNull(r.due_at),
    campaignId: r.campaign_id === null ? null : Number(r.campaign_id),
    campaignChunk: r.campaign_chunk,
  };
}

// Rows rewritten per round of a purge: each is its own UPDATE, and a round is retried as a whole.
const PURGE_BATCH = 200;

interface Envelope {
  to?: unknown;
}

/**
 * The payload without the personalised envelopes whose recipient `keep` refuses (all of them by default),
 * and without what a scheduled send kept of its compose modal for Edit (numbers and text as typed).
 */
function payloadKeeping(payload: string | null, keep: (envelope: Envelope) => boolean = () => false) {
  const value = fromJson<JsonValue>(payload);
  if (!value || typeof value !== 'object' || Array.isArray(value)) return payload;
  const schedule = value.schedule;
  const typed = schedule && typeof schedule === 'object' && !Array.isArray(schedule) && 'input' in schedule;
  if (!Array.isArray(value.envelopes) && !typed) return payload;
  const { envelopes: _, schedule: __, ...rest } = value;
  const kept = Array.isArray(value.envelopes)
    ? ((value.envelopes as Envelope[]).filter(keep) as JsonValue[])
    : [];
  const withoutInput =
    schedule && typeof schedule === 'object' && !Array.isArray(schedule)
      ? (({ input: ___, ...other }) => other)(schedule)
      : schedule;
  return JSON.stringify({
    ...rest,
    ...(schedule !== undefined ? { schedule: withoutInput } : {}),
    ...(kept.length > 0 ? { envelopes: kept } : {}),
  });
}

type Condition = (eb: ExpressionBuilder<Database, 'outbox'>) => Expression<SqlBool>;

const notFinal: Condition = (eb) => eb('final', '=', 0);

/** Batches the tracker asks the gateway about: sent ones, and cancelled ones until their last report is in. */
const POLLED_STATES: OutboxState[] = ['submitted', 'cancelled'];

/** A pending send whose owner stopped renewing its lease, or an old row without a lease that is past its age. */
const abandoned =
  (test: AbandonedTest): Condition =>
  (eb) =>
    eb.or([
      eb.and([eb('lease_until', 'is not', null), eb('lease_until', '<', toMillis(test.now))]),
      eb.and([eb('lease_until', 'is', null), eb('created_at', '<', toMillis(test.unleasedBefore))]),
    ]);

/** A send cancelled (or closed for good) by `by` at `ms`: final, never polled again. */
const cancelledBy = (by: string, ms: number) =>
  ({
    state: 'cancelled',
    cancelled_at: ms,
    cancelled_by: by,
    updated_at: ms,
    final: 1,
    next_poll_at: null,
  }) as const;

const isCancelledBy = (by: string, ms: number) => (row: Row) =>
  row.state === 'cancelled' && row.cancelled_by === by && Number(row.cancelled_at) === ms;

export function outboxRepo(ctx: RepoContext): OutboxRepo {
  const { db } = ctx;
  const byId = (id: number) => db.selectFrom('outbox').selectAll().where('id', '=', id).executeTakeFirst();

  /**
   * One conditional UPDATE moves the send out of one of `from`; the caller that changed the row wins.
   * After a retry, `isMine` recognises a change this call made on an attempt whose reply was lost.
   */
  function transition(
    id: number,
    from: OutboxState[],
    set: Updateable<OutboxTable>,
    isMine: (row: Row) => boolean,
    extra?: Condition,
  ): Promise<boolean> {
    return ctx.run(async (attempt) => {
      let query = db.updateTable('outbox').set(set).where('id', '=', id).where('state', 'in', from);
      if (extra) query = query.where(extra);
      const changed = await query.returning('id').executeTakeFirst();
      if (changed) return true;
      if (attempt === 0) return false;
      const row = await byId(id);
      return row !== undefined && isMine(row);
    });
  }

  /** A new send, idempotent on its key: `pending` (about to be sent) or `scheduled` (due at `dueAt`). */
  function create(intent: SendIntent, state: 'pending' | 'scheduled', dueAt: Date | null) {
    const at = toMillis(intent.at ?? ctx.now());
    const token = newToken();
    return ctx.run(async () => {
      const inserted = await db
        .insertInto('outbox')
        .values({
          idempotency_key: intent.idempotencyKey,
          create_token: token,
          slack_user: intent.slackUser,
          channel: intent.channel ?? null,
          message_ts: null,
          sender: intent.sender ?? null,
          recipients: JSON.stringify(intent.recipients),
          recipient_count: intent.recipients.length,
          body: intent.text,
          segments: intent.segments,
          encoding: intent.encoding,
          estimated_cost: intent.estimatedCost ?? null,
          payload: toJson(intent.payload),
          state,
          message_id: null,
          reason: null,
          created_at: at,
          updated_at: at,
          submitted_at: null,
          delivered: 0,
          undelivered: 0,
          delivery_count: 0,
          delivery_state: null,
          final: 0,
          last_polled_at: null,
          next_poll_at: null,
          cancelled_at: null,
          cancelled_by: null,
          redacted_at: null,
          owner: intent.owner ?? null,
          lease_until: toMillisOrNull(intent.leaseUntil),
          due_at: toMillisOrNull(dueAt),
          campaign_id: intent.campaign?.id ?? null,
          campaign_chunk: intent.campaign?.chunk ?? null,
        })
        .onConflict((oc) => oc.column('idempotency_key').doNothing())
        .returningAll()
        .executeTakeFirst();
      if (inserted) return { row: toRow(inserted), created: true };
      const existing = await db
        .selectFrom('outbox')
        .selectAll()
        .where('idempotency_key', '=', intent.idempotencyKey)
        .executeTakeFirstOrThrow();
      return { row: toRow(existing), created: existing.create_token === token };
    });
  }

  return {
    createPending: (intent) => create(intent, 'pending', null),

    createScheduled: (intent) => create(intent, 'scheduled', intent.dueAt),

    claimScheduled: (id, claim) =>
      ctx.run(async (attempt) => {
        const at = toMillis(claim.at);
        const owner = claim.owner;
        const leaseUntil = toMillisOrNull(claim.leaseUntil);
        let query = db
          .updateTable('outbox')
          .set({
            state: 'pending',
            recipients: JSON.stringify(claim.recipients),
            recipient_count: claim.recipients.length,
            segments: claim.segments,
            estimated_cost: claim.estimatedCost,
            payload: toJson(claim.payload),
            owner,
            lease_until: leaseUntil,
            updated_at: at,
          })
          .where('id', '=', id)
          .where('state', 'in', [...claim.from]);
        if (claim.dueBy) query = query.where('due_at', '<=', toMillis(claim.dueBy));
        if (claim.unchangedSince) query = query.where('updated_at', '=', toMillis(claim.unchangedSince));
        const claimed = await query.returningAll().executeTakeFirst();
        if (claimed) return toRow(claimed);
        if (attempt === 0) return undefined;
        // A retry after a lost reply: the claim this call made is recognised by its owner and time.
        const row = await byId(id);
        return row && row.state !== 'scheduled' && row.owner === owner && Number(row.updated_at) === at
          ? toRow(row)
          : undefined;
      }),

    holdLate(id, lateBefore, reason, at) {
      const ms = toMillis(at);
      return transition(
        id,
        ['scheduled'],
        { state: 'held', reason, updated_at: ms },
        (row) => row.state === 'held' && Number(row.updated_at) === ms,
        (eb) => eb('due_at', '<', toMillis(lateBefore)),
      );
    },

    reschedule(id, u) {
      const ms = toMillis(u.at);
      return transition(
        id,
        ['scheduled', 'held'],
        {
          state: 'scheduled',
          sender: u.sender,
          recipients: JSON.stringify(u.recipients),
          recipient_count: u.recipients.length,
          body: u.text,
          segments: u.segments,
          encoding: u.encoding,
          estimated_cost: u.estimatedCost,
          payload: toJson(u.payload),
          due_at: toMillis(u.dueAt),
          reason: null,
          updated_at: ms,
        },
        (row) => row.state === 'scheduled' && Number(row.updated_at) === ms,
      );
    },

    cancelScheduled(id, by, at) {
      const ms = toMillis(at);
      return transition(
        id,
        ['scheduled', 'held'],
        { state: 'cancelled', cancelled_at: ms, cancelled_by: by, updated_at: ms, final: 1 },
        (row) => row.state === 'cancelled' && row.cancelled_by === by && Number(row.cancelled_at) === ms,
      );
    },

    dueScheduled: (now, limit) =>
      ctx.run(async () => {
        const rows = await db
          .selectFrom('outbox')
          .selectAll()
          .where('state', '=', 'scheduled')
          .where('due_at', '<=', toMillis(now))
          .orderBy('due_at')
          .orderBy('id')
          .limit(limit)
          .execute();
        return rows.map(toRow);
      }),

    waitingScheduled: (limit) =>
      ctx.run(async () => {
        const rows = await db
          .selectFrom('outbox')
          .selectAll()
          .where('state', 'in', ['scheduled', 'held'])
          .orderBy('due_at')
          .orderBy('id')
          .limit(limit)
          .execute();
        return rows.map(toRow);
      }),

    markSubmitted(id, messageId, options = {}) {
      const at = toMillis(options.at ?? ctx.now());
      const mid = gatewayIdText(messageId);
      return transition(
        id,
        ['pending'],
        {
          state: 'submitted',
          message_id: mid,
          submitted_at: at,
          updated_at: at,
          next_poll_at: toMillis(options.nextPollAt ?? new Date(at)),
        },
        (row) => row.state === 'submitted' && row.message_id === mid,
      );
    },

    markFailed(id, reason, at = ctx.now()) {
      const ms = toMillis(at);
      return transition(
        id,
        ['pending'],
        { state: 'failed', reason, updated_at: ms, final: 1 },
        (row) => row.state === 'failed' && row.reason === reason && Number(row.updated_at) === ms,
      );
    },

    markUnknown(id, reason, at = ctx.now()) {
      const ms = toMillis(at);
      return transition(
        id,
        ['pending'],
        { state: 'unknown', reason, updated_at: ms },
        (row) => row.state === 'unknown' && row.reason === reason && Number(row.updated_at) === ms,
      );
    },

    async markCancelled(id, by, at = ctx.now()) {
      const ms = toMillis(at);
      // Pending first: a send whose Submit returns meanwhile is then found submitted by the second update.
      if (await transition(id, ['pending'], cancelledBy(by, ms), isCancelledBy(by, ms), notFinal))
        return true;
      // A batch the gateway took is asked once more, now: its report says what was delivered before the Cancel
      // and so what the gateway cancelled. The tracker makes it final then.
      const askOnceMore = { ...cancelledBy(by, ms), final: 0, next_poll_at: ms };
      return transition(id, ['submitted'], askOnceMore, isCancelledBy(by, ms), notFinal);
    },

    renewLease: (id, owner, until) =>
      ctx.run(async () => {
        const result = await db
          .updateTable('outbox')
          .set({ lease_until: toMillis(until) })
          .where('id', '=', id)
          .where('state', '=', 'pending')
          .where('owner', '=', owner)
          .executeTakeFirst();
        return result.numUpdatedRows > 0n;
      }),

    abandonedPending: (test, limit) =>
      ctx.run(async () => {
        const rows = await db
          .selectFrom('outbox')
          .selectAll()
          .where('state', '=', 'pending')
          .where(abandoned(test))
          .orderBy('id')
          .limit(limit)
          .execute();
        return rows.map(toRow);
      }),

    markAbandoned(id, reason, test) {
      const ms = toMillis(test.now);
      return transition(
        id,
        ['pending'],
        { state: 'unknown', reason, updated_at: ms },
        (row) => row.state === 'unknown' && row.reason === reason && Number(row.updated_at) === ms,
        abandoned(test),
      );
    },

    closeAsCampaign(id, by, at = ctx.now()) {
      const ms = toMillis(at);
      return transition(
        id,
        ['pending', 'held'],
        // The reason a held row carried goes: closed as a campaign, it is no longer "not started".
        { ...cancelledBy(by, ms), owner: null, lease_until: null, reason: null },
        isCancelledBy(by, ms),
      );
    },

    holdAbandoned(id, reason, test) {
      const ms = toMillis(test.now);
      return transition(
        id,
        ['pending'],
        { state: 'held', reason, owner: null, lease_until: null, updated_at: ms },
        (row) => row.state === 'held' && row.reason === reason && Number(row.updated_at) === ms,
        abandoned(test),
      );
    },

    resolveSubmitted(id, messageId, options) {
      const at = toMillis(options.at ?? ctx.now());
      const mid = gatewayIdText(messageId);
      // A send marked not sent that turns out to have a MessageId was sent after all: the id wins.
      return transition(
        id,
        ['unknown', 'failed'],
        {
          state: 'submitted',
          message_id: mid,
          reason: options.note,
          submitted_at: at,
          updated_at: at,
          final: 0,
          next_poll_at: toMillis(options.nextPollAt ?? new Date(at)),
        },
        (row) => row.state === 'submitted' && row.message_id === mid,
        (eb) => eb('message_id', 'is', null),
      );
    },

    resolveNotSent(id, reason, at = ctx.now()) {
      const ms = toMillis(at);
      return transition(
        id,
        ['unknown'],
        { state: 'failed', reason, updated_at: ms, final: 1, next_poll_at: null },
        (row) => row.state === 'failed' && row.reason === reason && Number(row.updated_at) === ms,
      );
    },

    get: (id) => ctx.run(async () => mapOne(await byId(id))),

    getByKey: (key) =>
      ctx.run(async () =>
        mapOne(
          await db.selectFrom('outbox').selectAll().where('idempotency_key', '=', key).executeTakeFirst(),
        ),
      ),

    getByMessageId: (messageId) =>
      ctx.run(async () =>
        mapOne(
          await db
            .selectFrom('outbox')
            .selectAll()
            .where('message_id', '=', gatewayIdText(messageId))
            .orderBy('id', 'desc')
            .limit(1)
            .executeTakeFirst(),
        ),
      ),

    setCardMessage: (id, channel, ts) =>
      ctx.run(async () => {
        const result = await db
          .updateTable('outbox')
          .set({ channel, message_ts: ts, updated_at: toMillis(ctx.now()) })
          .where('id', '=', id)
          .executeTakeFirst();
        return result.numUpdatedRows > 0n;
      }),

    dueForPoll: (now, limit) =>
      ctx.run(async () => {
        const rows = await db
          .selectFrom('outbox')
          .selectAll()
          .where('state', 'in', POLLED_STATES)
          .where('final', '=', 0)
          .where('next_poll_at', '<=', toMillis(now))
          .orderBy('next_poll_at')
          .orderBy('id')
          .limit(limit)
          .execute();
        return rows.map(toRow);
      }),

    claimDueForPoll: (now, limit, leaseUntil) =>
      ctx.run(async () => {
        const nowMs = toMillis(now);
        // The outer WHERE repeats the due test: on PostgreSQL a row another instance leased in the
        // meantime is re-checked after its lock is released and then skipped.
        const rows = await db
          .updateTable('outbox')
          .set({ next_poll_at: toMillis(leaseUntil) })
          .where('id', 'in', (eb) =>
            eb
              .selectFrom('outbox')
              .select('id')
              .where('state', 'in', POLLED_STATES)
              .where('final', '=', 0)
              .where('next_poll_at', '<=', nowMs)
              .orderBy('next_poll_at')
              .orderBy('id')
              .limit(limit),
          )
          .where('state', 'in', POLLED_STATES)
          .where('final', '=', 0)
          .where('next_poll_at', '<=', nowMs)
          .returningAll()
          .execute();
        return rows.map(toRow).sort((a, b) => a.id - b.id);
      }),

    recordProgress: (id, p) =>
      ctx.run(async (attempt) => {
        const polledAt = toMillis(p.lastPolledAt);
        const result = await db
          .updateTable('outbox')
          .set({
            delivered: p.delivered,
            undelivered: p.undelivered,
            delivery_count: p.count,
            delivery_state: p.state,
            final: p.final ? 1 : 0,
            next_poll_at: p.final ? null : toMillisOrNull(p.nextPollAt),
            last_polled_at: polledAt,
            updated_at: polledAt,
          })
          .where('id', '=', id)
          .where('final', '=', 0)
          .executeTakeFirst();
        if (result.numUpdatedRows > 0n) return true;
        if (attempt === 0) return false;
        const row = await byId(id);
        return row !== undefined && Number(row.last_polled_at) === polledAt && row.delivered === p.delivered;
      }),

    recent: (limit) =>
      ctx.run(async () => {
        const rows = await db.selectFrom('outbox').selectAll().orderBy('id', 'desc').limit(limit).execute();
        return rows.map(toRow);
      }),

    async purgeContentBefore(before, at = ctx.now()) {
      const redactedAt = toMillis(at);
      let changed = 0;
      for (;;) {
        const round = await ctx.run(async () => {
          const rows = await db
            .selectFrom('outbox')
            .select(['id', 'payload'])
            .where('created_at', '<', toMillis(before))
            // In flight (pending, or submitted and not final) a send still needs what it holds.
            .where((eb) => eb.or([eb('final', '=', 1), eb('state', '=', 'unknown')]))
            .where((eb) => eb.or([eb('body', '<>', ''), eb('recipients', '<>', '[]')]))
            .orderBy('id')
            .limit(PURGE_BATCH)
            .execute();
          for (const row of rows) {
            await db
              .updateTable('outbox')
              .set({
                body: '',
                recipients: '[]',
                payload: payloadKeeping(row.payload),
                redacted_at: redactedAt,
              })
              .where('id', '=', row.id)
              .execute();
          }
          return rows.length;
        });
        changed += round;
        if (round < PURGE_BATCH) return changed;
      }
    },

    forgetNumber: (msisdn, at = ctx.now()) =>
      ctx.run(async () => {
        const pattern = jsonStringPattern(msisdn);
        const rows = await db
          .selectFrom('outbox')
          .select(['id', 'recipients', 'body', 'payload'])
          .where((eb) => eb.or([eb('recipients', 'like', pattern), eb('payload', 'like', pattern)]))
          .orderBy('id')
          .execute();
        const forgotten = { sends: 0, texts: 0 };
        for (const row of rows) {
          const recipients = fromJson<string[]>(row.recipients) ?? [];
          const payload = payloadKeeping(row.payload, (e) => e.to !== msisdn);
          const kept = recipients.filter((r) => r !== msisdn);
          if (kept.length === recipients.length && payload === row.payload) continue;
          // A text sent to this number alone is about them; one sent to many is not, and stays.
          const alone = kept.length === 0 && row.body !== '';
          await db
            .updateTable('outbox')
            .set({
              recipients: JSON.stringify(kept),
              payload,
              ...(alone ? { body: '' } : {}),
              redacted_at: toMillis(at),
            })
            .where('id', '=', row.id)
            .execute();
          forgotten.sends++;
          if (alone) forgotten.texts++;
        }
        return forgotten;
      }),

    sentSince: (since) =>
      ctx.run(async () => {
        const rows = await db
          .selectFrom('outbox')
          .selectAll()
          .where('created_at', '>=', toMillis(since))
          .orderBy('created_at')
          .orderBy('id')
          .execute();
        return rows.map(toRow);
      }),

    countByState: () =>
      ctx.run(async () => {
        const rows = await db
          .selectFrom('outbox')
          .select((eb) => ['state', 'final', eb.fn.countAll().as('count')])
          .groupBy(['state', 'final'])
          .execute();
        return rows.map((r) => ({
          state: r.state as OutboxState,
          final: Number(r.final) === 1,
          count: Number(r.count),
        }));
      }),
  };
}

const mapOne = (row: Row | undefined): OutboxRow | undefined => (row ? toRow(row) : undefined);
