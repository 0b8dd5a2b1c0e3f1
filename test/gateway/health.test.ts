import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
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

  it('does not take the warm-up, once ended, as fresh: a gateway that failed since start is reported at once', async () => {
    const probe = gatewayProbe(clientOf(sim.url), { everyMs: 60_000 });
    probe.warmUp();
    // Called while the warm-up runs: its answer, so the warm-up has ended once this resolves.
    expect(await probe()).toMatchObject({ ok: true });
    await control.fault({ operation: 'GetSenders', kind: 'status', code: 401, echo: true });
    expect(await probe()).toEqual({ ok: false, at: expect.any(Date), reason: 'rejected' });
  });
});
