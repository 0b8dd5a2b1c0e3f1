import type { Selectable } from 'kysely';
import { fromJson, fromMillis, newToken, toJson, toMillis } from '../codec.js';
import type { RepoContext } from '../context.js';
import type { AuditLogTable } from '../schema.js';
import type { AuditEntry, AuditRepo } from '../types.js';

const toEntry = (r: Selectable<AuditLogTable>): AuditEntry => ({
  id: Number(r.id),
  at: fromMillis(r.at),
  actor: r.actor,
  action: r.action,
  target: r.target,
  details: fromJson(r.details),
});

export function auditRepo(ctx: RepoContext): AuditRepo {
  const { db } = ctx;
  return {
    append(entry) {
      // The token makes a retried append land once even if the first attempt's reply was lost.
      const token = newToken();
      const values = {
        entry_token: token,
        at: toMillis(entry.at ?? ctx.now()),
        actor: entry.actor,
        action: entry.action,
        target: entry.target ?? null,
        details: toJson(entry.details),
      };
      return ctx.run(async () => {
        const inserted = await db
          .insertInto('audit_log')
          .values(values)
          .onConflict((oc) => oc.column('entry_token').doNothing())
          .returningAll()
          .executeTakeFirst();
        const row =
          inserted ??
          (await db
            .selectFrom('audit_log')
            .selectAll()
            .where('entry_token', '=', token)
            .executeTakeFirstOrThrow());
        return toEntry(row);
      });
    },

    recent: (limit) =>
      ctx.run(async () =>
        (await db.selectFrom('audit_log').selectAll().orderBy('id', 'desc').limit(limit).execute()).map(
          toEntry,
        ),
      ),
  };
}
