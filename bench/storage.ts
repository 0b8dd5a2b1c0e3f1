// Storage throughput: how many job-slot and inbound-Id claims per second the store sustains, next to
// the same INSERT done with the bare driver on the same table, so the figure says what the store's
// layers cost. Run alone with `npx tsx bench/storage.ts`; bench/run.ts imports benchStorage().
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import pg from 'pg';
import { openStore, type Store } from '../src/store/index.js';

export interface Figure {
  name: string;
  value: number;
  unit: string;
  baseline?: { name: string; value: number };
  /**
   * The figure's ratio to its baseline when each pass was timed beside a pass of the baseline: the median of the
   * passes' own ratios, not the ratio of the two medians. This machine changes speed by half in spells of seconds;
   * a pass and the baseline beside it share a spell, two medians need not (a run of the same code gave 1.49x and
   * 3.85x as ratios of medians, 2.56x and 3.73x as medians of pairs).
   */
  pairedRatio?: number;
}

const REPETITIONS = 5;
const SQLITE_CLAIMS = 3_000;
const PG_CLAIMS = 1_000;
// Claims in flight at once, as a busy relay would have them; PostgreSQL overlaps their round trips.
const IN_FLIGHT = 8;
const UNIT = 'claims/s';
// A gateway poll hands over inbound messages in batches; claimMany takes a batch in one statement.
const BATCH = 100;

type Claim = (i: number) => Promise<unknown>;

let run = 0;
/** Each call gets keys never used before, so every claim is a winning insert (the costly case). */
const freshPrefix = () => `r${++run}-${randomBytes(3).toString('hex')}`;

/** `claim(i)` claims `perCall` keys; the rate counts keys. */
async function perSecond(count: number, claim: Claim, perCall = 1): Promise<number> {
  const calls = Math.ceil(count / perCall);
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < calls) await claim(next++);
    }),
  );
  return (calls * perCall) / ((performance.now() - started) / 1000);
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

/** Store and baseline take turns, so drift in the machine's load hits both alike. */
async function sideBySide(count: number, store: () => Claim, baseline: () => Claim, perCall = 1) {
  const ours: number[] = [];
  const raw: number[] = [];
  await perSecond(Math.min(count, 200), store(), perCall);
  await perSecond(Math.min(count, 200), baseline(), perCall);
  for (let i = 0; i < REPETITIONS; i++) {
    ours.push(await perSecond(count, store(), perCall));
    raw.push(await perSecond(count, baseline(), perCall));
  }
  return { ours: Math.round(median(ours)), raw: Math.round(median(raw)) };
}

const storeJobClaim = (store: Store): Claim => {
  const job = freshPrefix();
  return (i) => store.jobRuns.claim(job, new Date(Date.UTC(2030, 0, 1) + i * 60_000), 'bench');
};

const storeInboundClaim = (store: Store): Claim => {
  const prefix = freshPrefix();
  return (i) => store.inbound.claim(`${prefix}-${i}`, 'bench');
};

const batchIds = (prefix: string, i: number) =>
  Array.from({ length: BATCH }, (_, j) => `${prefix}-${i}-${j}`);

const storeInboundBatch = (store: Store): Claim => {
  const prefix = freshPrefix();
  return (i) => store.inbound.claimMany(batchIds(prefix, i), 'bench');
};

interface Baselines {
  name: string;
  batchName: string;
  job: () => Claim;
  inbound: () => Claim;
  inboundBatch: () => Claim;
}

async function figuresFor(
  backend: 'sqlite' | 'postgres',
  store: Store,
  count: number,
  raw: Baselines,
): Promise<Figure[]> {
  const jobs = await sideBySide(count, () => storeJobClaim(store), raw.job);
  const inbound = await sideBySide(count, () => storeInboundClaim(store), raw.inbound);
  const batches = await sideBySide(count * 10, () => storeInboundBatch(store), raw.inboundBatch, BATCH);
  return [
    {
      name: `storage ${backend} job-slot claims`,
      value: jobs.ours,
      unit: UNIT,
      baseline: { name: raw.name, value: jobs.raw },
    },
    {
      name: `storage ${backend} inbound-Id claims`,
      value: inbound.ours,
      unit: UNIT,
      baseline: { name: raw.name, value: inbound.raw },
    },
    {
      name: `storage ${backend} inbound-Id claims in batches of ${BATCH}`,
      value: batches.ours,
      unit: UNIT,
      baseline: { name: raw.batchName, value: batches.raw },
    },
  ];
}

