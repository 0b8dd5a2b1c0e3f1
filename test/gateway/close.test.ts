import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { GatewayClient, GatewayUnavailable } from '../../src/gateway/index.js';
import { type SimulatorControl, startTestSimulator } from '../support/simulator.js';

// What a stopping bot does with its gateway calls (bot.ts closes the client before the store): the sends in
// flight end and their MessageIds are kept; the reads still waiting are abandoned, so a slow gateway's backlog
// cannot hold the process until main.ts' deadline kills it with the store open.
let control: SimulatorControl;
let stopSimulator: () => Promise<void>;
let url: string;

beforeAll(async () => {
  const started = await startTestSimulator({ username: 'acme', password: 'pw' });
  control = started.control;
  stopSimulator = started.sim.close;
  url = started.sim.url;
});

afterEach(async () => {
  await control.reset();
});

afterAll(async () => {
  await stopSimulator();
});

function client(closeGraceMs?: number): GatewayClient {
  return new GatewayClient({
    baseUrl: url,
    username: 'acme',
    password: 'pw',
    timeoutMs: 120_000,
    ...(closeGraceMs === undefined ? {} : { closeGraceMs }),
  });
}

/** Until the simulator has had `count` calls of `operation`: the request is on the wire, not in our queue. */
async function received(operation: string, count = 1): Promise<void> {
  while ((await control.callCount(operation)) < count) await new Promise((r) => setImmediate(r));
}

const SUBMIT = { from: 'ACME', to: ['905321234567'], message: 'Kargonuz yolda', validityMinutes: 60 };

describe('closing the gateway client', () => {
  it('abandons the reads still waiting instead of waiting out a slow gateway', async () => {
    // A minute each: a close that waited for them would outlive the test's 5 s.
    await control.fault({ operation: 'GetBalance', kind: 'timeout', delayMs: 60_000, times: 20 });
    const gateway = client();
    const reads = Promise.allSettled(Array.from({ length: 20 }, () => gateway.getBalance()));
    await received('GetBalance', 16);

    await gateway.close();

    const outcomes = await reads;
    for (const outcome of outcomes) {
      expect(outcome.status).toBe('rejected');
      const error = (outcome as PromiseRejectedResult).reason;
      expect(error).toBeInstanceOf(GatewayUnavailable);
      expect(error).toMatchObject({ reason: 'closing' });
    }
  });

  it('waits for a send in flight, and its MessageId arrives', async () => {
    await control.fault({ operation: 'Submit', kind: 'timeout', delayMs: 300, times: 1 });
    const gateway = client();
    const sent = gateway.submit(SUBMIT);
    await received('Submit');

    const closed = gateway.close();
    const { messageId } = await sent;
    await closed;

    expect(Number.isSafeInteger(messageId)).toBe(true);
    expect((await control.state()).batches.map((b) => b.id)).toContain(messageId);
  });

  it('ends a send stuck behind waiting reads at the grace, of unknown fate, with the reads', async () => {
    await control.fault({ operation: 'GetBalance', kind: 'timeout', delayMs: 60_000, times: 2 });
    const gateway = new GatewayClient({
      baseUrl: url,
      username: 'acme',
      password: 'pw',
      connections: 2,
      closeGraceMs: 200,
    });
    const reads = Promise.allSettled([gateway.getBalance(), gateway.getBalance()]);
    await received('GetBalance', 2);
    // Both connections are held: the Submit waits in the connection pool's queue, where the client cannot tell
    // whether it has left, so after the grace it is reported as possibly sent (never resent), not as refused.
    const sent = gateway.submit(SUBMIT).catch((error: unknown) => error);

    await gateway.close();

    expect(await sent).toMatchObject({ reason: 'closing', sentMaybe: true });
    for (const read of await reads)
      expect(read).toMatchObject({ status: 'rejected', reason: { reason: 'closing' } });
  });

  it('gives a send still unanswered after the grace an unknown fate, never a failure it could be resent on', async () => {
    await control.fault({ operation: 'Submit', kind: 'timeout', delayMs: 60_000, times: 1 });
    const gateway = client(50);
    const sent = gateway.submit(SUBMIT).catch((error: unknown) => error);
    await received('Submit');

    await gateway.close();

    expect(await sent).toMatchObject({ reason: 'closing', sentMaybe: true });
  });

  it('refuses a call made after it closed, without sending it', async () => {
    const gateway = client();
    await gateway.close();

    await expect(gateway.submit(SUBMIT)).rejects.toMatchObject({ reason: 'closing', sentMaybe: false });
    await expect(gateway.getBalance()).rejects.toMatchObject({ reason: 'closing', sentMaybe: false });
    expect(await control.callCount('Submit')).toBe(0);
    expect(await control.callCount('GetBalance')).toBe(0);
  });
});
