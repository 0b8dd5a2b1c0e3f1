import { fromMillis, toMillis } from '../codec.js';
import type { RepoContext } from '../context.js';
import type { OptOutSource, OptOutsRepo } from '../types.js';

// Well under SQLite's and PostgreSQL's bound-parameter limits, and large enough that 10,000 numbers
// take a handful of round trips.
const CHUNK = 1_000;

export function optOutsRepo(ctx: RepoContext): OptOutsRepo {
  const { db } = ctx;
  return {
    add: (msisdn, entry) =>
      ctx.run(async () => {
        const inserted = await db
          .insertInto('opt_outs')
          .values({
            msisdn,
            since: toMillis(entry.at ?? ctx.now()),
            source: entry.source,
            added_by: entry.by ?? null,
          })
          .onConflict((oc) => oc.column('msisdn').doNothing())
          .returning('msisdn')
          .executeTakeFirst();
        return inserted !== undefined;
      }),

    remove: (msisdn) =>
      ctx.run(async () => {
        const result = await db.deleteFrom('opt_outs').where('msisdn', '=', msisdn).executeTakeFirst();
        return result.numDeletedRows > 0n;
      }),

    has: (msisdn) =>
      ctx.run(async () => {
        const row = await db
          .selectFrom('opt_outs')
          .select('msisdn')
          .where('msisdn', '=', msisdn)
          .executeTakeFirst();
        return row !== undefined;
      }),

    // A send's numbers against the opt-out list, reading whichever is smaller: 100,000 numbers against a list of
    // a few hundred read the list (one query) instead of asking for 1,000 numbers 100 times (~80 ms on SQLite,
    // measured) after putting all of them in a set; a few numbers against a long list are asked for.
    async hasMany(msisdns) {
      const asked = Array.isArray(msisdns) ? (msisdns as readonly string[]) : [...msisdns];
      if (asked.length > CHUNK) {
        const { listed } = await ctx.run(() =>
          db
            .selectFrom('opt_outs')
            .select((eb) => eb.fn.countAll().as('listed'))
            .executeTakeFirstOrThrow(),
        );
        if (Number(listed) <= asked.length) {
          const rows = await ctx.run(() => db.selectFrom('opt_outs').select('msisdn').execute());
          return listedOf(
            asked,
            rows.map((row) => row.msisdn),
          );
        }
      }
      const unique = [...new Set(asked)];
      const found = new Set<string>();
      for (let i = 0; i < unique.length; i += CHUNK) {
        const chunk = unique.slice(i, i + CHUNK);
        const rows = await ctx.run(() =>
          db.selectFrom('opt_outs').select('msisdn').where('msisdn', 'in', chunk).execute(),
        );
        for (const row of rows) found.add(row.msisdn);
      }
      return found;
    },

    list: () =>
      ctx.run(async () => {
        const rows = await db
          .selectFrom('opt_outs')
          .selectAll()
          .orderBy('since', 'desc')
          .orderBy('msisdn')
          .execute();
        return rows.map((r) => ({
          msisdn: r.msisdn,
          since: fromMillis(r.since),
          source: r.source as OptOutSource,
          by: r.added_by,
        }));
      }),
  };
}

/**
 * The numbers of `asked` that `list` holds. Most of a send is not on the list, and a set lookup must first hash
 * each number, made just before and never hashed yet; a table of the list's last four digits turns most of them
 * away with four character reads (100,000 numbers against 1,000: ~3 against ~10 ms).
 */
export function listedOf(asked: readonly string[], list: readonly string[]): Set<string> {
  const found = new Set<string>();
  if (list.length === 0) return found;
  const listed = new Set(list);
  const endings = new Uint8Array(10_000);
  let oddEndings = false;
  for (const number of list) {
    const ending = lastFourDigits(number);
    if (ending < 0) oddEndings = true;
    else endings[ending] = 1;
  }
  for (let i = 0; i < asked.length; i++) {
    const number = asked[i]!;
    const ending = lastFourDigits(number);
    if (ending >= 0 ? endings[ending] === 0 : !oddEndings) continue;
    if (listed.has(number)) found.add(number);
  }
  return found;
}

/** The number its last four characters make, or -1 when they are not four digits. */
function lastFourDigits(text: string): number {
  const n = text.length;
  if (n < 4) return -1;
  let value = 0;
  for (let i = n - 4; i < n; i++) {
    const digit = text.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}
