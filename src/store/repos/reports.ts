import { type ExpressionBuilder, sql } from 'kysely';
import { fromMillisOrNull, toMillis } from '../codec.js';
import type { RepoContext } from '../context.js';
import type { Database } from '../schema.js';
import type { ReportCampaign, ReportCursor, ReportRange, ReportsRepo } from '../types.js';
import { toRow } from './outbox.js';

/**
 * When a send was made: its Submit, else the time it was due (a scheduled send refused at sending), else when it
 * was written (refused, or of unknown fate, on the spot).
 */
const madeAt = sql<number>`coalesce(submitted_at, due_at, created_at)`;

/**
 * The sends of a period: everything that went, or was meant to go, to the gateway. A send still waiting for its
 * time (`scheduled`, `held`) was not made yet; a scheduled send that went as a campaign is closed as `cancelled`
 * with its campaign's key, and its chunks are the sends.
 */
const madeIn = (range: ReportRange) => (eb: ExpressionBuilder<Database, 'outbox'>) =>
  eb.and([
    eb(madeAt, '>=', toMillis(range.from)),
    eb(madeAt, '<', toMillis(range.to)),
    eb('state', 'not in', ['scheduled', 'held']),
    eb.not(eb.and([eb('state', '=', 'cancelled'), eb('payload', 'like', '%"campaignKey":%')])),
  ]);

export function reportsRepo(ctx: RepoContext): ReportsRepo {
  const { db } = ctx;
  return {
    sendsIn: (range, after, limit) =>
      ctx.run(async () => {
        let query = db.selectFrom('outbox').selectAll().select(madeAt.as('made_at')).where(madeIn(range));
        if (after) {
          query = query.where((eb) =>
            eb.or([
              eb(madeAt, '>', after.madeAt),
              eb.and([eb(madeAt, '=', after.madeAt), eb('id', '>', after.id)]),
            ]),
          );
        }
        const rows = await query.orderBy(madeAt).orderBy('id').limit(limit).execute();
        return rows.map((r) => ({ row: toRow(r), cursor: { madeAt: Number(r.made_at), id: Number(r.id) } }));
      }),

    countSendsIn: (range) =>
      ctx.run(async () => {
        const row = await db
          .selectFrom('outbox')
          .select((eb) => eb.fn.countAll().as('n'))
          .where(madeIn(range))
          .executeTakeFirstOrThrow();
        return Number(row.n);
      }),

    sendsOfCampaign: (campaignId) =>
      ctx.run(async () => {
        const rows = await db
          .selectFrom('outbox')
          .selectAll()
          .select(madeAt.as('made_at'))
          .where('campaign_id', '=', campaignId)
          .orderBy('campaign_chunk')
          .orderBy('id')
          .execute();
        return rows.map((r) => ({ row: toRow(r), cursor: { madeAt: Number(r.made_at), id: Number(r.id) } }));
      }),

    campaigns: (ids) =>
      ctx.run(async () => {
        const wanted = [...new Set(ids)];
        if (wanted.length === 0) return [];
        const rows = await db
          .selectFrom('campaigns')
          .select(['id', 'sender', 'body', 'chunk_count', 'recipient_count', 'state', 'redacted_at'])
          .where('id', 'in', wanted)
          .execute();
        return rows.map(
          (r): ReportCampaign => ({
            id: Number(r.id),
            sender: r.sender,
            text: r.body,
            chunkCount: r.chunk_count,
            recipientCount: r.recipient_count,
            state: r.state,
            redactedAt: fromMillisOrNull(r.redacted_at),
          }),
        );
      }),
  };
}

export type { ReportCursor };
