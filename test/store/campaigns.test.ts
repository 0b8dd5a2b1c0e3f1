import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../src/store/index.js';
import {
  type Backend,
  dropSchema,
  pgSkipNote,
  pgUrl,
  postgresBackend,
  scratchSchema,
  sqliteBackend,
  tempDir,
} from './helpers.js';

const T0 = new Date('2030-01-01T00:00:00.000Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

const plan = { sender: 'ACME', recipients: ['905320000001', '905320000002'], text: 'Hi' };

const intent = (key: string, recipientCount = 10, chunkSize = 3) => ({
  idempotencyKey: key,
  slackUser: 'U1',
  channel: 'C1',
  sender: 'ACME',
  text: 'Hi',
  plan,
  recipientCount,
  segments: recipientCount,
  estimatedCost: 0.5,
  chunkSize,
  at: T0,
});

/** Two stores on one database, as two instances have: the same SQLite file, or the same PostgreSQL schema. */
async function twoInstances(backend: Backend): Promise<{ a: Store; b: Store; cleanup(): Promise<void> }> {
  if (backend.name === 'sqlite') {
    const tmp = tempDir();
    const url = `sqlite:${join(tmp.dir, 'store.db')}`;
    const a = await openStore(url);
    const b = await openStore(url);
    return {
      a,
      b,
      cleanup: async () => {
        await a.close();
        await b.close();
        tmp.remove();
      },
    };
  }
  const schema = scratchSchema();
  const a = await openStore(pgUrl!, { schema });
  const b = await openStore(pgUrl!, { schema });
  return {
    a,
    b,
    cleanup: async () => {
      await a.close();
      await b.close();
      await dropSchema(schema);
    },
  };
}

function campaignContract(backend: Backend): void {
  let a: Store;
  let b: Store;
  let cleanup: () => Promise<void>;

  beforeEach(async () => {
    ({ a, b, cleanup } = await twoInstances(backend));
  });
  afterEach(() => cleanup());

  it('creates a campaign once per key, with its chunk count and its plan', async () => {
    const first = await a.campaigns.create(intent('k1', 10, 3));
    expect(first.created).toBe(true);
    expect(first.campaign).toMatchObject({ state: 'running', chunkCount: 4, cursor: 0, round: 0 });
    const again = await b.campaigns.create(intent('k1', 10, 3));
    expect(again).toMatchObject({ created: false, campaign: { id: first.campaign.id } });
    expect(await b.campaigns.plan(first.campaign.id)).toEqual(plan);
    expect(await b.campaigns.byKey('k1')).toEqual(first.campaign);
    expect(await b.campaigns.byKey('k-none')).toBeUndefined();
  });

  it('a chunk is claimed by exactly one instance, even when both ask at once, and only at the cursor', async () => {
    const { campaign } = await a.campaigns.create(intent('k2'));
    const lease = at(40);
    const results = await Promise.all([
      a.campaigns.claimChunk(campaign.id, 0, 'A', at(1), lease),
      b.campaigns.claimChunk(campaign.id, 0, 'B', at(1), lease),
    ]);
    expect(results.filter(Boolean)).toHaveLength(1);
    const winner = results[0] ? 'A' : 'B';
    const loser = winner === 'A' ? 'B' : 'A';
    expect(await a.campaigns.claimChunk(campaign.id, 1, winner, at(1), lease)).toBe(false);
    // The holder claims again (its own restart on the same host and port); the other waits for the lease.
    expect(await a.campaigns.claimChunk(campaign.id, 0, winner, at(2), lease)).toBe(true);
    expect(await a.campaigns.claimChunk(campaign.id, 0, loser, at(39), lease)).toBe(false);
    expect(await a.campaigns.due(at(39), loser, 10)).toEqual([]);
    // Only the holder moves the cursor on, and only from the chunk it claimed.
    expect(await a.campaigns.advance(campaign.id, 0, loser, at(42))).toBe(false);
    expect(await a.campaigns.advance(campaign.id, 1, winner, at(42))).toBe(false);
    expect(await a.campaigns.advance(campaign.id, 0, winner, at(42))).toBe(true);
    // The pace: the next chunk is not due before next_at.
    expect(await b.campaigns.claimChunk(campaign.id, 1, loser, at(41), at(80))).toBe(false);
    expect((await b.campaigns.due(at(42), loser, 10)).map((c) => c.id)).toEqual([campaign.id]);
    expect(await b.campaigns.claimChunk(campaign.id, 1, loser, at(42), at(80))).toBe(true);
  });

  it('a claim whose holder died is taken up once its lease ran out; a live holder keeps it by renewing', async () => {
    const { campaign } = await a.campaigns.create(intent('k3'));
    expect(await a.campaigns.claimChunk(campaign.id, 0, 'A', at(0), at(40))).toBe(true);
    expect(await a.campaigns.renewLease(campaign.id, 'A', at(70))).toBe(true);
    expect(await b.campaigns.claimChunk(campaign.id, 0, 'B', at(50), at(90))).toBe(false);
    // A stops renewing (killed): after its lease, B takes the same chunk, and A's late renewal fails.
    expect((await b.campaigns.due(at(71), 'B', 10)).map((c) => c.id)).toEqual([campaign.id]);
    expect(await b.campaigns.claimChunk(campaign.id, 0, 'B', at(71), at(111))).toBe(true);
    expect(await a.campaigns.renewLease(campaign.id, 'A', at(120))).toBe(false);
    expect(await a.campaigns.advance(campaign.id, 0, 'A', at(120))).toBe(false);
    expect(await b.campaigns.advance(campaign.id, 0, 'B', at(72))).toBe(true);
    expect(await b.campaigns.get(campaign.id)).toMatchObject({ cursor: 1, owner: null, leaseUntil: null });
  });

  it('resumes where it stopped: chunk rows are found by campaign, and Send the rest starts a new round once', async () => {
    const { campaign } = await a.campaigns.create(intent('k4', 6, 3));
    const row = async (chunk: number, key: string) =>
      (
        await a.outbox.createPending({
          idempotencyKey: key,
          slackUser: 'U1',
          recipients: ['905320000001'],
          text: 'Hi',
          segments: 1,
          encoding: 'GSM-7',
          campaign: { id: campaign.id, chunk },
          at: T0,
        })
      ).row;
    const first = await row(0, 'k4#0');
    await a.outbox.markSubmitted(first.id, '100001', { at: T0 });
    const second = await row(1, 'k4#1');
    await a.outbox.markFailed(second.id, 'refused', T0);
    expect(await b.outbox.get(second.id)).toMatchObject({ campaignId: campaign.id, campaignChunk: 1 });
    expect((await b.campaigns.chunks(campaign.id)).map((c) => [c.chunk, c.state, c.messageId])).toEqual([
      [0, 'submitted', '100001'],
      [1, 'failed', null],
    ]);

    expect(await a.campaigns.stop(campaign.id, 'Chunk 2 of 2 was refused')).toBe(true);
    expect(await a.campaigns.resume(campaign.id, 'U2')).toBe(true);
    // Two clicks at once, or a second instance: one new round only.
    expect(await b.campaigns.resume(campaign.id, 'U3')).toBe(false);
    expect(await b.campaigns.get(campaign.id)).toMatchObject({
      state: 'running',
      round: 1,
      cursor: 0,
      actingUser: 'U2',
      stopReason: null,
    });
    expect(await a.campaigns.cancel(campaign.id, 'U1')).toBe(true);
    expect(await b.campaigns.cancel(campaign.id, 'U1')).toBe(false);
    expect(await b.campaigns.due(at(100), 'B', 10)).toEqual([]);
    expect(await b.campaigns.claimChunk(campaign.id, 0, 'B', at(100), at(140))).toBe(false);
  });

  it('finishes only once the cursor passed the last chunk', async () => {
    const { campaign } = await a.campaigns.create(intent('k5', 2, 3));
    expect(campaign.chunkCount).toBe(1);
    expect(await a.campaigns.finish(campaign.id)).toBe(false);
    await a.campaigns.claimChunk(campaign.id, 0, 'A', at(0), at(40));
    await a.campaigns.advance(campaign.id, 0, 'A', at(1));
    expect(await b.campaigns.finish(campaign.id)).toBe(true);
    expect((await a.campaigns.get(campaign.id))?.state).toBe('done');
  });

  it('/sms forget blanks the number in every campaign plan, in place, so the chunks keep their positions', async () => {
    const personal = {
      ...plan,
      recipients: ['905320000001', '905320000002', '905320000003'],
      envelopes: [
        { to: '905320000001', message: 'Hi A' },
        { to: '905320000002', message: 'Hi B' },
        { to: '905320000003', message: 'Hi C' },
      ],
    };
    const { campaign } = await a.campaigns.create({ ...intent('k8', 3, 1), plan: personal });
    const { campaign: other } = await a.campaigns.create(intent('k9'));
    expect(await b.campaigns.forgetNumber('905320000002', at(5))).toBe(2);
    expect(await a.campaigns.plan(campaign.id)).toEqual({
      ...personal,
      recipients: ['905320000001', '', '905320000003'],
      envelopes: [
        { to: '905320000001', message: 'Hi A' },
        { to: '', message: '' },
        { to: '905320000003', message: 'Hi C' },
      ],
    });
    expect(await a.campaigns.plan(other.id)).toEqual({ ...plan, recipients: ['905320000001', ''] });
    expect((await a.campaigns.get(campaign.id))?.redactedAt).toEqual(at(5));
    expect(await b.campaigns.forgetNumber('905320000002', at(6))).toBe(0);
  });

  it('retention takes the plan and text of campaigns no longer running', async () => {
    const { campaign: running } = await a.campaigns.create(intent('k6'));
    const { campaign: done } = await a.campaigns.create(intent('k7'));
    await a.campaigns.cancel(done.id, 'U1');
    expect(await a.campaigns.purgeContentBefore(at(10), at(10))).toBe(1);
    expect(await a.campaigns.plan(done.id)).toBeUndefined();
    expect(await a.campaigns.plan(running.id)).toEqual(plan);
  });
}

describe('campaign claims: sqlite', () => campaignContract(sqliteBackend));

describe.skipIf(!postgresBackend.available)(`campaign claims: postgres${pgSkipNote}`, () =>
  campaignContract(postgresBackend),
);
