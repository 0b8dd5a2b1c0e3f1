import { fromMillis } from '../codec.js';
import type { RepoContext } from '../context.js';
import type { TemplatesRepo } from '../types.js';
import { namedRepo } from './named.js';

export const templatesRepo = (ctx: RepoContext): TemplatesRepo =>
  namedRepo(ctx, 'templates', {
    encode: (change: { content: string }) => change.content,
    decode: (r) => ({
      id: Number(r.id),
      name: r.name,
      owner: r.owner,
      content: r.content,
      createdAt: fromMillis(r.created_at),
      updatedAt: fromMillis(r.updated_at),
    }),
  });
