import { TZDate } from '@date-fns/tz';
import { describe, expect, it } from 'vitest';
import { snapshotOf } from '../../src/simulator/snapshot.js';
import { SimulatorState } from '../../src/simulator/state.js';

const fixed = (iso: string) => () => new Date(iso);

function newState(initialBalance: number, timeZone = 'UTC') {
  return new SimulatorState({
    now: fixed('2024-05-15T10:00:00Z'),
    timeZone,
    pricePerSegment: 0.05,
    initialBalance,
  });
}

describe('seeded history', () => {
  it.each([0, 0.1, 42, 1250, 100_000])(
    'balance log chains to initialBalance %d and never goes negative',
    (initial) => {
      const state = newState(initial);
      const log = state.balanceLog();
      let balance = 0;
      for (const entry of log) {
        balance += entry.type === 'Credit' ? entry.amount : -entry.amount;
        expect(entry.balanceAfter).toBe(balance);
        expect(entry.balanceAfter).toBeGreaterThanOrEqual(0);
        expect(entry.amount).toBeGreaterThan(0);
      }
      expect(balance).toBe(state.balance().main);
      expect(snapshotOf(state).balance.main).toBe(initial);
    },
  );

  it('covers about 60 days, oldest first, ids increasing, nothing in the future', () => {
    const log = newState(1250).balanceLog();
    const now = Date.parse('2024-05-15T10:00:00Z');
    expect(now - log[0]!.timestamp.getTime()).toBeGreaterThan(59 * 86_400_000);
    expect(now - log[0]!.timestamp.getTime()).toBeLessThan(63 * 86_400_000);
    for (let i = 1; i < log.length; i++) {
      expect(log[i]!.timestamp.getTime()).toBeGreaterThanOrEqual(log[i - 1]!.timestamp.getTime());
      expect(log[i]!.id).toBeGreaterThan(log[i - 1]!.id);
    }
    expect(log.at(-1)!.timestamp.getTime()).toBeLessThan(now);
  });

  it('has nothing today, whatever the time of day and the zone it is read in: spent today starts at zero', () => {
    const readers = ['UTC', 'Europe/Istanbul', 'Pacific/Kiritimati', 'Pacific/Pago_Pago'];
    for (const timeZone of ['UTC', 'Europe/Istanbul']) {
      for (let minutes = 0; minutes < 24 * 60; minutes += 29) {
        const now = new Date(Date.UTC(2024, 4, 15) + minutes * 60_000);
        const state = new SimulatorState({
          now: () => now,
          timeZone,
          pricePerSegment: 0.05,
          initialBalance: 1250,
        });
        const log = state.balanceLog();
        for (const reader of readers) {
          const local = new TZDate(now.getTime(), reader);
          const todayStart = new TZDate(
            local.getFullYear(),
            local.getMonth(),
            local.getDate(),
            reader,
          ).getTime();
          const today = log.filter((e) => e.timestamp.getTime() >= todayStart);
          expect({ now: now.toISOString(), timeZone, reader, today }).toEqual({
            now: now.toISOString(),
            timeZone,
            reader,
            today: [],
          });
        }
      }
    }
  });

  it('is the same on every start and after reset', () => {
    const a = newState(1250);
    const b = newState(1250);
    expect(snapshotOf(b)).toEqual(snapshotOf(a));
    a.submit({
      operation: 'Submit',
      messages: [{ to: '905321234567', text: 'x', toWhere: 'To[0]', textWhere: 'Message' }],
    });
    a.reset();
    expect(snapshotOf(a)).toEqual(snapshotOf(b));
  });

  it('gives twelve months of statistics with delivered + undelivered = count', () => {
    const stats = newState(1250, 'Europe/Istanbul').monthlyStats();
    expect(stats.map((m) => `${m.year}-${m.month}`)).toEqual([
      '2023-6',
      '2023-7',
      '2023-8',
      '2023-9',
      '2023-10',
      '2023-11',
      '2023-12',
      '2024-1',
      '2024-2',
      '2024-3',
      '2024-4',
      '2024-5',
    ]);
    for (const m of stats) expect(m.delivered + m.undelivered).toBe(m.count);
  });

  it('makes the seeded monthly spend agree with the balance log debits of the same days', () => {
    // The log's daily debit explanations carry the message counts the statistics are built from.
    const state = newState(1250);
    const april = state
      .balanceLog({ begin: new Date('2024-04-01T00:00:00Z'), end: new Date('2024-04-30T23:59:59.999Z') })
      .filter((e) => e.type === 'Debit')
      .map((e) => Number(/(\d+) messages/.exec(e.explanation)![1]))
      .reduce((a, b) => a + b, 0);
    expect(state.monthlyStats().find((m) => m.month === 4)!.count).toBe(april);
  });
});
