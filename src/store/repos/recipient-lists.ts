import { fromMillis } from '../codec.js';
import type { RepoContext } from '../context.js';
import type { RecipientListsRepo } from '../types.js';
import { namedRepo } from './named.js';

export const recipientListsRepo = (ctx: RepoContext): RecipientListsRepo =>
  namedRepo(ctx, 'recipient_lists', {
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
