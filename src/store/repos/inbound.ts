import type { Selectable } from 'kysely';
import { fromMillis, fromMillisOrNull, gatewayIdText, newToken, toMillis } from '../codec.js';
import type { RepoContext } from '../context.js';
import type { InboundMessagesTable } from '../schema.js';
import type { InboundRepo, InboundRow } from '../types.js';

function toRow(r: Selectable<InboundMessagesTable>): InboundRow {
  return {
    gatewayId: r.gateway_id,
    claimedBy: r.claimed_by,
    claimedAt: fromMillis(r.claimed_at),
    posted: r.posted_at !== null,
    channel: r.channel,
    ts: r.ts,
    threadTs: r.thread_ts,
    postedAt: fromMillisOrNull(r.posted_at),
  };
}

// Rows per multi-row INSERT: 8 parameters each stays far below both dialects' parameter limits.
const BATCH = 500;

export function inboundRepo(ctx: RepoContext): InboundRepo {
  const { db } = ctx;
  const byId = (id: string) =>
    db.selectFrom('inbound_messages').selectAll().where('gateway_id', '=', id).executeTakeFirst();

  return {
    claim(gatewayId, instanceId, options = {}) {
      const id = gatewayIdText(gatewayId);
      const at = toMillis(options.at ?? ctx.now());
      const token = newToken();
      const { leaseMs } = options;
      return ctx.run(async (attempt) => {
        const won = await db
          .insertInto('inbound_messages')
          .values({
            gateway_id: id,
            claim_token: token,
            claimed_by: instanceId,
            claimed_at: at,
            channel: null,
            ts: null,
            thread_ts: null,
            posted_at: null,
          })
          .onConflict((oc) =>
            leaseMs === undefined
              ? oc.column('gateway_id').doNothing()
              : // A stale, never-posted claim is taken over in the same statement, so still one winner.
                oc
                  .column('gateway_id')
                  .doUpdateSet({ claim_token: token, claimed_by: instanceId, claimed_at: at })
                  .where('inbound_messages.posted_at', 'is', null)
                  .where('inbound_messages.claimed_at', '<', at - leaseMs),
          )
          .returning('gateway_id')
          .executeTakeFirst();
        if (won) return true;
        if (attempt === 0) return false;
        return (await byId(id))?.claim_token === token;
      });
    },

    async claimMany(gatewayIds, instanceId, at = ctx.now()) {
      // Sorted, so concurrent overlapping batches lock their rows in one order and cannot deadlock.
      const ids = [...new Set(Array.from(gatewayIds, gatewayIdText))].sort();
      const claimedAt = toMillis(at);
      const won = new Set<string>();
      for (let i = 0; i < ids.length; i += BATCH) {
        const chunk = ids.slice(i, i + BATCH);
        const token = newToken();
        const rows = await ctx.run(async (attempt) => {
          const inserted = await db
            .insertInto('inbound_messages')
            .values(
              chunk.map((id) => ({
                gateway_id: id,
                claim_token: token,
                claimed_by: instanceId,
                claimed_at: claimedAt,
                channel: null,
                ts: null,
                thread_ts: null,
                posted_at: null,
              })),
            )
            .onConflict((oc) => oc.column('gateway_id').doNothing())
            .returning('gateway_id')
            .execute();
          if (attempt === 0) return inserted;
          return db
            .selectFrom('inbound_messages')
            .select('gateway_id')
            .where('gateway_id', 'in', chunk)
            .where('claim_token', '=', token)
            .execute();
        });
        for (const row of rows) won.add(row.gateway_id);
      }
      return won;
    },

    markPosted(gatewayId, where, at = ctx.now()) {
      const id = gatewayIdText(gatewayId);
      return ctx.run(async () => {
        const result = await db
          .updateTable('inbound_messages')
          .set({
            channel: where.channel,
            ts: where.ts,
            thread_ts: where.threadTs ?? null,
            posted_at: toMillis(at),
          })
          .where('gateway_id', '=', id)
          .executeTakeFirst();
        return result.numUpdatedRows > 0n;
      });
    },

    release(gatewayId) {
      const id = gatewayIdText(gatewayId);
      return ctx.run(async () => {
        const result = await db
          .deleteFrom('inbound_messages')
          .where('gateway_id', '=', id)
          .where('posted_at', 'is', null)
          .executeTakeFirst();
        return result.numDeletedRows > 0n;
      });
    },

    isPosted(gatewayId) {
      const id = gatewayIdText(gatewayId);
      return ctx.run(async () => {
        const row = await db
          .selectFrom('inbound_messages')
          .select('posted_at')
          .where('gateway_id', '=', id)
          .executeTakeFirst();
        return row !== undefined && row.posted_at !== null;
      });
    },

    get(gatewayId) {
      const id = gatewayIdText(gatewayId);
      return ctx.run(async () => {
        const row = await byId(id);
        return row ? toRow(row) : undefined;
      });
    },

    getCursor: (name) =>
      ctx.run(async () => {
        const row = await db
          .selectFrom('relay_cursors')
          .select('value')
          .where('name', '=', name)
          .executeTakeFirst();
        return row?.value;
      }),

    setCursor: (name, value, at = ctx.now()) =>
      ctx.run(async () => {
        const updated_at = toMillis(at);
        await db
          .insertInto('relay_cursors')
          .values({ name, value, updated_at })
          .onConflict((oc) => oc.column('name').doUpdateSet({ value, updated_at }))
          .execute();
      }),

    findThread: (channel, msisdn, since) =>
      ctx.run(async () => {
        const row = await db
          .selectFrom('inbound_threads')
          .select('thread_ts')
          .where('channel', '=', channel)
          .where('msisdn', '=', msisdn)
          .where('last_at', '>=', toMillis(since))
          .executeTakeFirst();
        return row?.thread_ts;
      }),

    saveThread: (channel, msisdn, threadTs, at) =>
      ctx.run(async () => {
        const last_at = toMillis(at);
        await db
          .insertInto('inbound_threads')
          .values({ channel, msisdn, thread_ts: threadTs, last_at })
          .onConflict((oc) => oc.columns(['channel', 'msisdn']).doUpdateSet({ thread_ts: threadTs, last_at }))
          .execute();
      }),

    numbersInThread: (channel, threadTs) =>
      ctx.run(async () => {
        const rows = await db
          .selectFrom('inbound_threads')
          .select('msisdn')
          .where('channel', '=', channel)
          .where('thread_ts', '=', threadTs)
          .orderBy('msisdn')
          .execute();
        return rows.map((r) => r.msisdn);
      }),

    recent: (limit) =>
      ctx.run(async () => {
        const rows = await db
          .selectFrom('inbound_messages')
          .selectAll()
          .orderBy('claimed_at', 'desc')
          .orderBy('gateway_id', 'desc')
          .limit(limit)
          .execute();
        return rows.map(toRow);
      }),

    purgeThreadsBefore: (before) =>
      ctx.run(async () => {
        const result = await db
          .deleteFrom('inbound_threads')
          .where('last_at', '<', toMillis(before))
          .executeTakeFirst();
        return Number(result.numDeletedRows);
      }),

    forgetNumber: (msisdn) =>
      ctx.run(async () => {
        const result = await db.deleteFrom('inbound_threads').where('msisdn', '=', msisdn).executeTakeFirst();
        return Number(result.numDeletedRows);
      }),
  };
}
