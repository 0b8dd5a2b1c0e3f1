import type { Expression, ExpressionBuilder, Selectable, SqlBool } from 'kysely';
import { fromJson, fromMillis, fromMillisOrNull, jsonStringPattern, newToken, toMillis } from '../codec.js';
import type { RepoContext } from '../context.js';
import type { CampaignsTable, Database } from '../schema.js';
import type {
  Campaign,
  CampaignChunkRow,
  CampaignState,
  CampaignsRepo,
  JsonValue,
  OutboxState,
} from '../types.js';

type Row = Omit<Selectable<CampaignsTable>, 'plan'>;

/** Ids in one `in (…)`: well under SQLite's and PostgreSQL's limits on a statement's parameters. */
const IDS_PER_STATEMENT = 500;

/** Every column but the plan: a campaign's plan is read once by the runner, never with its state. */
const COLUMNS = [
  'id',
  'idempotency_key',
  'create_token',
  'slack_user',
  'acting_user',
  'channel',
  'thread_ts',
  'message_ts',
  'sender',
  'body',
  'recipient_count',
  'segments',
  'estimated_cost',
  'chunk_size',
  'chunk_count',
  'round',
  'cursor',
  'state',
  'stop_reason',
  'next_at',
  'owner',
  'lease_until',
  'cancelled_by',
  'cancelled_at',
  'created_at',
  'updated_at',
  'redacted_at',
] as const satisfies readonly (keyof Row)[];

function toCampaign(r: Row): Campaign {
  return {
    id: Number(r.id),
    idempotencyKey: r.idempotency_key,
    slackUser: r.slack_user,
    actingUser: r.acting_user,
    channel: r.channel,
    threadTs: r.thread_ts,
    messageTs: r.message_ts,
    sender: r.sender,
    text: r.body,
    recipientCount: r.recipient_count,
    segments: r.segments,
    estimatedCost: r.estimated_cost,
    chunkSize: r.chunk_size,
    chunkCount: r.chunk_count,
    round: r.round,
    cursor: r.cursor,
    state: r.state as CampaignState,
    stopReason: r.stop_reason,
    nextAt: fromMillis(r.next_at),
    owner: r.owner,
    leaseUntil: fromMillisOrNull(r.lease_until),
    cancelledBy: r.cancelled_by,
    cancelledAt: fromMillisOrNull(r.cancelled_at),
    createdAt: fromMillis(r.created_at),
    updatedAt: fromMillis(r.updated_at),
    redactedAt: fromMillisOrNull(r.redacted_at),
  };
}

type Condition = (eb: ExpressionBuilder<Database, 'campaigns'>) => Expression<SqlBool>;

/** Nobody holds the campaign, `owner` does, or its holder stopped renewing the lease. */
const claimableBy =
  (owner: string, nowMs: number): Condition =>
  (eb) =>
    eb.or([eb('owner', 'is', null), eb('owner', '=', owner), eb('lease_until', '<', nowMs)]);

