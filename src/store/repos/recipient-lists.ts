import { fromMillis, jsonStringPattern, toMillis } from '../codec.js';
import type { RepoContext } from '../context.js';
import type { RecipientListsRepo } from '../types.js';
import { namedRepo } from './named.js';

export function recipientListsRepo(ctx: RepoContext): RecipientListsRepo {
  const { db } = ctx;
  const named = namedRepo(ctx, 'recipient_lists', {
    encode: (change: { members: string[] }) => JSON.stringify(change.members),
    decode: (r) => ({
      id: Number(r.id),
      name: r.name,
      owner: r.owner,
      members: JSON.parse(r.content) as string[],
      createdAt: fromMillis(r.created_at),
      updatedAt: fromMillis(r.updated_at),
    }),
  });
  return {
    ...named,
    removeMember: (msisdn, at = ctx.now()) =>
      ctx.run(async () => {
        const rows = await db
          .selectFrom('recipient_lists')
          .select(['id', 'name', 'content'])
          .where('content', 'like', jsonStringPattern(msisdn))
          .orderBy('name')
          .execute();
        const changed: string[] = [];
        for (const row of rows) {
          const members = JSON.parse(row.content) as string[];
          const kept = members.filter((m) => m !== msisdn);
          if (kept.length === members.length) continue;
          await db
            .updateTable('recipient_lists')
            .set({ content: JSON.stringify(kept), updated_at: toMillis(at) })
            .where('id', '=', row.id)
            .execute();
          changed.push(row.name);
        }
        return changed;
      }),
  };
}
