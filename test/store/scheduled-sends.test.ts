import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore, type ScheduledClaim, type SendIntent, type Store } from '../../src/store/index.js';
import {
  type Backend,
  dropSchema,
  type OpenedStore,
  pgSkipNote,
  pgUrl,
  postgresBackend,
  scratchSchema,
  sqliteBackend,
  tempDir,
} from './helpers.js';

const T0 = new Date('2030-01-01T09:00:00.000Z');
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);

const intent = (key: string, dueAt: Date): SendIntent & { dueAt: Date } => ({
  idempotencyKey: key,
  slackUser: 'U1',
  channel: 'C1',
  sender: 'ACME',
  recipients: ['905321234567', '905329876543'],
  text: 'Doors open at ten',
  segments: 2,
  encoding: 'GSM7',
  estimatedCost: 0.1,
  payload: { mode: 'same', schedule: { timeZone: 'Europe/Istanbul' } },
  at: T0,
  dueAt,
});

const claim = (owner: string, extra: Partial<ScheduledClaim> = {}): ScheduledClaim => ({
  from: ['scheduled'],
  dueBy: at(30),
  at: at(30),
  owner,
  leaseUntil: at(31),
  recipients: ['905321234567'],
  segments: 1,
  estimatedCost: 0.05,
  payload: { mode: 'same', optedOutAtSending: ['905329876543'] },
  ...extra,
});

