import type { Selectable } from 'kysely';
import { fromMillis, toMillis } from '../codec.js';
import type { RepoContext } from '../context.js';
import type { PermissionsTable } from '../schema.js';
import type { Permission, PermissionsRepo, Role } from '../types.js';

const toPermission = (r: Selectable<PermissionsTable>): Permission => ({
  slackUser: r.slack_user,
  role: r.role as Role,
  grantedBy: r.granted_by,
  grantedAt: fromMillis(r.granted_at),
});

export function permissionsRepo(ctx: RepoContext): PermissionsRepo {
  const { db } = ctx;
  const find = (slackUser: string) =>
    db.selectFrom('permissions').selectAll().where('slack_user', '=', slackUser).executeTakeFirst();

  return {
    grant: (slackUser, role, grantedBy, at = ctx.now()) =>
      ctx.run(async () => {
        const granted_at = toMillis(at);
        const row = await db
          .insertInto('permissions')
          .values({ slack_user: slackUser, role, granted_by: grantedBy, granted_at })
          .onConflict((oc) =>
            oc.column('slack_user').doUpdateSet({ role, granted_by: grantedBy, granted_at }),
          )
          .returningAll()
          .executeTakeFirstOrThrow();
        return toPermission(row);
      }),

    revoke: (slackUser) =>
      ctx.run(async () => {
        const result = await db
          .deleteFrom('permissions')
          .where('slack_user', '=', slackUser)
          .executeTakeFirst();
        return result.numDeletedRows > 0n;
      }),

    getRole: (slackUser) => ctx.run(async () => (await find(slackUser))?.role as Role | undefined),

    get: (slackUser) =>
      ctx.run(async () => {
        const row = await find(slackUser);
        return row ? toPermission(row) : undefined;
      }),

    list: () =>
      ctx.run(async () =>
        (await db.selectFrom('permissions').selectAll().orderBy('slack_user').execute()).map(toPermission),
      ),
  };
}
