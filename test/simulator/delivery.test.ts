import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AdvanceResult } from '../../src/simulator/state.js';
import { expectOk, manualClock, startTestSimulator, type TestSimulator } from './helpers.js';

const numbers = (n: number, base = 905_320_000_000) => Array.from({ length: n }, (_, i) => String(base + i));

describe('simulator sending, delivery and money', () => {
  const clock = manualClock();
  let t: TestSimulator;

  beforeEach(async () => {
    clock.set('2024-05-15T10:00:00.000Z');
    t = await startTestSimulator({ now: clock.now, initialBalance: 100, pricePerSegment: 0.05 });
  });
  afterEach(() => t.sim.close());

  async function submit(body: Record<string, unknown>): Promise<number> {
    const reply = await t.call('Submit', body);
    expectOk(reply);
    return reply.Response.MessageId;
  }

  async function report(id: number) {
    const reply = await t.call('QueryMulti', { MessageId: id });
    expectOk(reply);
    return reply.Response.Report.List[0];
  }

  async function balanceLog() {
    return (await t.call('GetBalanceLog', { DateRange: {} })).Response.BalanceLogs.List as Array<{
      Id: number;
      Type: string;
      Balance: number;
      CurrentBalance: number;
      Explanation: string;
      Cost: number | null;
      Timestamp: string;
    }>;
  }

  it('debits recipients × segments × price and logs the debit', async () => {
    // 200 GSM-7 characters need 2 segments.
    const id = await submit({ Message: 'x'.repeat(200), To: numbers(3), Header: { From: 'ACME' } });
    const balance = await t.call('GetBalance');
    expect(balance.Response.Balance).toEqual({ Limit: 0, Main: 99.7 });
    const last = (await balanceLog()).at(-1)!;
    expect(last).toEqual({
      Id: expect.any(Number),
      Timestamp: '2024-05-15T10:00:00.0000000',
      Type: 'Debit',
      Balance: 0.3,
      CurrentBalance: 99.7,
      Explanation: `SMS batch ${id}: 3 recipients, 6 segments, sender ACME`,
      Cost: 0.3,
    });
    expect((await report(id)).Cost).toBe(0.3);
  });

  it('prices each SubmitMulti envelope by its own segments and coding', async () => {
    const reply = await t.call('SubmitMulti', {
      DataCoding: 'UCS2',
      Envelopes: [
        { To: '905321234567', Message: 'ç'.repeat(70) }, // one UCS2 segment
        { To: '905321234568', Message: 'ç'.repeat(71) }, // two
      ],
    });
    expectOk(reply);
    expect((await report(reply.Response.MessageId)).Cost).toBe(0.15);
    expect(t.sim.state().batches[0]!.recipients.map((r) => r.segments)).toEqual([1, 2]);
  });

  it('keeps the balance log consistent: each entry moves CurrentBalance by its amount', async () => {
    await submit({ Message: 'one', To: numbers(7) });
    const id = await submit({ Message: 'two', To: numbers(4) });
    await t.call('Cancel', { MessageId: id });
    const log = await balanceLog();
    for (let i = 1; i < log.length; i++) {
      const signed = log[i]!.Type === 'Debit' ? -log[i]!.Balance : log[i]!.Balance;
      expect(log[i]!.CurrentBalance).toBeCloseTo(log[i - 1]!.CurrentBalance + signed, 6);
    }
    expect(log.at(-1)!.CurrentBalance).toBe((await t.call('GetBalance')).Response.Balance.Main);
  });

  it('advance with deliver 0.9 finalises every pending recipient with exact counts', async () => {
    const id = await submit({ Message: 'hi', To: numbers(10) });
    const { status, body } = await t.control<AdvanceResult>('/_sim/advance', { deliver: 0.9 });
    expect(status).toBe(200);
    expect(body).toEqual({
      delivered: 9,
      undelivered: 1,
      batches: [{ id, delivered: 9, undelivered: 1, pending: 0, state: 'PartiallyDelivered' }],
    });
    expect(await report(id)).toMatchObject({
      State: 'PartiallyDelivered',
      DeliveredCount: 9,
      UndeliveredCount: 1,
      Count: 10,
    });
    // Deterministic: the first recipients in submission order are the delivered ones.
    expect(t.sim.state().batches[0]!.recipients.map((r) => r.state)).toEqual([
      ...Array(9).fill('Delivered'),
      'Undelivered',
    ]);
  });

  it('advance with a share moves part of each batch and reports Sending until all are final', async () => {
    const a = await submit({ Message: 'a', To: numbers(10) });
    const b = await submit({ Message: 'b', To: numbers(4, 905_440_000_000) });
    expect((await report(a)).State).toBe('Queued');

    const step1 = await t.control<AdvanceResult>('/_sim/advance', { share: 0.5, deliver: 0.8 });
    // a: round(0.5 × 10) = 5 final, round(0.8 × 5) = 4 delivered; b: 2 final, round(1.6) = 2 delivered.
    expect(step1.body.batches).toEqual([
      { id: a, delivered: 4, undelivered: 1, pending: 5, state: 'Sending' },
      { id: b, delivered: 2, undelivered: 0, pending: 2, state: 'Sending' },
    ]);
    expect(await report(a)).toMatchObject({ State: 'Sending', DeliveredCount: 4, UndeliveredCount: 1 });

    await t.control('/_sim/advance', {});
    expect(await report(a)).toMatchObject({
      State: 'PartiallyDelivered',
      DeliveredCount: 9,
      UndeliveredCount: 1,
    });
    expect(await report(b)).toMatchObject({ State: 'Delivered', DeliveredCount: 4, UndeliveredCount: 0 });

    const idle = await t.control<AdvanceResult>('/_sim/advance', {});
    expect(idle.body).toEqual({ delivered: 0, undelivered: 0, batches: [] });
  });

  it('reports Undelivered when nothing arrives', async () => {
    const id = await submit({ Message: 'x', To: numbers(3) });
    await t.control('/_sim/advance', { deliver: 0 });
    expect(await report(id)).toMatchObject({ State: 'Undelivered', DeliveredCount: 0, UndeliveredCount: 3 });
  });

  it('Cancel mid-delivery stops the pending recipients and refunds exactly their cost', async () => {
    const id = await submit({ Message: 'x'.repeat(161), To: numbers(10) }); // 2 segments each: 1.00
    await t.control('/_sim/advance', { share: 0.3 }); // 3 delivered, 7 pending
    clock.advance(60_000);
    expectOk(await t.call('Cancel', { MessageId: id }));

    expect((await t.call('GetBalance')).Response.Balance.Main).toBe(99.7);
    const refund = (await balanceLog()).at(-1)!;
    expect(refund).toMatchObject({
      Type: 'Credit',
      Balance: 0.7,
      CurrentBalance: 99.7,
      Explanation: `Refund for cancelled messages of batch ${id} (7 recipients)`,
      Cost: null,
      Timestamp: '2024-05-15T10:01:00.0000000',
    });
    expect(await report(id)).toMatchObject({
      State: 'PartiallyDelivered',
      DeliveredCount: 3,
      UndeliveredCount: 0,
      Count: 10,
      Cost: 0.3,
    });
    const recipients = t.sim.state().batches[0]!.recipients.map((r) => r.state);
    expect(recipients).toEqual([...Array(3).fill('Delivered'), ...Array(7).fill('Cancelled')]);
    // Cancelled recipients are final: advance leaves them alone, and a second Cancel is a 409.
    expect((await t.control<AdvanceResult>('/_sim/advance', {})).body.delivered).toBe(0);
    expect((await t.call('Cancel', { MessageId: id })).Response.Status.Code).toBe(409);
  });

  it('a batch cancelled before any delivery reports Cancelled and costs nothing', async () => {
    const id = await submit({ Message: 'x', To: numbers(2) });
    expectOk(await t.call('Cancel', { MessageId: id }));
    expect(await report(id)).toMatchObject({
      State: 'Cancelled',
      Cost: 0,
      DeliveredCount: 0,
      UndeliveredCount: 0,
    });
    expect((await t.call('GetBalance')).Response.Balance.Main).toBe(100);
  });

  it('QueryStats adds live batches to the current month', async () => {
    const before = (await t.call('QueryStats')).Response.Report.List.at(-1);
    await submit({ Message: 'x', To: numbers(5) });
    await t.control('/_sim/advance', { deliver: 0.6 });
    await submit({ Message: 'y', To: numbers(2) });
    const after = (await t.call('QueryStats')).Response.Report.List.at(-1);
    expect(after).toEqual({
      Year: 2024,
      Month: 5,
      Delivered: before.Delivered + 3,
      Undelivered: before.Undelivered + 2,
      Count: before.Count + 7,
    });
  });

  it('seeds spend over the last 1, 7 and 30 days', async () => {
    const log = await balanceLog();
    const nowMs = Date.parse('2024-05-15T10:00:00Z');
    const spent = (days: number) =>
      log
        .filter(
          (e) =>
            e.Type === 'Debit' && Date.parse(`${e.Timestamp.slice(0, 23)}Z`) >= nowMs - days * 86_400_000,
        )
        .reduce((sum, e) => sum + e.Balance, 0);
    expect(spent(1)).toBeGreaterThan(0);
    expect(spent(7)).toBeGreaterThan(spent(1));
    expect(spent(30)).toBeGreaterThan(spent(7));
  });
});