function scheduledContract(backend: Backend): void {
  let opened: OpenedStore;
  let store: Store;
  beforeEach(async () => {
    opened = await backend.open();
    store = opened.store;
  });
  afterEach(async () => {
    await opened.cleanup();
  });

  it('keeps a scheduled send with its time, once per key, and lists it until it goes', async () => {
    const first = await store.outbox.createScheduled(intent('s1', at(20)));
    expect(first.created).toBe(true);
    expect(first.row).toMatchObject({ state: 'scheduled', dueAt: at(20), recipientCount: 2 });
    expect((await store.outbox.createScheduled(intent('s1', at(99)))).created).toBe(false);
    const later = (await store.outbox.createScheduled(intent('s2', at(40)))).row;
    expect((await store.outbox.waitingScheduled(10)).map((r) => r.id)).toEqual([first.row.id, later.id]);
    expect((await store.outbox.dueScheduled(at(19), 10)).map((r) => r.id)).toEqual([]);
    expect((await store.outbox.dueScheduled(at(30), 10)).map((r) => r.id)).toEqual([first.row.id]);
    // Neither a delivery poll nor the reaper of abandoned sends ever touches it.
    expect(await store.outbox.dueForPoll(at(1000), 10)).toEqual([]);
    expect(await store.outbox.abandonedPending({ now: at(1000), unleasedBefore: at(1000) }, 10)).toEqual([]);
  });

  it('is claimed exactly once when due, carrying what is really sent', async () => {
    const row = (await store.outbox.createScheduled(intent('s1', at(20)))).row;
    expect(await store.outbox.claimScheduled(row.id, claim('A', { dueBy: at(19) }))).toBeUndefined();
    const claims = await Promise.all(
      ['A', 'B', 'C', 'D', 'E'].map((owner) => store.outbox.claimScheduled(row.id, claim(owner))),
    );
    const won = claims.filter((c) => c !== undefined);
    expect(won).toHaveLength(1);
    expect(won[0]).toMatchObject({
      state: 'pending',
      recipients: ['905321234567'],
      recipientCount: 1,
      estimatedCost: 0.05,
      leaseUntil: at(31),
      dueAt: at(20),
      payload: { optedOutAtSending: ['905329876543'] },
    });
    expect(await store.outbox.waitingScheduled(10)).toEqual([]);
    expect(await store.outbox.cancelScheduled(row.id, 'U1', at(31))).toBe(false);
  });

  it('hands an abandoned claim back as held, only once its lease ran out, and Send now can claim it again', async () => {
    const row = (await store.outbox.createScheduled(intent('s1', at(20)))).row;
    expect(await store.outbox.claimScheduled(row.id, claim('A'))).toBeDefined();
    const test = (now: number) => ({ now: at(now), unleasedBefore: at(-60) });
    // Its owner's lease runs to 31: before that, the claim is still its owner's.
    expect(await store.outbox.holdAbandoned(row.id, 'stopped', test(30))).toBe(false);
    const reapers = await Promise.all(
      [1, 2, 3].map(() => store.outbox.holdAbandoned(row.id, 'stopped', test(32))),
    );
    expect(reapers.filter(Boolean)).toHaveLength(1);
    expect(await store.outbox.get(row.id)).toMatchObject({
      state: 'held',
      reason: 'stopped',
      owner: null,
      leaseUntil: null,
      payload: { optedOutAtSending: ['905329876543'] },
    });
    expect(await store.outbox.abandonedPending(test(100), 10)).toEqual([]);
    // Only an explicit Send now (from held) takes it again; the due-time job does not.
    expect(await store.outbox.claimScheduled(row.id, claim('job', { dueBy: at(100) }))).toBeUndefined();
    expect(
      await store.outbox.claimScheduled(
        row.id,
        claim('B', { from: ['scheduled', 'held'], dueBy: undefined }),
      ),
    ).toMatchObject({ state: 'pending', owner: 'B' });
  });

  it('closes a claim as gone as a campaign, from its claim or from held, never from waiting', async () => {
    const waiting = (await store.outbox.createScheduled(intent('s1', at(20)))).row;
    expect(await store.outbox.closeAsCampaign(waiting.id, 'U1', at(21))).toBe(false);
    expect(await store.outbox.claimScheduled(waiting.id, claim('A'))).toBeDefined();
    expect(await store.outbox.closeAsCampaign(waiting.id, 'U1', at(31))).toBe(true);
    expect(await store.outbox.get(waiting.id)).toMatchObject({
      state: 'cancelled',
      cancelledBy: 'U1',
      owner: null,
      delivery: { final: true },
    });
    const taken = (await store.outbox.createScheduled(intent('s2', at(20)))).row;
    await store.outbox.claimScheduled(taken.id, claim('A'));
    expect(
      await store.outbox.holdAbandoned(taken.id, 'stopped', { now: at(40), unleasedBefore: at(-60) }),
    ).toBe(true);
    expect(await store.outbox.closeAsCampaign(taken.id, 'U1', at(41))).toBe(true);
    expect((await store.outbox.get(taken.id))?.state).toBe('cancelled');
  });

  it('holds a send found too late, which only Send now (or Cancel) then moves', async () => {
    const row = (await store.outbox.createScheduled(intent('s1', at(0)))).row;
    // 15 minutes of grace: at 10 minutes late it is not held.
    expect(await store.outbox.holdLate(row.id, at(-5), 'late', at(10))).toBe(false);
    const holds = await Promise.all(
      [1, 2, 3].map(() => store.outbox.holdLate(row.id, at(5), 'late', at(20))),
    );
    expect(holds.filter(Boolean)).toHaveLength(1);
    expect(await store.outbox.get(row.id)).toMatchObject({ state: 'held', reason: 'late' });
    expect(await store.outbox.dueScheduled(at(100), 10)).toEqual([]);
    expect(await store.outbox.claimScheduled(row.id, claim('job', { dueBy: at(100) }))).toBeUndefined();
    const now = await store.outbox.claimScheduled(
      row.id,
      claim('A', { from: ['scheduled', 'held'], dueBy: undefined }),
    );
    expect(now?.state).toBe('pending');
  });

  it('is edited in place, and cancelled once, by whoever comes first', async () => {
    const row = (await store.outbox.createScheduled(intent('s1', at(20)))).row;
    expect(
      await store.outbox.reschedule(row.id, {
        sender: 'ACME',
        recipients: ['905321111111'],
        text: 'Doors open at eleven',
        segments: 1,
        encoding: 'GSM7',
        estimatedCost: 0.05,
        payload: { mode: 'same' },
        dueAt: at(80),
        at: at(1),
      }),
    ).toBe(true);
    expect(await store.outbox.get(row.id)).toMatchObject({
      id: row.id,
      state: 'scheduled',
      text: 'Doors open at eleven',
      recipientCount: 1,
      dueAt: at(80),
    });
    const cancels = await Promise.all(
      ['U1', 'U2'].map((by) => store.outbox.cancelScheduled(row.id, by, at(2))),
    );
    expect(cancels.filter(Boolean)).toHaveLength(1);
    expect(await store.outbox.get(row.id)).toMatchObject({ state: 'cancelled' });
    expect(await store.outbox.claimScheduled(row.id, claim('A', { dueBy: at(100) }))).toBeUndefined();
  });

  it('is not claimed with the content read before an edit saved meanwhile: the edit wins', async () => {
    const row = (await store.outbox.createScheduled(intent('race', at(20)))).row;
    // Send now read the row, then an edit landed before its claim.
    expect(
      await store.outbox.reschedule(row.id, {
        sender: 'ACME',
        recipients: ['905321111111'],
        text: 'Edited text',
        segments: 1,
        encoding: 'GSM7',
        estimatedCost: 0.05,
        payload: { mode: 'same' },
        dueAt: at(80),
        at: at(5),
      }),
    ).toBe(true);
    const stale = claim('A', {
      from: ['scheduled', 'held'],
      dueBy: undefined,
      unchangedSince: row.updatedAt,
    });
    expect(await store.outbox.claimScheduled(row.id, stale)).toBeUndefined();
    expect(await store.outbox.get(row.id)).toMatchObject({ state: 'scheduled', text: 'Edited text' });
    // Read again, the edited row is claimed.
    const fresh = (await store.outbox.get(row.id))!;
    const claimed = await store.outbox.claimScheduled(
      row.id,
      claim('A', { from: ['scheduled', 'held'], dueBy: undefined, unchangedSince: fresh.updatedAt }),
    );
    expect(claimed?.state).toBe('pending');
  });

  it('keeps nothing typed in the modal once a number is forgotten or the send is purged', async () => {
    const typed = {
      schedule: { timeZone: 'Europe/Istanbul', input: { csvText: 'number\n0532 123 45 67', text: 'Hi' } },
    };
    const forgotten = (await store.outbox.createScheduled({ ...intent('f', at(20)), payload: typed })).row;
    await store.outbox.forgetNumber('905321234567', at(1));
    expect(await store.outbox.get(forgotten.id)).toMatchObject({
      state: 'scheduled',
      recipients: ['905329876543'],
      payload: { schedule: { timeZone: 'Europe/Istanbul' } },
    });
    expect(JSON.stringify((await store.outbox.get(forgotten.id))?.payload)).not.toContain('0532');

    const purged = (await store.outbox.createScheduled({ ...intent('p', at(20)), payload: typed })).row;
    await store.outbox.cancelScheduled(purged.id, 'U1', at(2));
    await store.outbox.purgeContentBefore(at(100), at(100));
    const after = await store.outbox.get(purged.id);
    expect(after).toMatchObject({
      text: '',
      recipients: [],
      payload: { schedule: { timeZone: 'Europe/Istanbul' } },
    });
    expect(JSON.stringify(after?.payload)).not.toContain('input');
  });
}

