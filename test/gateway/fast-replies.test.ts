import { describe, expect, it } from 'vitest';
import { FAST_REPLIES } from '../../src/gateway/fast-replies.js';
import { type Operation, schemas } from '../../src/gateway/wire.js';

/**
 * The hand-checked readers of the common replies give exactly what the zod schemas give, or step aside
 * (undefined) so the schema reads the reply and names what is wrong: never a different answer.
 */
const ZONE = 'Europe/Istanbul';
const wire = schemas(ZONE);
const ok = { Code: 200, Description: 'OK' };

const entry = {
  Id: 7,
  Timestamp: '2026-11-20T09:15:00.1234567',
  Type: 'Debit',
  Balance: 12.5,
  CurrentBalance: 987.5,
  Explanation: 'SMS sending: 50 messages, 50 segments',
  Cost: 12.5,
};
const log = (List: unknown, more: Record<string, unknown> = {}) => ({
  Response: { BalanceLogs: { List, TotalCount: Array.isArray(List) ? List.length : 0, ...more }, Status: ok },
});

const replies: Record<'Submit' | 'SubmitMulti' | 'GetBalance' | 'GetBalanceLog' | 'Cancel', unknown[]> = {
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
  GetBalanceLog: [
    log([entry, { ...entry, Id: 8, Type: 'Credit', Cost: null, Explanation: 'Top-up' }]),
    log([{ ...entry, Unknown: true, Timestamp: '2026-11-20 09:15' }]),
    log([
      { ...entry, Timestamp: '2026-11-20T09:15:00Z' },
      { ...entry, Timestamp: '2026-11-20T09:15:00+0300' },
    ]),
    log([
      { ...entry, Timestamp: '' },
      { ...entry, Timestamp: null },
      { Id: null, Balance: null },
    ]),
    log([{ Id: 1 }]),
    log([]),
    log(null),
    log([entry], { TotalCount: null }),
    log([entry], { TotalCount: undefined }),
    log([entry], { TotalCount: '1' }),
    { Response: { BalanceLogs: null, Status: ok } },
    { Response: { Status: ok } },
    log([{ ...entry, Timestamp: '2026-02-30T09:15:00' }]),
    log([{ ...entry, Timestamp: 'yesterday' }]),
    log([{ ...entry, Timestamp: 20261120 }]),
    log([{ ...entry, Cost: '12.5' }]),
    log([{ ...entry, Balance: '12.5' }]),
    log([{ ...entry, Id: 2 ** 53 }]),
    log([{ ...entry, Id: 1.5 }]),
    log([{ ...entry, Type: 3 }]),
    log([{ ...entry, Explanation: {} }]),
    log([[entry]]),
    log([null]),
    log({ 0: entry }),
    { Response: { BalanceLogs: [entry], Status: ok } },
    { Response: { BalanceLogs: { List: [entry] }, Status: { Code: 401, Description: 'Unauthorized' } } },
    { Response: { BalanceLogs: { List: [entry] } } },
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
        const fast = (FAST_REPLIES[operation] as (j: unknown, zone: string) => unknown)(json, ZONE);
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
    expect(FAST_REPLIES.Submit!({ Response: { MessageId: 1, Status: ok } }, ZONE)).toBeDefined();
    expect(
      FAST_REPLIES.GetBalance!({ Response: { Balance: { Limit: 0, Main: 5 }, Status: ok } }, ZONE),
    ).toEqual({
      Response: { Balance: { Limit: 0, Main: 5 }, Status: ok },
    });
    expect(
      FAST_REPLIES.GetBalance!({ Response: { Balance: { Limit: '5', Main: 5 }, Status: ok } }, ZONE),
    ).toBeUndefined();
    expect(FAST_REPLIES.Submit!({ Response: { MessageId: 1, Status: { Code: 401 } } }, ZONE)).toBeUndefined();
    // The log /sms balance reads: its times in the gateway's zone (Istanbul is UTC+3), a credit without a cost.
    const read = FAST_REPLIES.GetBalanceLog!(log([entry, { ...entry, Cost: null }]), ZONE);
    expect(read?.Response.BalanceLogs.items.map((e) => [e.Timestamp?.toISOString(), e.Cost])).toEqual([
      ['2026-11-20T06:15:00.123Z', 12.5],
      ['2026-11-20T06:15:00.123Z', undefined],
    ]);
    expect(FAST_REPLIES.GetBalanceLog!(log([{ ...entry, Timestamp: 'yesterday' }]), ZONE)).toBeUndefined();
    // Every plain shape above (the first nine) is taken: nulls, absent members, other time forms, empty lists.
    for (const reply of replies.GetBalanceLog.slice(0, 9)) {
      expect(FAST_REPLIES.GetBalanceLog!(reply, ZONE)).toBeDefined();
    }
  });
});
