import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { GatewayClient, gatewayProbe } from '../../src/gateway/index.js';
import { closedPort } from '../support/raw-server.js';
import { type SimulatorControl, startTestSimulator } from '../support/simulator.js';

/** /healthz's view of the gateway: a reason code for each way it fails, never its text. */
let control: SimulatorControl;
let sim: Awaited<ReturnType<typeof startTestSimulator>>['sim'];
const clients: GatewayClient[] = [];

function clientOf(baseUrl: string): GatewayClient {
  const client = new GatewayClient({
    baseUrl,
    username: 'demo',
    password: 'demo',
    timeoutMs: 300,
    retry: { attempts: 1 },
  });
  clients.push(client);
  return client;
}

beforeAll(async () => {
  ({ sim, control } = await startTestSimulator());
});
afterAll(async () => {
  for (const client of clients) await client.close();
  await sim.close();
});
beforeEach(async () => {
  await control.reset();
});

describe('gateway health probe', () => {
  it('is reachable when GetSenders answers', async () => {
    const health = await gatewayProbe(clientOf(sim.url))();
    expect(health).toMatchObject({ ok: true });
    expect(health.reason).toBeUndefined();
  });

  it.each([
    ['timeout', { kind: 'timeout', delayMs: 2_000 }],
    ['http_5xx', { kind: 'http500', echo: true }],
    ['bad_reply', { kind: 'notjson', echo: true }],
    ['rejected', { kind: 'status', code: 401, echo: true }],
  ] as const)('says %s, and nothing else, for that fault', async (reason, fault) => {
    await control.fault({ operation: 'GetSenders', ...fault });
    const health = await gatewayProbe(clientOf(sim.url))();
    expect(health).toEqual({ ok: false, at: expect.any(Date), reason });
  });

  it('says refused when nothing listens', async () => {
    const health = await gatewayProbe(clientOf(`http://127.0.0.1:${await closedPort()}`))();
    expect(health).toEqual({ ok: false, at: expect.any(Date), reason: 'refused' });
  });

  it('asks the gateway at most once per interval, however often it is asked', async () => {
    const probe = gatewayProbe(clientOf(sim.url), { everyMs: 60_000 });
    await Promise.all([probe(), probe(), probe()]);
    await probe();
    expect(await control.callCount('GetSenders')).toBe(1);
  });

  it('warms up at start: a check while that probe runs takes its answer, without a second call', async () => {
    const probe = gatewayProbe(clientOf(sim.url), { everyMs: 60_000 });
    probe.warmUp();
    expect(await probe()).toMatchObject({ ok: true });
    expect(await control.callCount('GetSenders')).toBe(1);
  });

  describe('answers from its last probe, never waiting long on the gateway', () => {
    const MINUTE = 60_000;
    let clock = 0;
    const slowClient = () => {
      const client = new GatewayClient({
        baseUrl: sim.url,
        username: 'demo',
        password: 'demo',
        timeoutMs: 5_000,
      });
      clients.push(client);
      return client;
    };
    const within = <T>(ms: number, work: Promise<T>) =>
      Promise.race([work, new Promise<'still waiting'>((r) => setTimeout(() => r('still waiting'), ms))]);

    beforeEach(() => {
      clock = Date.parse('2026-11-25T09:00:00Z');
    });

    it('an answer older than the interval is shown at once, a new probe starting behind it', async () => {
      const probe = gatewayProbe(slowClient(), { everyMs: MINUTE, now: () => clock });
      const first = await probe();
      expect(first).toMatchObject({ ok: true });
      // The gateway now takes 2 s to answer: a /healthz waiting for it would outlast a readiness check's 1 s.
      await control.fault({ operation: 'GetSenders', kind: 'timeout', delayMs: 2_000 });
      clock += MINUTE + 1_000;
      expect(await within(1_000, probe())).toBe(first);
      await vi.waitFor(async () => expect(await control.callCount('GetSenders')).toBe(2), { interval: 20 });
    });

    it('an answer older than two intervals waits briefly for the new one: checks far apart are not one behind', async () => {
      // A wait longer than the default half second, so that a loaded machine's slow loopback does not fail it.
      const probe = gatewayProbe(slowClient(), { everyMs: MINUTE, now: () => clock, staleWaitMs: 3_000 });
      expect(await probe()).toMatchObject({ ok: true });
      await control.fault({ operation: 'GetSenders', kind: 'status', code: 401, echo: true });
      clock += 5 * MINUTE;
      expect(await probe()).toEqual({ ok: false, at: new Date(clock), reason: 'rejected' });
    });

    it('and only briefly: a slow gateway still gets the old answer shown within the second', async () => {
      const probe = gatewayProbe(slowClient(), { everyMs: MINUTE, now: () => clock });
      const first = await probe();
      await control.fault({ operation: 'GetSenders', kind: 'timeout', delayMs: 2_000 });
      clock += 5 * MINUTE;
      expect(await within(1_000, probe())).toBe(first);
    });
  });

  it('shows a failure since its last answer once the background probe has seen it', async () => {
    const probe = gatewayProbe(clientOf(sim.url), { everyMs: 0 });
    probe.warmUp();
    expect(await probe()).toMatchObject({ ok: true });
    await control.fault({ operation: 'GetSenders', kind: 'status', code: 401, echo: true });
    await vi.waitFor(
      async () => expect(await probe()).toEqual({ ok: false, at: expect.any(Date), reason: 'rejected' }),
      {
        timeout: 5_000,
        interval: 20,
      },
    );
  });
});
