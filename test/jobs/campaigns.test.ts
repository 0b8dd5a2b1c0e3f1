import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startCampaign } from '../../src/sending/campaign.js';
import type { SendPlan } from '../../src/sending/send.js';
import { openStore, type Store } from '../../src/store/index.js';
import { dropSchema, pgSkipNote, pgUrl, scratchSchema, tempDir } from '../store/helpers.js';
import { type SimulatorControl, startTestSimulator } from '../support/simulator.js';
import { type Harness, startHarness, users } from '../support/slack-harness.js';

/**
 * Two bots on one database and one gateway, both running the campaign runner at the same moment: each chunk is
 * submitted by exactly one of them, every number gets the SMS once, and a campaign left by one is taken up
 * by the other.
 */

const NUMBERS = Array.from({ length: 30 }, (_, i) => `90532${3_000_000 + i}`);

function planOf(numbers: string[]): SendPlan {
  return {
    sender: 'SMSOPS',
    recipients: numbers,
    text: 'Two instances',
    encoding: 'GSM-7',
    dataCoding: 'Default',
    validityMinutes: 1440,
    totalSegments: numbers.length,
    estimatedCost: numbers.length * 0.05,
  };
}

function twoInstances(kind: 'sqlite' | 'postgres') {
  let sim: Awaited<ReturnType<typeof startTestSimulator>>['sim'];
  let control: SimulatorControl;
  let a: Harness;
  let b: Harness;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    ({ sim, control } = await startTestSimulator());
    let open: () => Promise<Store>;
    if (kind === 'sqlite') {
      const tmp = tempDir();
      open = () => openStore(`sqlite:${join(tmp.dir, 'shared.db')}`);
      cleanup = async () => tmp.remove();
    } else {
      const schema = scratchSchema();
      open = () => openStore(pgUrl!, { schema });
      cleanup = () => dropSchema(schema);
    }
    const options = {
      gatewayUrl: sim.url,
      sending: { submitChunkSize: 3 },
      env: { SUBMIT_CHUNK_INTERVAL_MS: '0' },
    };
    a = await startHarness({ ...options, store: await open() });
    b = await startHarness({ ...options, store: await open() });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await sim?.close();
    await cleanup?.();
  });
  beforeEach(() => control.reset());

  async function perNumber(): Promise<Map<string, number>> {
    const counts = new Map<string, number>();
    for (const batch of (await control.state()).batches) {
      for (const r of batch.recipients) counts.set(r.to, (counts.get(r.to) ?? 0) + 1);
    }
    return counts;
  }

  it('both run the campaign at once: each chunk is submitted once, every number gets the SMS once', async () => {
    const { campaign } = await startCampaign(
      a.deps,
      { idempotencyKey: `two:${kind}`, slackUser: users.admin, channel: 'C1', plan: planOf(NUMBERS) },
      3,
    );
    for (let pass = 0; pass < 20; pass++) {
      await Promise.all([a.bot.campaigns.tick(), b.bot.campaigns.tick()]);
      if ((await a.store.campaigns.get(campaign.id))?.state !== 'running') break;
    }
    expect((await b.store.campaigns.get(campaign.id))?.state).toBe('done');
    const counts = await perNumber();
    expect(NUMBERS.map((n) => counts.get(n))).toEqual(NUMBERS.map(() => 1));
    expect(await control.callCount('Submit')).toBe(10);
    const chunks = await a.store.campaigns.chunks(campaign.id);
    expect(chunks.map((c) => c.chunk)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('a campaign whose instance died between chunks is taken up by the other once its claim ran out', async () => {
    const numbers = NUMBERS.slice(0, 9);
    const { campaign } = await startCampaign(
      a.deps,
      { idempotencyKey: `taken-up:${kind}`, slackUser: users.admin, channel: 'C1', plan: planOf(numbers) },
      3,
    );
    expect(await a.bot.campaigns.tick({ maxChunks: 1 })).toBe(1);
    // A third instance claimed chunk 2 and died before writing its outbox row: nothing reached the gateway.
    const now = new Date();
    expect(
      await a.store.campaigns.claimChunk(campaign.id, 1, 'dead:1', now, new Date(now.getTime() + 300)),
    ).toBe(true);
    expect(await b.bot.campaigns.tick()).toBe(0);
    await expect
      .poll(async () => {
        await b.bot.campaigns.tick();
        return (await b.store.campaigns.get(campaign.id))?.state;
      })
      .toBe('done');
    const counts = await perNumber();
    expect(numbers.map((n) => counts.get(n))).toEqual(numbers.map(() => 1));
  });
}

describe('campaigns on two instances: sqlite', () => twoInstances('sqlite'));

describe.skipIf(!pgUrl)(`campaigns on two instances: postgres${pgSkipNote}`, () => twoInstances('postgres'));
