// Gateway client throughput: GetBalance round trips per second over loopback against the simulator
// (in a process of its own, so client and gateway do not share one event loop), through GatewayClient
// (timeout, retry policy, zod validation of the reply) next to a raw undici Pool sending the same JSON
// request over as many connections. Run alone with `npx tsx bench/gateway.ts`.
import { pathToFileURL } from 'node:url';
import { Pool } from 'undici';
import { GatewayClient } from '../src/gateway/index.js';
import { type BenchFigure, type Figure, median, round } from './figure.js';
import { spawnSimulator } from './process.js';
import { formatFigure } from './storage.js';

// 51 paired rounds a run: with 31 the two runs' medians came 13% apart in two of the last eleven full runs on a shared machine.
const REPETITIONS = 51;
const CALLS = 1_000;
const CONNECTIONS = 16;
const IN_FLIGHT = 16;

interface Rate {
  perSecond: number;
  /** This process's CPU time (user + system) per call: what the client side costs, whatever the load. */
  cpuMicros: number;
}

async function perSecond(call: () => Promise<unknown>, count: number): Promise<Rate> {
  let next = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next++ < count) await call();
    }),
  );
  const elapsed = performance.now() - started;
  const used = process.cpuUsage(cpu);
  return { perSecond: count / (elapsed / 1000), cpuMicros: (used.user + used.system) / count };
}

export async function benchGateway(): Promise<Figure[]> {
  const sim = await spawnSimulator();
  const client = new GatewayClient({
    baseUrl: sim.url,
    username: 'demo',
    password: 'demo',
    connections: CONNECTIONS,
  });
  const url = new URL(sim.url);
  const pool = new Pool(url.origin, {
    connections: CONNECTIONS,
    keepAliveTimeout: 4_000,
    keepAliveMaxTimeout: 30_000,
  });
  const path = `${url.pathname.replace(/\/+$/, '')}/json/syncreply/GetBalance`;
  const raw = async () => {
    const res = await pool.request({
      method: 'POST',
      path,
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ Credential: { Username: 'demo', Password: 'demo' } }),
    });
    const json = JSON.parse(await res.body.text()) as { Response: { Balance: { Main: number } } };
    if (res.statusCode !== 200) throw new Error(`GetBalance: HTTP ${res.statusCode}`);
    return json.Response.Balance.Main;
  };
  const ours = () => client.getBalance();
  try {
    // Check both get the same answer, then warm connections and JIT on both sides.
    const [a, b] = [await ours(), await raw()];
    if (a.main !== b) throw new Error(`client and raw disagree: ${a.main} vs ${b}`);
    // Long enough that both sides are optimised before anything counts (300 calls were not: the first of two
    // runs came out ~40% slower than the second).
    for (let i = 0; i < 6; i++) {
      await perSecond(ours, CALLS);
      await perSecond(raw, CALLS);
    }
    /** One run: REPETITIONS rounds of CALLS each, ours and raw alternating who goes first; many short rounds, so
     * that the median pair is not moved by the few a collection or the scheduler spoils. */
    const measureRun = async () => {
      const oursRates: Rate[] = [];
      const rawRates: Rate[] = [];
      for (let i = 0; i < REPETITIONS; i++) {
        if (i % 2 === 0) {
          oursRates.push(await perSecond(ours, CALLS));
          rawRates.push(await perSecond(raw, CALLS));
        } else {
          rawRates.push(await perSecond(raw, CALLS));
          oursRates.push(await perSecond(ours, CALLS));
        }
      }
      return { oursRates, rawRates };
    };
    // Two runs, so the figure shows whether it holds from one run to the next.
    const runs = [await measureRun(), await measureRun()];
    const rate = (rs: Rate[]) => Math.round(median(rs.map((r) => r.perSecond)));
    const cpu = (rs: Rate[]) => round(median(rs.map((r) => r.cpuMicros)), 1);
    const rawName = 'raw undici Pool, same JSON request, JSON.parse';
    // Each round's ratio against the raw Pool's round beside it (paired): the load of the shared cores moves
    // both of a pair alike, where two medians taken apart can each catch a different moment.
    const ratioOf = (r: { oursRates: Rate[]; rawRates: Rate[] }) =>
      median(r.oursRates.map((o, i) => o.perSecond / r.rawRates[i]!.perSecond));
    const ratios = runs.map(ratioOf);
    const spread = (Math.abs(ratios[0]! - ratios[1]!) / ((ratios[0]! + ratios[1]!) / 2)) * 100;
    const figures: BenchFigure[] = [
      ...runs.map(
        (r, i): BenchFigure => ({
          name: `gateway client GetBalance round trips against the ${rawName} in the round beside it, run ${i + 1} of 2, loopback simulator, ${CONNECTIONS} connections, ${IN_FLIGHT} in flight (median of ${REPETITIONS} paired rounds of ${CALLS.toLocaleString('en-US')}; ${rate(r.oursRates).toLocaleString('en-US')} vs ${rate(r.rawRates).toLocaleString('en-US')} calls/s)`,
          value: round(ratios[i]!, 3),
          unit: 'x',
          target: { of: 'value', atLeast: 0.9 },
        }),
      ),
      {
        name: `gateway client: the two runs' ratios differ by (${ratios.map((x) => `${x.toFixed(2)}x`).join(' vs ')})`,
        value: round(spread, 1),
        unit: '%',
        target: { of: 'value', atMost: 10 },
      },
      {
        name: 'gateway client GetBalance: client-process CPU per call (median, run 2)',
        value: cpu(runs[1]!.oursRates),
        unit: 'µs',
        baseline: { name: rawName, value: cpu(runs[1]!.rawRates) },
      },
    ];
    return figures;
  } finally {
    await client.close();
    await pool.close();
    await sim.process.stop();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const figure of await benchGateway()) console.log(formatFigure(figure));
}
