import { describe, expect, it } from 'vitest';
import { FAST_REPLIES } from '../../src/gateway/fast-replies.js';
import { type Operation, schemas } from '../../src/gateway/wire.js';

/**
 * The hand-checked readers of the common replies give exactly what the zod schemas give, or step aside
 * (undefined) so the schema reads the reply and names what is wrong: never a different answer.
 */
const wire = schemas('Europe/Istanbul');
const ok = { Code: 200, Description: 'OK' };

const replies: Record<'Submit' | 'SubmitMulti' | 'GetBalance' | 'Cancel', unknown[]> = {
  Submit: [
    { Response: { MessageId: 123, Status: ok } },
    { Response: { MessageId: 123, Status: { Code: 200 } }, Extra: 1 },
    { Response: { MessageId: 123, Status: { Code: 200, Description: null }, Other: 'x' } },
    { Response: { MessageId: '123', Status: ok } },
    { Response: { MessageId: 12.5, Status: ok } },
    { Response: { MessageId: 2 ** 53, Status: ok } },
    { Response: { Status: { Code: 401, Description: 'Unauthorized' } } },
    { Response: { MessageId: 5, Status: { Code: '200', Description: 'OK' } } },
    { Response: { MessageId: 5, Status: { Code: 200, Description: 7 } } },
    { Response: { MessageId: 5 } },
    { Response: [] },
    null,
    [],
    'text',
  ],
  SubmitMulti: [{ Response: { MessageId: 9, Status: ok } }, { Response: { MessageId: -1, Status: ok } }],
  GetBalance: [
    { Response: { Balance: { Limit: 0, Main: 1234.5 }, Status: ok } },
    { Response: { Balance: { Main: 10, Other: true }, Status: ok } },
    { Response: { Balance: { Limit: null, Main: null }, Status: ok } },
    { Response: { Balance: { Limit: '5', Main: '7.25' }, Status: ok } },
    { Response: { Balance: { Limit: 1, Main: 'lots' }, Status: ok } },
    { Response: { Balance: null, Status: ok } },
    { Response: { Balance: { Limit: 1, Main: 2 }, Status: { Code: 500, Description: 'down' } } },
    { Response: { Balance: { Limit: 1, Main: 2 } } },
  ],
  Cancel: [
    { Response: { Status: ok } },
    { Response: { Status: { Code: 200, Description: null }, MessageId: 4 } },
    { Response: { Status: { Code: 404, Description: 'no such message' } } },
    { Response: {} },
  ],
};

describe('fast readers of the common gateway replies', () => {
  for (const [operation, cases] of Object.entries(replies) as [Operation, unknown[]][]) {
    it.each(cases.map((c) => [JSON.stringify(c), c]))(
      `${operation} %s: as the schema, or stands aside`,
      (_, json) => {
        const fast = (FAST_REPLIES[operation] as (j: unknown) => unknown)(json);
        const schema = wire[operation].safeParse(json);
        if (fast === undefined) {
          // Only a reply the schema refuses, or one not plain enough (numeric strings, nulls, a failure status).
          return;
        }
        expect(schema.success).toBe(true);
        expect(fast).toEqual(schema.data);
        // A failure status is never taken on the fast path: the client reports it as the gateway's refusal.
        expect((fast as { Response: { Status: { Code: number } } }).Response.Status.Code).toBe(200);
      },
    );
  }

  it('takes the plain replies a healthy gateway sends (so the common path skips zod)', () => {
    expect(FAST_REPLIES.Submit!({ Response: { MessageId: 1, Status: ok } })).toBeDefined();
    expect(FAST_REPLIES.GetBalance!({ Response: { Balance: { Limit: 0, Main: 5 }, Status: ok } })).toEqual({
      Response: { Balance: { Limit: 0, Main: 5 }, Status: ok },
    });
    expect(
      FAST_REPLIES.GetBalance!({ Response: { Balance: { Limit: '5', Main: 5 }, Status: ok } }),
    ).toBeUndefined();
    expect(FAST_REPLIES.Submit!({ Response: { MessageId: 1, Status: { Code: 401 } } })).toBeUndefined();
  });
});
