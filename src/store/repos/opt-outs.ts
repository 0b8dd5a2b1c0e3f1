import { NumberSet } from '../../sms/number-set.js';
import { fromMillis, toMillis } from '../codec.js';
import type { RepoContext } from '../context.js';
import type { OptOutSource, OptOutsRepo } from '../types.js';

// Well under SQLite's and PostgreSQL's bound-parameter limits, and large enough that 10,000 numbers
// take a handful of round trips.
const CHUNK = 1_000;

export function optOutsRepo(ctx: RepoContext): OptOutsRepo {
  const { db } = ctx;
  /** The whole opt-out list, read once, when it has at most `asked` numbers; else undefined (ask for them). */
  const wholeListUpTo = async (asked: number): Promise<NumberSet | undefined> => {
    const { listed } = await ctx.run(() =>
      db
        .selectFrom('opt_outs')
        .select((eb) => eb.fn.countAll().as('listed'))
        .executeTakeFirstOrThrow(),
    );
    if (Number(listed) > asked) return undefined;
    if (Number(listed) === 0) return new NumberSet([]);
    const rows = await ctx.run(() => db.selectFrom('opt_outs').select('msisdn').execute());
    return new NumberSet(rows.map((row) => row.msisdn));
  };
  const repo: OptOutsRepo = {
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
    async hasManyPacked(numbers) {
      if (numbers.count === 0) return new Set();
      // Fewer opt-outs than numbers asked: the list scanned as it is packed.
      const whole = await wholeListUpTo(numbers.count);
      return whole ? whole.foundInPacked(numbers) : repo.hasMany(numbers.toArray());
    },

    async hasMany(msisdns) {
      const asked = Array.isArray(msisdns) ? (msisdns as readonly string[]) : [...msisdns];
      if (asked.length > CHUNK) {
        const whole = await wholeListUpTo(asked.length);
        if (whole) return whole.foundIn(asked);
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
  return repo;
}
