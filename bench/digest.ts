import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compileSchedule } from '../src/digests/schedule.js';
import type { DigestPoster } from '../src/digests/types.js';
import type { Gateway } from '../src/gateway/index.js';
import { DigestScheduler } from '../src/jobs/digest-scheduler.js';
import { silentLogger } from '../src/log.js';
import { openStore } from '../src/store/index.js';
import type { Figure } from './storage.js';

const SLOTS = 200;
const KINDS = ['balance', 'stats', 'surveys'] as const;
const START = Date.UTC(2030, 0, 15, 9, 0, 0);

/** Fixed figures, answered at once: the bench measures the scheduler and the store, not a gateway. */
function quietGateway(): Gateway {
  const refuse = () => Promise.reject(new Error('not benchmarked'));
  return {
    getBalance: async () => ({ main: 1000, limit: 0, usable: 1000 }),
    getBalanceLog: async () => [],
    queryStats: async () => [{ year: 2030, month: 1, delivered: 90, undelivered: 5, count: 100 }],
    getSurveys: async () => [],
    getSurveyAnswers: async () => [],
    submit: refuse,
    submitMulti: refuse,
    queryMulti: refuse,
    cancel: refuse,
    receive: async () => [],
    getSenders: async () => [],
    close: async () => undefined,
  };
}

/**
 * Two schedulers on one SQLite store tick through the same 200 every-minute slots of three
 * subscriptions at the same moments: the figure is the most posts any slot got (it must be 1), beside
 * the slots each scheduler decides per second against bare job-slot claims.
 */
export async function benchDigest(): Promise<Figure[]> {
  const dir = mkdtempSync(join(tmpdir(), 'smsops-bench-digest-'));
  const store = await openStore(`sqlite:${join(dir, 'bench.db')}`);
  try {
    for (const digest of KINDS) {
      await store.subscriptions.add(
        'C0BENCH',
        { kind: 'digest', digest, cron: '* * * * *', timezone: 'UTC' },
        'bench',
        new Date(START - 60_000),
      );
    }
    const posts = new Map<string, number>();
    const poster: DigestPoster = {
      postDigest: async (channel, report) => {
        const key = `${channel}:${report.kind}:${report.at.getTime() - (report.at.getTime() % 60_000)}`;
        posts.set(key, (posts.get(key) ?? 0) + 1);
      },
      postAlert: async () => undefined,
    };
    const make = (instanceId: string) =>
      new DigestScheduler({
        gateway: quietGateway(),
        store,
        poster,
        logger: silentLogger,
        settings: { reportTimeZone: 'UTC', simulated: true, instanceId },
      });
    const [a, b] = [make('bench-a'), make('bench-b')];
    const started = performance.now();
    for (let i = 0; i < SLOTS; i++) {
      const now = new Date(START + i * 60_000 + 100);
      await Promise.all([a.tick(now), b.tick(now)]);
    }
    const seconds = (performance.now() - started) / 1000;
    const worst = Math.max(0, ...posts.values());
    const decided = (SLOTS * KINDS.length) / seconds;

    const claimsStarted = performance.now();
    for (let i = 0; i < SLOTS * KINDS.length; i++)
      await store.jobRuns.claim('bench-bare', String(i), 'bench');
    const bare = (SLOTS * KINDS.length) / ((performance.now() - claimsStarted) / 1000);

    const schedule = compileSchedule('30 2 * * *', 'Europe/Berlin');
    const computeStarted = performance.now();
    let t = new Date(START);
    for (let i = 0; i < 2_000; i++) t = schedule.nextAfter(t)!;
    const slotsPerSecond = 2_000 / ((performance.now() - computeStarted) / 1000);

    return [
      {
        name: `digest exactly-once under two instances (most posts per slot, ${posts.size} of ${SLOTS * KINDS.length} slots posted)`,
        value: worst,
        unit: 'posts',
        baseline: { name: 'exactly once', value: 1 },
      },
      {
        name: 'digest slots decided (claimed and posted or skipped) by two instances',
        value: decided,
        unit: 'slots/s',
        baseline: { name: 'bare job-slot claims, one instance', value: bare },
      },
      {
        name: 'next slot computed (daily 02:30 Europe/Berlin, DST days included)',
        value: slotsPerSecond,
        unit: 'slots/s',
      },
    ];
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
