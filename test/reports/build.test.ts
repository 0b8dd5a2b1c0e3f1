import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatewayClient } from '../../src/gateway/index.js';
import { buildReport, type ReportProgress } from '../../src/reports/build.js';
import { DeliveryLookup } from '../../src/reports/delivery.js';
import type { SendLine } from '../../src/reports/send-lines.js';
import type { Store } from '../../src/store/index.js';
import { pgSkipNote, postgresBackend, sqliteBackend } from '../store/helpers.js';
import { startTestSimulator } from '../support/simulator.js';

let gateway: GatewayClient;
let closeSimulator: () => Promise<void>;

beforeAll(async () => {
  const started = await startTestSimulator({ username: 'demo', password: 'demo' });
  closeSimulator = started.sim.close;
  gateway = new GatewayClient({
    baseUrl: started.sim.url,
    username: 'demo',
    password: 'demo',
    timeZone: 'UTC',
  });
});
afterAll(async () => {
  await gateway.close();
  await closeSimulator();
});

const FROM = new Date('2026-05-01T00:00:00Z');
const TO = new Date('2026-06-01T00:00:00Z');
/** More than two pages of the store's reads (500 a page), with pairs of sends made in the same millisecond. */
const SENT = 1_003;

async function fill(store: Store): Promise<void> {
  for (let i = 0; i < SENT; i++) {
    const at = new Date(FROM.getTime() + Math.floor(i / 2) * 60_000);
    const { row } = await store.outbox.createPending({
      idempotencyKey: `compose:${i}`,
      slackUser: i % 3 === 0 ? 'UALICE' : 'UBOB',
      recipients: ['905321110000'],
      text: `send ${i}`,
      segments: 1,
      encoding: 'GSM7',
      estimatedCost: 0.05,
      at,
    });
    await store.outbox.markSubmitted(row.id, String(10_000 + i), { at });
    await store.outbox.recordProgress(row.id, {
      delivered: 1,
      undelivered: 0,
      count: 1,
      state: 'Delivered',
      final: true,
      nextPollAt: null,
      lastPolledAt: at,
    });
  }
  const intent = {
    slackUser: 'UALICE',
    recipients: ['905321110001'],
    text: 'x',
    segments: 1,
    encoding: 'GSM7',
  };
  // Not made in May: waiting for June, made in April, or still waiting for its time.
  await store.outbox.createScheduled({ ...intent, idempotencyKey: 'later', at: FROM, dueAt: TO });
  await store.outbox.createPending({ ...intent, idempotencyKey: 'april', at: new Date(FROM.getTime() - 1) });
  // Refused at sending on the last millisecond of May: made then, and in the report.
  const { row } = await store.outbox.createPending({
    ...intent,
    idempotencyKey: 'refused',
    at: new Date(TO.getTime() - 1),
  });
  await store.outbox.markFailed(row.id, 'refused at sending: no role', new Date(TO.getTime() - 1));
}

for (const backend of [sqliteBackend, postgresBackend]) {
  describe.skipIf(!backend.available)(
    `a report of a month of sends: ${backend.name}${backend.name === 'postgres' ? pgSkipNote : ''}`,
    () => {
      it('reads the sends in pages, in the order they were made, each once, and tells its progress', async () => {
        const { store, cleanup } = await backend.open();
        try {
          await fill(store);
          const lines: SendLine[] = [];
          const progress: ReportProgress[] = [];
          const built = await buildReport(
            {
              store,
              gateway,
              delivery: new DeliveryLookup(gateway, {
                callsPerMinute: 60,
                now: () => 0,
                sleep: async () => undefined,
              }),
              personName: async (id) => (id === 'UALICE' ? 'Alice' : id),
              defaultCountry: 'TR',
            },
            {
              scope: {
                kind: 'period',
                period: { from: FROM, to: TO, label: 'May 2026', slug: '2026-05', timeZone: 'UTC' },
              },
              detail: 'full',
              inboundDetails: false,
            },
            { addSend: (line) => void lines.push(line) },
            (p) => void progress.push(p),
          );
          expect(built.sends).toBe(SENT + 1);
          expect(lines.map((l) => l.text)).toEqual([
            ...Array.from({ length: SENT }, (_, i) => `send ${i}`),
            'x',
          ]);
          expect(lines.at(-1)).toMatchObject({
            outcome: 'refused',
            messageId: '',
            note: 'refused at sending: no role',
          });
          expect(lines[0]).toMatchObject({
            person: 'Alice',
            personId: 'UALICE',
            origin: 'modal',
            outcome: 'sent',
          });
          expect(progress.at(-1)).toEqual({ done: SENT + 1, total: SENT + 1 });
          expect(progress.length).toBeGreaterThan(10);
          expect(progress.map((p) => p.done)).toEqual([...progress.map((p) => p.done)].sort((a, b) => a - b));
          expect(built.summary.total).toMatchObject({
            sends: SENT,
            recipients: SENT,
            notSent: 1,
            delivered: SENT,
          });
          expect(built.summary.byPerson.get('Alice')?.sends).toBe(Math.ceil(SENT / 3));
        } finally {
          await cleanup();
        }
      });
    },
  );
}
