import type { Selectable } from 'kysely';
import { fromMillis, fromMillisOrNull, toMillis } from '../codec.js';
import type { RepoContext } from '../context.js';
import type { SubscriptionsTable } from '../schema.js';
import type { Subscription, SubscriptionSpec, SubscriptionsRepo } from '../types.js';

/** Fields that tell two subscriptions of a kind apart; equal specs give equal keys. */
function filterKey(spec: SubscriptionSpec): string {
  switch (spec.kind) {
    case 'inbound':
      return JSON.stringify([spec.keyword?.trim().toLowerCase() || null, spec.recipient?.trim() || null]);
    case 'digest':
      return JSON.stringify([spec.digest, spec.cron.trim(), spec.timezone]);
    case 'low_balance':
      return JSON.stringify([spec.threshold]);
    case 'report':
      // One monthly report per channel, whatever its detail (subscribing again replaces it).
      return JSON.stringify(['monthly']);
  }
}

/** The spec as stored: normalised the way filterKey sees it, without the kind (its own column). */
function config(spec: SubscriptionSpec): string {
  switch (spec.kind) {
    case 'inbound':
      return JSON.stringify({
        keyword: spec.keyword?.trim() || null,
        recipient: spec.recipient?.trim() || null,
      });
    case 'digest':
      return JSON.stringify({ digest: spec.digest, cron: spec.cron.trim(), timezone: spec.timezone });
    case 'low_balance':
      return JSON.stringify({ threshold: spec.threshold });
    case 'report':
      return JSON.stringify({ detail: spec.detail, timezone: spec.timezone });
  }
}

function toSubscription(r: Selectable<SubscriptionsTable>): Subscription {
  return {
    ...(JSON.parse(r.config) as object),
    kind: r.kind,
    id: Number(r.id),
    channel: r.channel,
    createdBy: r.created_by,
    createdAt: fromMillis(r.created_at),
    alertState: r.alert_state,
    alertedAt: fromMillisOrNull(r.alerted_at),
  } as Subscription;
}

export function subscriptionsRepo(ctx: RepoContext): SubscriptionsRepo {
  const { db } = ctx;
  const select = () => db.selectFrom('subscriptions').selectAll();

  return {
    add(channel, spec, createdBy, at = ctx.now()) {
      const key = filterKey(spec);
      return ctx.run(async () => {
        const inserted = await db
          .insertInto('subscriptions')
          .values({
            channel,
            kind: spec.kind,
            filter_key: key,
            config: config(spec),
            alert_state: null,
            alerted_at: null,
            created_by: createdBy,
            created_at: toMillis(at),
          })
          .onConflict((oc) => oc.columns(['channel', 'kind', 'filter_key']).doNothing())
          .returningAll()
          .executeTakeFirst();
        if (inserted) return { subscription: toSubscription(inserted), created: true };
        const existing = await select()
          .where('channel', '=', channel)
          .where('kind', '=', spec.kind)
          .where('filter_key', '=', key)
          .executeTakeFirstOrThrow();
        return { subscription: toSubscription(existing), created: false };
      });
    },

    remove: (id) =>
      ctx.run(async () => {
        const result = await db.deleteFrom('subscriptions').where('id', '=', id).executeTakeFirst();
        return result.numDeletedRows > 0n;
      }),

    get: (id) =>
      ctx.run(async () => {
        const row = await select().where('id', '=', id).executeTakeFirst();
        return row ? toSubscription(row) : undefined;
      }),

    list: () => ctx.run(async () => (await select().orderBy('id').execute()).map(toSubscription)),

    listByChannel: (channel) =>
      ctx.run(async () =>
        (await select().where('channel', '=', channel).orderBy('id').execute()).map(toSubscription),
      ),

    listByKind: (kind) =>
      ctx.run(
        async () =>
          (await select().where('kind', '=', kind).orderBy('id').execute()).map(toSubscription) as never,
      ),

    setAlertState: (id, change) =>
      ctx.run(async (attempt) => {
        const at = change.at === null ? null : toMillis(change.at);
        const changed = await db
          .updateTable('subscriptions')
          .set({ alert_state: change.to, alerted_at: at })
          .where('id', '=', id)
          .where((eb) =>
            change.from === null ? eb('alert_state', 'is', null) : eb('alert_state', '=', change.from),
          )
          .returning('id')
          .executeTakeFirst();
        if (changed) return true;
        if (attempt === 0) return false;
        const row = await select().where('id', '=', id).executeTakeFirst();
        const rowAt = row?.alerted_at === null || row === undefined ? null : Number(row.alerted_at);
        return row?.alert_state === change.to && rowAt === at;
      }),
  };
}