describe('scheduled sends in the store: sqlite', () => scheduledContract(sqliteBackend));
describe.skipIf(!postgresBackend.available)(`scheduled sends in the store: postgres${pgSkipNote}`, () =>
  scheduledContract(postgresBackend),
);

describe('two stores on one database claim a due send once', () => {
  it('sqlite: two connections to one file', async () => {
    const tmp = tempDir();
    const url = `sqlite:${join(tmp.dir, 'store.db')}`;
    const a = await openStore(url);
    const b = await openStore(url);
    try {
      await claimRace(a, b);
    } finally {
      await a.close();
      await b.close();
      tmp.remove();
    }
  });

  it.skipIf(!pgUrl)(`postgres: two pools${pgSkipNote}`, async () => {
    const schema = scratchSchema();
    const a = await openStore(pgUrl!, { schema });
    const b = await openStore(pgUrl!, { schema });
    try {
      await claimRace(a, b);
    } finally {
      await a.close();
      await b.close();
      await dropSchema(schema);
    }
  });
});

async function claimRace(a: Store, b: Store): Promise<void> {
  const rows = [];
  for (let i = 0; i < 40; i++) rows.push((await a.outbox.createScheduled(intent(`r${i}`, at(i % 20)))).row);
  const results = await Promise.all(
    rows.flatMap((row) => [
      a.outbox.claimScheduled(row.id, claim('A')).then((r) => (r ? 'A' : undefined)),
      b.outbox.claimScheduled(row.id, claim('B')).then((r) => (r ? 'B' : undefined)),
    ]),
  );
  const winners = results.filter((w) => w !== undefined);
  expect(winners).toHaveLength(rows.length);
  for (const row of rows) {
    const current = await b.outbox.get(row.id);
    expect(current?.state).toBe('pending');
    expect(['A', 'B']).toContain(current?.owner);
  }
}
