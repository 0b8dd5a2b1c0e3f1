import { sql } from 'kysely';
import type { RepoContext } from '../context.js';
import type { GatewayIdsRepo } from '../types.js';

/**
 * Gateway ids are kept as decimal text (exact past 2^53). Ordered by length first, then as text, digits-only
 * values sort as the numbers they are, in SQLite and PostgreSQL alike, with no cast that a stray value could fail.
 */
const byNumericText = (column: string) => sql<number>`length(${sql.ref(column)})`;

/** The id as a bigint when it is a whole decimal number; anything else is no id to count from. */
function wholeNumber(text: string | null | undefined): bigint | undefined {
  const trimmed = text?.trim();
  return trimmed && /^\d{1,30}$/.test(trimmed) ? BigInt(trimmed) : undefined;
}

export function gatewayIdsRepo(ctx: RepoContext): GatewayIdsRepo {
  const { db } = ctx;
  return {
    highest: () =>
      ctx.run(async () => {
        const [send, inbound] = await Promise.all([
          db
            .selectFrom('outbox')
            .select('message_id as id')
            .where('message_id', 'is not', null)
            .orderBy(byNumericText('message_id'), 'desc')
            .orderBy('message_id', 'desc')
            .limit(1)
            .executeTakeFirst(),
          db
            .selectFrom('inbound_messages')
            .select('gateway_id as id')
            .orderBy(byNumericText('gateway_id'), 'desc')
            .orderBy('gateway_id', 'desc')
            .limit(1)
            .executeTakeFirst(),
        ]);
        return { messageId: wholeNumber(send?.id), inboundId: wholeNumber(inbound?.id) };
      }),
  };
}
