import type { Selectable } from 'kysely';
import { fromMillis, toMillis } from '../codec.js';
import type { RepoContext } from '../context.js';
import type { DraftsTable } from '../schema.js';
import type { Draft, DraftsRepo, JsonValue } from '../types.js';

const toDraft = (r: Selectable<DraftsTable>): Draft => ({
  key: r.key,
  owner: r.owner,
  payload: JSON.parse(r.payload) as JsonValue,
  expiresAt: fromMillis(r.expires_at),
  createdAt: fromMillis(r.created_at),
});

export function draftsRepo(ctx: RepoContext): DraftsRepo {
  const { db } = ctx;
  return {
    put: (key, owner, payload, expiresAt) =>
      ctx.run(async () => {
        const values = {
          key,
          owner,
          payload: JSON.stringify(payload),
          expires_at: toMillis(expiresAt),
          created_at: toMillis(ctx.now()),
        };
        await db
          .insertInto('drafts')
          .values(values)
          .onConflict((oc) =>
            oc.column('key').doUpdateSet({ owner, payload: values.payload, expires_at: values.expires_at }),
          )
          .execute();
      }),

    get: (key, now) =>
      ctx.run(async () => {
        const row = await db
          .selectFrom('drafts')
          .selectAll()
          .where('key', '=', key)
          .where('expires_at', '>', toMillis(now))
          .executeTakeFirst();
        return row ? toDraft(row) : undefined;
      }),

    take: (key, now) =>
      ctx.run(async () => {
        const row = await db
          .deleteFrom('drafts')
          .where('key', '=', key)
          .where('expires_at', '>', toMillis(now))
          .returningAll()
          .executeTakeFirst();
        return row ? toDraft(row) : undefined;
      }),

    delete: (key) =>
      ctx.run(async () => {
        const result = await db.deleteFrom('drafts').where('key', '=', key).executeTakeFirst();
        return result.numDeletedRows > 0n;
      }),

    pruneExpired: (now) =>
      ctx.run(async () => {
        const result = await db
          .deleteFrom('drafts')
          .where('expires_at', '<=', toMillis(now))
          .executeTakeFirst();
        return Number(result.numDeletedRows);
      }),
  };
}
