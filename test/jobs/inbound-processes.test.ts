import { type ChildProcess, fork } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { channels, type InboundRig, number, postCounts, startInboundRig } from './inbound-support.js';

const WORKER = join(import.meta.dirname, 'inbound-worker.ts');

let rig: InboundRig | undefined;
const children: ChildProcess[] = [];
afterEach(async () => {
  for (const child of children.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await rig?.close();
  rig = undefined;
});

/** A relay in a process of its own, on the test's gateway, Slack and database; resolves once it polled. */
async function startInstance(r: InboundRig, instanceId: string, leaseMs = 5 * 60_000) {
  const child = fork(
    WORKER,
    [
      JSON.stringify({
        simUrl: r.control.sim.url,
        apiUrl: r.fake.apiUrl,
        botToken: r.fake.botToken,
        db: r.dbPath,
        instanceId,
        channel: channels.smsOps,
        leaseMs,
      }),
    ],
    { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
  );
  children.push(child);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('exit', (code) =>
      reject(new Error(`${instanceId} exited with ${code} before its first poll`)),
    );
  });
  return { child, exited };
}

async function postCalls(r: InboundRig, n: number): Promise<void> {
  let after = 0;
  for (let i = 0; i < n; i++) {
    after = (
      await r.fake.state.waitForCall('chat.postMessage', (c) => c.status === 200, {
        after,
        timeoutMs: 20_000,
      })
    ).seq;
  }
}

const burst = (size: number) =>
  Array.from({ length: size }, (_, i) => ({ MSISDN: number(i), Text: `reply ${i}` }));

describe('inbound relay in real processes sharing one database', () => {
  it('two instances post a burst exactly once', async () => {
    rig = await startInboundRig({ fakeSlack: { rateLimits: true } });
    await Promise.all([startInstance(rig, 'proc-a'), startInstance(rig, 'proc-b')]);
    const ids = await rig.inject(burst(150));
    await rig.waitVisible(ids, 60_000);
    const counts = postCounts(rig)[channels.smsOps]!;
    expect(Object.keys(counts)).toHaveLength(150);
    expect(Object.values(counts).every((n) => n === 1)).toBe(true);
  }, 90_000);

  it('SIGTERM in the middle of a burst: the next process posts the rest, nothing twice', async () => {
    rig = await startInboundRig({ fakeSlack: { rateLimits: true } });
    const first = await startInstance(rig, 'deploy-1');
    const ids = await rig.inject(burst(240));
    await postCalls(rig, 2);
    first.child.kill('SIGTERM');
    await first.exited;
    expect(first.child.exitCode).toBe(0);
    const before = rig.posted().length;
    expect(before).toBeGreaterThan(0);
    expect(before).toBeLessThan(240);
    await startInstance(rig, 'deploy-2');
    await rig.waitVisible(ids, 60_000);
    const counts = postCounts(rig)[channels.smsOps]!;
    expect(Object.keys(counts)).toHaveLength(240);
    expect(Object.values(counts).every((n) => n === 1)).toBe(true);
  }, 90_000);

  it('SIGKILL in the middle of a burst: nothing is lost, and at most the post in flight repeats', async () => {
    rig = await startInboundRig({ fakeSlack: { rateLimits: true } });
    // Short leases, so the survivor takes the dead instance's claims over within the test.
    const first = await startInstance(rig, 'crash-1', 2_000);
    const ids = await rig.inject(burst(240));
    await postCalls(rig, 2);
    first.child.kill('SIGKILL');
    await first.exited;
    await startInstance(rig, 'crash-2', 2_000);
    await rig.waitVisible(ids, 60_000);
    const counts = postCounts(rig)[channels.smsOps]!;
    expect(Object.keys(counts)).toHaveLength(240);
    const repeated = Object.values(counts).filter((n) => n > 1);
    expect(repeated.every((n) => n === 2)).toBe(true);
    expect(repeated.length).toBeLessThanOrEqual(48);
  }, 90_000);
});
