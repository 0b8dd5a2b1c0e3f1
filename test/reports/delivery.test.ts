import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GatewayClient } from '../../src/gateway/index.js';
import { DeliveryLookup, type DeliveryPace } from '../../src/reports/delivery.js';
import type { OutboxRow } from '../../src/store/index.js';
import { type SimulatorControl, startTestSimulator } from '../support/simulator.js';

let control: SimulatorControl;
let close: () => Promise<void>;
let gateway: GatewayClient;

beforeAll(async () => {
  const started = await startTestSimulator({ username: 'demo', password: 'demo' });
  control = started.control;
  close = started.sim.close;
  gateway = new GatewayClient({
    baseUrl: started.sim.url,
    username: 'demo',
    password: 'demo',
    timeZone: 'UTC',
    timeoutMs: 1_000,
    retry: { attempts: 1 },
  });
});
afterAll(async () => {
  await gateway.close();
  await close();
});
beforeEach(async () => {
  await control.reset();
});

/** A clock that only moves when the lookup waits: every wait is seen, none is slept. */
function fakePace(callsPerMinute: number): DeliveryPace & { waits: number[] } {
  let now = 1_000_000;
  const waits: number[] = [];
  return {
    callsPerMinute,
    waits,
    now: () => now,
    sleep: async (ms) => {
      waits.push(ms);
      now += ms;
    },
  };
}

/** The parts of an outbox row the lookup reads. */
function rowOf(messageId: number, final = false): OutboxRow {
  return {
    messageId: String(messageId),
    recipientCount: 2,
    delivery: {
      delivered: 1,
      undelivered: 0,
      count: 2,
      state: 'stored',
      final,
      lastPolledAt: null,
      nextPollAt: null,
    },
  } as OutboxRow;
}

async function submitBatches(n: number): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < n; i++) {
    ids.push(
      (await gateway.submit({ from: 'SMSOPS', to: ['905321110000', '905321110001'], message: `m${i}` }))
        .messageId,
    );
  }
  await control.advance({ deliver: 1 });
  return ids;
}

const range = () => ({ from: new Date(Date.now() - 3_600_000), to: new Date(Date.now() + 3_600_000) });

describe('delivery figures for a report', () => {
  it('answers every batch of the period from one listing', async () => {
    const ids = await submitBatches(5);
    const before = await control.callCount('QueryMulti');
    const lookup = new DeliveryLookup(gateway, fakePace(60));
    await lookup.list(range());
    for (const id of ids) {
      expect(await lookup.figures(rowOf(id))).toEqual({
        delivered: 2,
        undelivered: 0,
        pending: 0,
        source: 'gateway now',
      });
    }
    expect((await control.callCount('QueryMulti')) - before).toBe(1);
  });

  it('asks a batch missing from the listing by its MessageId, within the calls a minute allows', async () => {
    const ids = await submitBatches(5);
    // The listing is refused: each batch is asked on its own.
    await control.fault({ operation: 'QueryMulti', kind: 'status', code: 500, times: 1 });
    const pace = fakePace(2);
    const lookup = new DeliveryLookup(gateway, pace);
    await lookup.list(range());
    for (const id of ids) expect((await lookup.figures(rowOf(id))).source).toBe('gateway now');
    expect(lookup.calls).toBe(6);
    // Six calls at two a minute: the lookup waited out two full minutes, never asking faster.
    expect(pace.waits.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(120_000);
  });

  it('a final batch keeps what the tracker recorded, and a gateway that is down is not asked again', async () => {
    const [id] = await submitBatches(1);
    await control.fault({ operation: 'QueryMulti', kind: 'timeout', times: 10, delayMs: 2_000 });
    const lookup = new DeliveryLookup(gateway, fakePace(60));
    expect(await lookup.figures(rowOf(id!, true))).toEqual({
      delivered: 1,
      undelivered: 0,
      pending: 1,
      source: 'last poll',
    });
    expect(lookup.calls).toBe(0);
    expect((await lookup.figures(rowOf(id!))).source).toBe('last poll');
    expect((await lookup.figures(rowOf(id!))).source).toBe('last poll');
    expect(lookup.calls).toBe(1);
  });
});