async function benchSqlite(): Promise<Figure[]> {
  const dir = mkdtempSync(join(tmpdir(), 'smsops-bench-'));
  const file = join(dir, 'bench.db');
  const store = await openStore(`sqlite:${file}`);
  // A second connection to the same file and tables, set up the way the store sets up its own.
  const raw = new Database(file, { timeout: 5_000 });
  raw.pragma('journal_mode = WAL');
  raw.pragma('synchronous = NORMAL');
  try {
    const job = raw.prepare(
      'INSERT OR IGNORE INTO job_runs (job, slot, instance_id, claim_token, claimed_at) VALUES (?, ?, ?, ?, ?)',
    );
    const inbound = raw.prepare(
      'INSERT OR IGNORE INTO inbound_messages (gateway_id, claim_token, claimed_by, claimed_at) VALUES (?, ?, ?, ?)',
    );
    const inboundBatch = raw.transaction((ids: string[]) => {
      const token = randomUUID();
      let won = 0;
      for (const id of ids) won += inbound.run(id, token, 'bench', Date.now()).changes;
      return won;
    });
    return await figuresFor('sqlite', store, SQLITE_CLAIMS, {
      name: 'raw better-sqlite3 prepared INSERT OR IGNORE',
      batchName: 'raw better-sqlite3 prepared INSERT OR IGNORE, one transaction per batch',
      job: () => {
        const name = freshPrefix();
        return async (i) =>
          job.run(
            name,
            new Date(Date.UTC(2030, 0, 1) + i * 60_000).toISOString(),
            'bench',
            randomUUID(),
            Date.now(),
          ).changes === 1;
      },
      inbound: () => {
        const prefix = freshPrefix();
        return async (i) => inbound.run(`${prefix}-${i}`, randomUUID(), 'bench', Date.now()).changes === 1;
      },
      inboundBatch: () => {
        const prefix = freshPrefix();
        return async (i) => inboundBatch(batchIds(prefix, i));
      },
    });
  } finally {
    raw.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function reachablePostgres(): Promise<string | undefined> {
  const candidates = [process.env.TEST_DATABASE_URL, 'postgres://postgres@127.0.0.1:5432/postgres'];
  for (const url of candidates) {
    if (!url) continue;
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
    try {
      await client.connect();
      return url;
    } catch {
      // Not there: try the next candidate, or skip PostgreSQL.
    } finally {
      await client.end().catch(() => undefined);
    }
  }
  return undefined;
}

async function benchPostgres(url: string): Promise<Figure[]> {
  const schema = `smsops_bench_${randomBytes(5).toString('hex')}`;
  const store = await openStore(url, { schema, applicationName: 'smsops-bench' });
  const raw = new pg.Pool({ connectionString: url, max: 10, options: `-c search_path=${schema}` });
  try {
    return await figuresFor('postgres', store, PG_CLAIMS, {
      name: 'raw pg INSERT … ON CONFLICT DO NOTHING',
      batchName: 'raw pg multi-row INSERT … ON CONFLICT DO NOTHING',
      job: () => {
        const name = freshPrefix();
        return (i) =>
          raw.query(
            'INSERT INTO job_runs (job, slot, instance_id, claim_token, claimed_at) VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING RETURNING job',
            [
              name,
              new Date(Date.UTC(2030, 0, 1) + i * 60_000).toISOString(),
              'bench',
              randomUUID(),
              Date.now(),
            ],
          );
      },
      inbound: () => {
        const prefix = freshPrefix();
        return (i) =>
          raw.query(
            'INSERT INTO inbound_messages (gateway_id, claim_token, claimed_by, claimed_at) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING RETURNING gateway_id',
            [`${prefix}-${i}`, randomUUID(), 'bench', Date.now()],
          );
      },
      inboundBatch: () => {
        const prefix = freshPrefix();
        return (i) =>
          raw.query(
            'INSERT INTO inbound_messages (gateway_id, claim_token, claimed_by, claimed_at) SELECT unnest($1::text[]), $2, $3, $4 ON CONFLICT DO NOTHING RETURNING gateway_id',
            [batchIds(prefix, i), randomUUID(), 'bench', Date.now()],
          );
      },
    });
  } finally {
    await raw.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => undefined);
    await raw.end();
    await store.close();
  }
}

export async function benchStorage(): Promise<Figure[]> {
  const figures = await benchSqlite();
  const url = await reachablePostgres();
  if (url) figures.push(...(await benchPostgres(url)));
  return figures;
}

export function formatFigure(f: Figure): string {
  const n = (v: number) => v.toLocaleString('en-US');
  const base = f.baseline ? ` (${f.baseline.name}: ${n(f.baseline.value)} ${f.unit})` : '';
  return `${f.name}: ${n(f.value)} ${f.unit}${base}`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const figure of await benchStorage()) console.log(formatFigure(figure));
}
