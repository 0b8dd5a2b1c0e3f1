import { toMillis } from '../codec.js';
import type { RepoContext } from '../context.js';
import type { DigestMemoryRepo } from '../types.js';

export function digestMemoryRepo(ctx: RepoContext): DigestMemoryRepo {
  const { db } = ctx;
  return {
    get: (subscriptionId) =>
      ctx.run(async () => {
        const row = await db
          .selectFrom('digest_memory')
          .select('memory')
          .where('subscription_id', '=', subscriptionId)
          .executeTakeFirst();
        return row?.memory;
      }),

    put: (subscriptionId, memory, at = ctx.now()) =>
      ctx.run(async () => {
        const updated_at = toMillis(at);
        await db
          .insertInto('digest_memory')
          .values({ subscription_id: subscriptionId, memory, updated_at })
          .onConflict((oc) => oc.column('subscription_id').doUpdateSet({ memory, updated_at }))
          .execute();
      }),
  };
}
