import type { Selectable } from 'kysely';
import { toMillis } from '../codec.js';
import type { RepoContext } from '../context.js';
import type { TemplatesTable } from '../schema.js';
import type { NamedRepo } from '../types.js';

/** recipient_lists and templates share one shape; only how `content` is encoded differs. */
export type NamedTable = 'recipient_lists' | 'templates';
export type NamedRow = Selectable<TemplatesTable>;

export interface NamedCodec<T, C> {
  encode(change: C): string;
  decode(row: NamedRow): T;
}

export function namedRepo<T, C>(
  ctx: RepoContext,
  tableName: NamedTable,
  codec: NamedCodec<T, C>,
): NamedRepo<T, C> {
  const { db } = ctx;
  // Both tables have identical columns, so typing the queries against one of them is exact for both.
  const table = tableName as 'templates';
  const find = (name: string) => db.selectFrom(table).selectAll().where('name', '=', name).executeTakeFirst();

  return {
    create: (input) =>
      ctx.run(async () => {
        const at = toMillis(input.at ?? ctx.now());
        const inserted = await db
          .insertInto(table)
          .values({
            name: input.name,
            owner: input.owner,
            content: codec.encode(input),
            created_at: at,
            updated_at: at,
          })
          .onConflict((oc) => oc.column('name').doNothing())
          .returningAll()
          .executeTakeFirst();
        if (inserted) return { row: codec.decode(inserted), created: true };
        const existing = await find(input.name);
        if (!existing) throw new Error(`${tableName} ${input.name} vanished during create`);
        return { row: codec.decode(existing), created: false };
      }),

    get: (name) =>
      ctx.run(async () => {
        const row = await find(name);
        return row ? codec.decode(row) : undefined;
      }),

    list: () =>
      ctx.run(async () =>
        (await db.selectFrom(table).selectAll().orderBy('name').execute()).map(codec.decode),
      ),

    update: (name, change, at = ctx.now()) =>
      ctx.run(async () => {
        const result = await db
          .updateTable(table)
          .set({ content: codec.encode(change), updated_at: toMillis(at) })
          .where('name', '=', name)
          .executeTakeFirst();
        return result.numUpdatedRows > 0n;
      }),

    delete: (name) =>
      ctx.run(async () => {
        const result = await db.deleteFrom(table).where('name', '=', name).executeTakeFirst();
        return result.numDeletedRows > 0n;
      }),
  };
}