export function campaignsRepo(ctx: RepoContext): CampaignsRepo {
  const { db } = ctx;
  const byId = (id: number) =>
    db.selectFrom('campaigns').select(COLUMNS).where('id', '=', id).executeTakeFirst();

  /** One conditional UPDATE; after a retry whose first reply was lost, `isMine` recognises our own change. */
  const change = (
    id: number,
    set: Partial<Omit<Selectable<CampaignsTable>, 'id'>>,
    where: Condition,
    isMine: (row: Row) => boolean,
  ): Promise<boolean> =>
    ctx.run(async (attempt) => {
      const changed = await db
        .updateTable('campaigns')
        .set(set)
        .where('id', '=', id)
        .where(where)
        .returning('id')
        .executeTakeFirst();
      if (changed) return true;
      if (attempt === 0) return false;
      const row = await byId(id);
      return row !== undefined && isMine(row);
    });

  return {
    create(intent) {
      const at = toMillis(intent.at ?? ctx.now());
      const token = newToken();
      const chunkCount = Math.max(1, Math.ceil(intent.recipientCount / intent.chunkSize));
      const plan = JSON.stringify(intent.plan);
      ctx.noteWrite?.(plan.length);
      // The campaign and its plan together: a plan is never without its campaign, nor a campaign without its plan.
      return ctx.run(() =>
        db.transaction().execute(async (trx) => {
          const inserted = await trx
            .insertInto('campaigns')
            .values({
              idempotency_key: intent.idempotencyKey,
              create_token: token,
              slack_user: intent.slackUser,
              acting_user: intent.slackUser,
              channel: intent.channel,
              thread_ts: intent.threadTs ?? null,
              message_ts: null,
              sender: intent.sender,
              body: intent.text,
              // In campaign_plans (0011): this row is updated twice a chunk and stays small.
              plan: '',
              recipient_count: intent.recipientCount,
              segments: intent.segments,
              estimated_cost: intent.estimatedCost ?? null,
              chunk_size: intent.chunkSize,
              chunk_count: chunkCount,
              round: 0,
              cursor: 0,
              state: 'running',
              stop_reason: null,
              next_at: at,
              owner: null,
              lease_until: null,
              cancelled_by: null,
              cancelled_at: null,
              created_at: at,
              updated_at: at,
              redacted_at: null,
            })
            .onConflict((oc) => oc.column('idempotency_key').doNothing())
            .returning(COLUMNS)
            .executeTakeFirst();
          if (inserted) {
            await trx.insertInto('campaign_plans').values({ campaign_id: inserted.id, plan }).execute();
            return { campaign: toCampaign(inserted), created: true };
          }
          const existing = await trx
            .selectFrom('campaigns')
            .select(COLUMNS)
            .where('idempotency_key', '=', intent.idempotencyKey)
            .executeTakeFirstOrThrow();
          return { campaign: toCampaign(existing), created: existing.create_token === token };
        }),
      );
    },

    get: (id) =>
      ctx.run(async () => {
        const row = await byId(id);
        return row ? toCampaign(row) : undefined;
      }),

    byKey: (idempotencyKey) =>
      ctx.run(async () => {
        const row = await db
          .selectFrom('campaigns')
          .select(COLUMNS)
          .where('idempotency_key', '=', idempotencyKey)
          .executeTakeFirst();
        return row ? toCampaign(row) : undefined;
      }),

    plan: (id) =>
      ctx.run(async () => {
        const row =
          (await db
            .selectFrom('campaign_plans')
            .select('plan')
            .where('campaign_id', '=', id)
            .executeTakeFirst()) ??
          // Made by an instance of a release before 0011 while this one ran (a rolling upgrade): in the old column.
          (await db.selectFrom('campaigns').select('plan').where('id', '=', id).executeTakeFirst());
        return row && row.plan !== '' ? (fromJson<JsonValue>(row.plan) ?? undefined) : undefined;
      }),

    due: (now, owner, limit) =>
      ctx.run(async () => {
        const nowMs = toMillis(now);
        const rows = await db
          .selectFrom('campaigns')
          .select(COLUMNS)
          .where('state', '=', 'running')
          .where('next_at', '<=', nowMs)
          .where(claimableBy(owner, nowMs))
          .orderBy('next_at')
          .orderBy('id')
          .limit(limit)
          .execute();
        return rows.map(toCampaign);
      }),

    claimChunk(id, chunk, owner, now, leaseUntil) {
      const nowMs = toMillis(now);
      const until = toMillis(leaseUntil);
      return change(
        id,
        { owner, lease_until: until },
        (eb) =>
          eb.and([
            eb('state', '=', 'running'),
            eb('cursor', '=', chunk),
            eb('next_at', '<=', nowMs),
            claimableBy(owner, nowMs)(eb),
          ]),
        (row) => row.owner === owner && Number(row.lease_until) === until && row.cursor === chunk,
      );
    },

    renewLease: (id, owner, until) =>
      ctx.run(async () => {
        const result = await db
          .updateTable('campaigns')
          .set({ lease_until: toMillis(until) })
          .where('id', '=', id)
          .where('owner', '=', owner)
          .executeTakeFirst();
        return result.numUpdatedRows > 0n;
      }),

    advance(id, chunk, owner, nextAt) {
      const at = toMillis(ctx.now());
      return change(
        id,
        { cursor: chunk + 1, next_at: toMillis(nextAt), owner: null, lease_until: null, updated_at: at },
        (eb) => eb.and([eb('cursor', '=', chunk), eb('owner', '=', owner)]),
        (row) => row.cursor === chunk + 1,
      );
    },

    release: (id, owner) =>
      ctx.run(async () => {
        const result = await db
          .updateTable('campaigns')
          .set({ owner: null, lease_until: null })
          .where('id', '=', id)
          .where('owner', '=', owner)
          .executeTakeFirst();
        return result.numUpdatedRows > 0n;
      }),

    finish(id, at = ctx.now()) {
      const ms = toMillis(at);
      return change(
        id,
        { state: 'done', owner: null, lease_until: null, updated_at: ms },
        (eb) => eb.and([eb('state', '=', 'running'), eb('cursor', '>=', eb.ref('chunk_count'))]),
        (row) => row.state === 'done',
      );
    },

    stop(id, reason, at = ctx.now()) {
      const ms = toMillis(at);
      return change(
        id,
        { state: 'stopped', stop_reason: reason, owner: null, lease_until: null, updated_at: ms },
        (eb) => eb('state', '=', 'running'),
        (row) => row.state === 'stopped' && row.stop_reason === reason,
      );
    },

    resume(id, by, at = ctx.now()) {
      const ms = toMillis(at);
      return ctx.run(async (attempt) => {
        const before = await byId(id);
        // A cancelled campaign may go on too: its chunks never submitted are "the rest" a person asks for.
        if (before?.state !== 'stopped' && before?.state !== 'cancelled') {
          return attempt > 0 && before?.state === 'running' && before.acting_user === by;
        }
        const result = await db
          .updateTable('campaigns')
          .set({
            state: 'running',
            round: before.round + 1,
            cursor: 0,
            acting_user: by,
            stop_reason: null,
            cancelled_by: null,
            cancelled_at: null,
            next_at: ms,
            owner: null,
            lease_until: null,
            updated_at: ms,
          })
          .where('id', '=', id)
          .where('state', '=', before.state)
          .where('round', '=', before.round)
          .executeTakeFirst();
        return result.numUpdatedRows > 0n;
      });
    },

    cancel(id, by, at = ctx.now()) {
      const ms = toMillis(at);
      return change(
        id,
        {
          state: 'cancelled',
          cancelled_by: by,
          cancelled_at: ms,
          owner: null,
          lease_until: null,
          updated_at: ms,
        },
        (eb) => eb('state', '<>', 'cancelled'),
        (row) => row.state === 'cancelled' && row.cancelled_by === by && Number(row.cancelled_at) === ms,
      );
    },

    setCardMessage: (id, channel, ts) =>
      ctx.run(async () => {
        const result = await db
          .updateTable('campaigns')
          .set({ channel, message_ts: ts, updated_at: toMillis(ctx.now()) })
          .where('id', '=', id)
          .executeTakeFirst();
        return result.numUpdatedRows > 0n;
      }),

    chunks: (id) =>
      ctx.run(async () => {
        const rows = await db
          .selectFrom('outbox')
          .select([
            'id',
            'campaign_chunk',
            'idempotency_key',
            'state',
            'message_id',
            'recipient_count',
            'delivered',
            'undelivered',
            'delivery_count',
            'final',
            'reason',
          ])
          .where('campaign_id', '=', id)
          .orderBy('id')
          .execute();
        return rows.map(
          (r): CampaignChunkRow => ({
            outboxId: Number(r.id),
            chunk: Number(r.campaign_chunk ?? 0),
            idempotencyKey: r.idempotency_key,
            state: r.state as OutboxState,
            messageId: r.message_id,
            recipientCount: r.recipient_count,
            delivered: r.delivered,
            undelivered: r.undelivered,
            deliveryCount: r.delivery_count,
            final: r.final === 1,
            reason: r.reason,
          }),
        );
      }),

    purgeContentBefore: (before, at = ctx.now()) =>
      ctx.run(() =>
        db.transaction().execute(async (trx) => {
          // The campaigns first, under their own condition: on PostgreSQL an update re-checks `state` on a row that
          // changed under it, so a campaign resumed meanwhile ("Send the rest") is left as it is, plan and all.
          const purged = await trx
            .updateTable('campaigns')
            .set({ body: '', redacted_at: toMillis(at) })
            .where('created_at', '<', toMillis(before))
            .where('state', '<>', 'running')
            .where((eb) =>
              eb.or([
                eb('plan', '<>', ''),
                eb('id', 'in', eb.selectFrom('campaign_plans').select('campaign_id').where('plan', '<>', '')),
              ]),
            )
            .returning('id')
            .execute();
          for (let i = 0; i < purged.length; i += IDS_PER_STATEMENT) {
            const ids = purged.slice(i, i + IDS_PER_STATEMENT).map((p) => p.id);
            await trx
              .updateTable('campaign_plans')
              .set({ plan: '' })
              .where('campaign_id', 'in', ids)
              .execute();
            // A plan an instance of a release before 0011 wrote in the old column (a rolling upgrade).
            await trx
              .updateTable('campaigns')
              .set({ plan: '' })
              .where('id', 'in', ids)
              .where('plan', '<>', '')
              .execute();
          }
          return purged.length;
        }),
      ),

    forgetNumber: (msisdn, at = ctx.now()) =>
      ctx.run(async () => {
        const pattern = jsonStringPattern(msisdn);
        const moved = await db
          .selectFrom('campaign_plans')
          .select(['campaign_id as id', 'plan'])
          .where('plan', 'like', pattern)
          .execute();
        // A plan an instance of a release before 0011 wrote in the old column (a rolling upgrade).
        const unmoved = await db
          .selectFrom('campaigns')
          .select(['id', 'plan'])
          .where('plan', 'like', pattern)
          .execute();
        const rows = [
          ...moved.map((r) => ({ ...r, table: 'campaign_plans' as const })),
          ...unmoved.map((r) => ({ ...r, table: 'campaigns' as const })),
        ];
        let changed = 0;
        for (const row of rows) {
          const plan = fromJson<{ recipients?: string[]; envelopes?: { to: string; message: string }[] }>(
            row.plan,
          );
          if (!plan) continue;
          const recipients = (plan.recipients ?? []).map((r) => (r === msisdn ? '' : r));
          const envelopes = plan.envelopes?.map((e) => (e.to === msisdn ? { to: '', message: '' } : e));
          const next = { ...plan, recipients, ...(envelopes ? { envelopes } : {}) };
          const text = JSON.stringify(next);
          if (text === row.plan) continue;
          await db.transaction().execute(async (trx) => {
            if (row.table === 'campaign_plans') {
              await trx
                .updateTable('campaign_plans')
                .set({ plan: text })
                .where('campaign_id', '=', row.id)
                .execute();
            }
            await trx
              .updateTable('campaigns')
              .set({ redacted_at: toMillis(at), ...(row.table === 'campaigns' ? { plan: text } : {}) })
              .where('id', '=', row.id)
              .execute();
          });
          changed++;
        }
        return changed;
      }),
  };
}
