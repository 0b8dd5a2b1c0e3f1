import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RawServer, startRawServer } from '../support/raw-server.js';
import {
  type BotProcess,
  type DrillWorld,
  sleepMs,
  startBot,
  startDrillWorld,
  until,
  users,
} from './bot-process.js';

/**
 * Drill: the gateway misbehaves under the running bot — hangs, answers 500, answers an HTML page,
 * answers slowly. Slack's 3-second ack is never missed, /healthz says the bot is degraded and why,
 * and once the gateway is well again everything works without a restart.
 *
 * The bot talks to a loopback server of ours that passes requests to the simulator or misbehaves,
 * as the drill says; it starts hanging, so the first health probe already sees the outage.
 */

type Mode = 'pass' | 'hang' | 'http500' | 'notjson' | 'slow';
let mode: Mode = 'hang';
const held = new Set<ServerResponse>();

let fake: DrillWorld['fake'];
let sim: DrillWorld['sim'];
let gateway: RawServer;
let world: DrillWorld;
let bot: BotProcess;

async function pass(path: string, body: string, res: ServerResponse): Promise<void> {
  try {
    const upstream = await fetch(`${sim.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'text/plain' });
    res.end(await upstream.text());
  } catch {
    res.destroy();
  }
}

beforeAll(async () => {
  world = await startDrillWorld('gateway');
  ({ fake, sim } = world);
  gateway = await startRawServer((req, res, body) => {
    const path = req.url ?? '/';
    switch (mode) {
      case 'pass':
        void pass(path, body, res);
        return;
      case 'hang':
        held.add(res);
        res.on('close', () => held.delete(res));
        return;
      case 'http500':
        res
          .writeHead(500, { 'content-type': 'text/html' })
          .end('<html><body>Internal Server Error</body></html>');
        return;
      case 'notjson':
        res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>Maintenance</body></html>');
        return;
      case 'slow':
        void sleepMs(1_500).then(() => pass(path, body, res));
        return;
    }
  });
  bot = await startBot({
    fake,
    gatewayUrl: gateway.url,
    databaseUrl: world.databaseUrl,
    env: { SMS_GATEWAY_TIMEOUT_MS: '2000' },
  });
}, 40_000);
afterAll(async () => {
  await bot?.crash();
  for (const res of held) res.destroy();
  await gateway.close();
  await world.close();
});

/** `/sms balance`: the ack comes in time whatever the gateway does; returns the answer the user sees. */
async function balance(): Promise<string> {
  const seq = fake.state.journal.seq;
  const ack = await bot.sms('balance');
  expect(ack.status).toBe(200);
  expect(ack.late).toBe(false);
  expect(ack.elapsedMs).toBeLessThan(3_000);
  // The answer replaces a "looking it up" note; wait for the final one (it mentions the credit or a problem).
  const answer = await fake.state.waitFor(
    'ephemeral',
    (e) =>
      e.message.recipient === users.admin &&
      /credit|gateway|could not|unavailable|not answer|try again/i.test(JSON.stringify(e.message)) &&
      !/Looking|Checking|…"/.test(e.message.text ?? ''),
    { after: seq, timeoutMs: 20_000 },
  );
  return JSON.stringify(answer.message);
}

describe('a misbehaving gateway under the running bot', () => {
  it('hanging: acks in time, and /healthz is degraded with the reason code', async () => {
    const started = Date.now();
    const health = await bot.health();
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({ ok: true, degraded: true, gateway: { reachable: false } });
    // A code, never the gateway's own words (which may quote our request) nor its URL.
    expect((health.body.gateway as { reason?: string }).reason).toBe('timeout');
    expect(JSON.stringify(health.body)).not.toContain(gateway.url);
    expect(await balance()).not.toMatch(/SMS credit/);
  }, 30_000);

  it.each(['http500', 'notjson'] as const)(
    'answering %s: acks in time, the user is told',
    async (kind) => {
      mode = kind;
      expect(await balance()).not.toMatch(/SMS credit/);
    },
    30_000,
  );

  it('slow (1.5 s a request, under the 2 s client timeout): acks in time, and the balance still arrives', async () => {
    mode = 'slow';
    expect(await balance()).toMatch(/SMS credit/);
  }, 30_000);

  it('well again: works at once, and /healthz recovers by itself once its 30 s cache expires', async () => {
    mode = 'pass';
    for (const res of held) res.destroy();
    expect(await balance()).toMatch(/SMS credit/);
    const health = await until(
      'healthz not degraded',
      async () => {
        const h = await bot.health();
        return h.body.degraded === false ? h : undefined;
      },
      40_000,
      500,
    );
    expect(health.body).toMatchObject({ ok: true, degraded: false, gateway: { reachable: true } });
  }, 60_000);
});
