import { createHmac, randomBytes } from 'node:crypto';
import { toMillis } from '../codec.js';
import type { RepoContext } from '../context.js';
import type { ForgottenNumbersRepo } from '../types.js';

/** The app_settings row holding the install's key for the hashes of forgotten numbers. */
const KEY_SETTING = 'forgotten_numbers.key';
/** Hashes asked for in one query (well under SQLite's and PostgreSQL's bound-parameter limits). */
const CHUNK = 500;

export function forgottenNumbersRepo(ctx: RepoContext): ForgottenNumbersRepo {
  const { db } = ctx;
  let key: Promise<Buffer> | undefined;

  /**
   * Made once per install, by whichever instance gets there first (insert-or-keep, then read back), so every
   * instance hashes alike. A key per install: the table's hashes cannot be matched against another install's.
   */
  const keyOf = (): Promise<Buffer> => {
    key ??= ctx
      .run(async () => {
        await db
          .insertInto('app_settings')
          .values({
            name: KEY_SETTING,
            value: randomBytes(32).toString('base64'),
            updated_by: 'smsops',
            updated_at: toMillis(ctx.now()),
          })
          .onConflict((oc) => oc.column('name').doNothing())
          .execute();
        const row = await db
          .selectFrom('app_settings')
          .select('value')
          .where('name', '=', KEY_SETTING)
          .executeTakeFirstOrThrow();
        return Buffer.from(row.value, 'base64');
      })
      .catch((error: unknown) => {
        key = undefined;
        throw error;
      });
    return key;
  };
  const hashOf = (secret: Buffer, msisdn: string) =>
    createHmac('sha256', secret).update(msisdn).digest('hex');

  return {
    add: async (msisdn, at = ctx.now()) => {
      const hash = hashOf(await keyOf(), msisdn);
      await ctx.run(() =>
        db
          .insertInto('forgotten_numbers')
          .values({ hash, forgotten_at: toMillis(at) })
          .onConflict((oc) => oc.column('hash').doNothing())
          .execute(),
      );
    },

    forgottenAmong: async (msisdns) => {
      const unique = [...new Set(msisdns)];
      const found = new Set<string>();
      if (unique.length === 0) return found;
      const secret = await keyOf();
      const byHash = new Map(unique.map((m) => [hashOf(secret, m), m]));
      const hashes = [...byHash.keys()];
      for (let i = 0; i < hashes.length; i += CHUNK) {
        const chunk = hashes.slice(i, i + CHUNK);
        const rows = await ctx.run(() =>
          db.selectFrom('forgotten_numbers').select('hash').where('hash', 'in', chunk).execute(),
        );
        for (const row of rows) found.add(byHash.get(row.hash)!);
      }
      return found;
    },
  };
}
