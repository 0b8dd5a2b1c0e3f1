import type { Selectable } from 'kysely';
import { PackedStrings } from '../../sms/packed-strings.js';
import { fromMillis, numberPattern, toMillis } from '../codec.js';
import type { RepoContext } from '../context.js';
import type { DraftsTable } from '../schema.js';
import type { Draft, DraftsRepo, JsonValue } from '../types.js';

/** A draft of some 15,000 numbers or more. */
const LARGE_DRAFT_CHARS = 256 * 1024;

const toDraft = (r: Selectable<DraftsTable>): Draft => ({
  key: r.key,
  owner: r.owner,
  payload: JSON.parse(r.payload) as JsonValue,
  ...(r.numbers === null ? {} : { numbers: r.numbers }),
  expiresAt: fromMillis(r.expires_at),
  createdAt: fromMillis(r.created_at),
});

export function draftsRepo(ctx: RepoContext): DraftsRepo {
  const { db } = ctx;
  // One operation on drafts at a time, in the order they are asked: a large draft is written by the SQLite thread
  // (sqlite-thread.ts), everything else here, and a draft put after it under the same key (another file, a
  // pick) must not be overwritten by it, nor a get or a forget run before it lands.
  let last: Promise<unknown> = Promise.resolve();
  const inTurn = <T>(op: (attempt: number) => Promise<T>): Promise<T> => {
    const next = last.then(() => ctx.run(op));
    last = next.catch(() => undefined);
    return next;
  };
  return {
    put: (key, owner, payload, expiresAt, numbers) =>
      inTurn(async () => {
        const text = JSON.stringify(payload);
        const size = text.length + (numbers?.length ?? 0);
        const large = size >= LARGE_DRAFT_CHARS;
        if (large) {
          ctx.noteWrite?.(size);
          // A 100,000-row draft's JSON is made in a few milliseconds: one turn of the event loop before its
          // write, for what waits (an ack) to go first.
          await new Promise((resolve) => setImmediate(resolve));
        }
        const values = {
          key,
          owner,
          payload: text,
          numbers: numbers ?? null,
          expires_at: toMillis(expiresAt),
          created_at: toMillis(ctx.now()),
        };
        const upsert = db
          .insertInto('drafts')
          .values(values)
          // The new row's own values, bound once: a 100,000-recipient draft is megabytes of JSON.
          .onConflict((oc) =>
            oc.column('key').doUpdateSet((eb) => ({
              owner: eb.ref('excluded.owner'),
              payload: eb.ref('excluded.payload'),
              numbers: eb.ref('excluded.numbers'),
              expires_at: eb.ref('excluded.expires_at'),
            })),
          );
        // Made twice (a retry), it leaves the same row: fit to run where the store writes large values. Only when
        // what makes it large is the numbers, one ASCII string: a large JSON (a personalised draft's values, two
        // bytes a character) would be copied twice more to cross, +35-60 MiB at the peak of a 100,000-row
        // personalised file (bench/files.ts, 2026-11-27), and it is stringified here anyway.
        if (large && ctx.writeLarge && text.length < LARGE_DRAFT_CHARS) {
          await ctx.writeLarge(upsert.compile(), size);
        } else await upsert.execute();
      }),

    get: (key, now) =>
      inTurn(async () => {
        const row = await db
          .selectFrom('drafts')
          .selectAll()
          .where('key', '=', key)
          .where('expires_at', '>', toMillis(now))
          .executeTakeFirst();
        return row ? toDraft(row) : undefined;
      }),

    take: (key, now) =>
      inTurn(async () => {
        const row = await db
          .deleteFrom('drafts')
          .where('key', '=', key)
          .where('expires_at', '>', toMillis(now))
          .returningAll()
          .executeTakeFirst();
        return row ? toDraft(row) : undefined;
      }),

    delete: (key) =>
      inTurn(async () => {
        const result = await db.deleteFrom('drafts').where('key', '=', key).executeTakeFirst();
        return result.numDeletedRows > 0n;
      }),

    pruneExpired: (now) =>
      inTurn(async () => {
        const result = await db
          .deleteFrom('drafts')
          .where('expires_at', '<=', toMillis(now))
          .executeTakeFirst();
        return Number(result.numDeletedRows);
      }),

    purgeCreatedBefore: (before) =>
      inTurn(async () => {
        const result = await db
          .deleteFrom('drafts')
          .where('created_at', '<', toMillis(before))
          .executeTakeFirst();
        return Number(result.numDeletedRows);
      }),

    forgetNumber: (msisdn) =>
      inTurn(async () => {
        // A draft is one send being confirmed: one that holds the number goes whole.
        // Not only as a JSON string: a value of packed strings is inside one text, and the numbers beside a
        // payload have no quotes around each, a comma between them.
        const pattern = numberPattern(msisdn);
        const candidates = await db
          .selectFrom('drafts')
          .select(['key', 'payload', 'numbers'])
          .where((eb) => eb.or([eb('payload', 'like', pattern), eb('numbers', 'like', pattern)]))
          .execute();
        const keys = candidates
          .filter((d) => holds(JSON.parse(d.payload), msisdn) || listed(d.numbers, msisdn))
          .map((d) => d.key);
        if (keys.length === 0) return 0;
        const result = await db.deleteFrom('drafts').where('key', 'in', keys).executeTakeFirst();
        return Number(result.numDeletedRows);
      }),
  };
}

/** Whether the numbers kept beside a payload (a comma between them) have this one. */
function listed(numbers: string | null, wanted: string): boolean {
  return numbers !== null && `,${numbers},`.includes(`,${wanted},`);
}

/** Whether `value` holds the string `wanted` anywhere inside it, as a string or an item of packed strings. */
function holds(value: unknown, wanted: string): boolean {
  if (value === wanted) return true;
  if (Array.isArray(value)) return value.some((v) => holds(v, wanted));
  // A personalised draft's message values, packed (src/sms/packed-strings.ts): a value that is the number, not
  // two values that make it end to end in the packed text.
  const packed =
    typeof value === 'object' && value !== null && 'lengths' in value && PackedStrings.fromJSON(value);
  if (packed) {
    if (!packed.text.includes(wanted)) return false;
    for (let i = 0; i < packed.length; i++) if (packed.at(i) === wanted) return true;
    return false;
  }
  if (value && typeof value === 'object') return Object.values(value).some((v) => holds(v, wanted));
  return false;
}
