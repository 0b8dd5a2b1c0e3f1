import type { Selectable } from 'kysely';
import { fromMillis, newToken, toMillis } from '../codec.js';
import type { RepoContext } from '../context.js';
import type { JobRunsTable } from '../schema.js';
import type { JobRun, JobRunsRepo } from '../types.js';

const slotText = (slot: Date | string): string => {
  const text = typeof slot === 'string' ? slot : slot.toISOString();
  if (text === '') throw new RangeError('empty job slot');
  return text;
};

/** Another owner took one of the slots asked for: nothing of this claim is kept. */
class LostRace extends Error {}

const toRun = (r: Selectable<JobRunsTable>): JobRun => ({
  job: r.job,
  slot: r.slot,
  instanceId: r.instance_id,
  claimedAt: fromMillis(r.claimed_at),
});

export function jobRunsRepo(ctx: RepoContext): JobRunsRepo {
  const { db } = ctx;
  const find = (job: string, slot: string) =>
    db.selectFrom('job_runs').selectAll().where('job', '=', job).where('slot', '=', slot).executeTakeFirst();
  /** A job's runs, the latest claim first (a tie goes to the later slot). */
  const newestFirst = (job: string) =>
    db
      .selectFrom('job_runs')
      .selectAll()
      .where('job', '=', job)
      .orderBy('claimed_at', 'desc')
      .orderBy('slot', 'desc');

  return {
    claim(job, slot, instanceId, at = ctx.now()) {
      const key = slotText(slot);
      const token = newToken();
      const claimedAt = toMillis(at);
      return ctx.run(async (attempt) => {
        const won = await db
          .insertInto('job_runs')
          .values({ job, slot: key, instance_id: instanceId, claim_token: token, claimed_at: claimedAt })
          .onConflict((oc) => oc.columns(['job', 'slot']).doNothing())
          .returning('job')
          .executeTakeFirst();
        if (won) return true;
        if (attempt === 0) return false;
        return (await find(job, key))?.claim_token === token;
      });
    },

    lastRun: (job) =>
      ctx.run(async () => {
        const row = await newestFirst(job).limit(1).executeTakeFirst();
        return row ? toRun(row) : undefined;
      }),

    runs: (job, limit) =>
      ctx.run(async () => {
        const rows = await newestFirst(job).limit(limit).execute();
        return rows.map(toRun);
      }),

    get: (job, slot) =>
      ctx.run(async () => {
        const row = await find(job, slotText(slot));
        return row ? toRun(row) : undefined;
      }),

    claimNumbered(job, series, count, limit, instanceId, at = ctx.now()) {
      if (!Number.isInteger(count) || count < 1) throw new RangeError('a claim takes at least one slot');
      const prefix = `${slotText(series)}:`;
      const claimedAt = toMillis(at);
      return ctx.run(async () => {
        // Each lost race means another owner took slots, so the series fills and the loop ends.
        for (;;) {
          // One query, however many are taken; the free numbers are found even if a slot was ever removed.
          const held = await db
            .selectFrom('job_runs')
            .select(['slot', 'instance_id'])
            .where('job', '=', job)
            .where('slot', 'like', `${prefix}%`)
            .execute();
          const taken = held.length;
          if (held.some((row) => row.instance_id === instanceId)) return { claimed: true, taken };
          const used = new Set(held.map((row) => row.slot));
          const free: string[] = [];
          for (let n = 1; n <= limit && free.length < count; n++) {
            if (!used.has(`${prefix}${n}`)) free.push(`${prefix}${n}`);
          }
          if (free.length < count) return { claimed: false, taken };
          const token = newToken();
          const rows = free.map((slot) => ({
            job,
            slot,
            instance_id: instanceId,
            claim_token: token,
            claimed_at: claimedAt,
          }));
          const won = await db
            .transaction()
            .execute(async (trx) => {
              const inserted = await trx
                .insertInto('job_runs')
                .values(rows)
                .onConflict((oc) => oc.columns(['job', 'slot']).doNothing())
                .returning('slot')
                .execute();
              if (inserted.length !== count) throw new LostRace();
              return true;
            })
            .catch((error: unknown) => {
              if (error instanceof LostRace) return false;
              throw error;
            });
          if (won) return { claimed: true, taken: taken + count };
        }
      });
    },

    releaseNumbered: (job, series, instanceId) =>
      ctx.run(async () => {
        const result = await db
          .deleteFrom('job_runs')
          .where('job', '=', job)
          .where('slot', 'like', `${slotText(series)}:%`)
          .where('instance_id', '=', instanceId)
          .executeTakeFirst();
        return Number(result.numDeletedRows);
      }),

    pruneBefore: (before) =>
      ctx.run(async () => {
        // Job by job (a handful: retention, mentions, one per digest subscription), each by its index.
        const latest = await db
          .selectFrom('job_runs')
          .select((eb) => ['job', eb.fn.max('claimed_at').as('latest')])
          .groupBy('job')
          .execute();
        let deleted = 0;
        for (const { job, latest: newest } of latest) {
          const result = await db
            .deleteFrom('job_runs')
            .where('job', '=', job)
            .where('claimed_at', '<', Math.min(toMillis(before), Number(newest)))
            .executeTakeFirst();
          deleted += Number(result.numDeletedRows);
        }
        return deleted;
      }),
  };
}
