import { fromMillis, toMillis } from '../codec.js';
import type { RepoContext } from '../context.js';
import type { AppSettingsRepo } from '../types.js';

export function appSettingsRepo(ctx: RepoContext): AppSettingsRepo {
  const { db } = ctx;
  return {
    get: (name) =>
      ctx.run(async () => {
        const row = await db
          .selectFrom('app_settings')
          .selectAll()
          .where('name', '=', name)
          .executeTakeFirst();
        return row
          ? { value: row.value, updatedBy: row.updated_by, updatedAt: fromMillis(row.updated_at) }
          : undefined;
      }),

    set: (name, value, by, at = ctx.now()) =>
      ctx.run(async () => {
        const updated_at = toMillis(at);
        await db
          .insertInto('app_settings')
          .values({ name, value, updated_by: by, updated_at })
          .onConflict((oc) => oc.column('name').doUpdateSet({ value, updated_by: by, updated_at }))
          .execute();
      }),
  };
}
