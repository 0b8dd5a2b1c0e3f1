import { afterEach, describe, expect, it } from 'vitest';
import type { SendIntent } from '../../src/store/index.js';
import { type Backend, type OpenedStore, pgSkipNote, postgresBackend, sqliteBackend } from './helpers.js';

const intent = (key: string): SendIntent => ({
  idempotencyKey: key,
  slackUser: 'U1',
  channel: 'C1',
  sender: 'SMSOPS',
  recipients: ['905321234567'],
  text: 'Hello',
  segments: 1,
  encoding: 'GSM-7',
  estimatedCost: 0.05,
  payload: null,
});

function gatewayIds(backend: Backend): void {
  let opened: OpenedStore | undefined;
  afterEach(async () => {
    await opened?.cleanup();
    opened = undefined;
  });

  it('knows none in an empty store', async () => {
    opened = await backend.open();
    expect(await opened.store.gatewayIds.highest()).toEqual({ messageId: undefined, inboundId: undefined });
  });

  it('the highest as numbers, not as text: 100001 is above 99999, and a 20-digit id is kept exact', async () => {
    opened = await backend.open();
    const { store } = opened;
    for (const [key, messageId] of [
      ['a', '99999'],
      ['b', '100001'],
      ['c', '100000'],
    ] as const) {
      const { row } = await store.outbox.createPending(intent(key));
      await store.outbox.markSubmitted(row.id, messageId);
    }
    await store.outbox.createPending(intent('never-sent'));
    await store.inbound.claim('500009', 'i1');
    await store.inbound.claim('500010', 'i1');
    expect(await store.gatewayIds.highest()).toEqual({ messageId: 100001n, inboundId: 500010n });

    const { row } = await store.outbox.createPending(intent('large'));
    await store.outbox.markSubmitted(row.id, 12345678901234567890n);
    expect((await store.gatewayIds.highest()).messageId).toBe(12345678901234567890n);
  });
}

describe('gateway ids: sqlite', () => gatewayIds(sqliteBackend));
describe.skipIf(!postgresBackend.available)(`gateway ids: postgres${pgSkipNote}`, () =>
  gatewayIds(postgresBackend),
);
