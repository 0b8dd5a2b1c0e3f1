import { directionOf, isRefund } from '../digests/spend.js';
import type { BalanceLogEntry } from '../gateway/index.js';
import { localDayKey } from './period.js';
import type { SendLine } from './send-lines.js';

/** One line of a Summary table: what went to the gateway under one day, sender name or person. */
export interface Totals {
  /** Sends the gateway took (they have a MessageId). */
  sends: number;
  recipients: number;
  segments: number;
  estimatedCost: number;
  delivered: number;
  undelivered: number;
  /** Sends refused, or whose fate is unknown, or still in flight: no MessageId. */
  notSent: number;
}

export interface DayTotals extends Totals {
  /** The day's spend from GetBalanceLog (debits less refunds for cancelled messages); undefined when not read. */
  spend: number | undefined;
}

export interface ReportSummary {
  byDay: Map<string, DayTotals>;
  bySenderName: Map<string, Totals>;
  byPerson: Map<string, Totals>;
  total: DayTotals;
  /** False when GetBalanceLog could not be read: the spend column then says so instead of showing 0. */
  spendRead: boolean;
}

const empty = (): Totals => ({
  sends: 0,
  recipients: 0,
  segments: 0,
  estimatedCost: 0,
  delivered: 0,
  undelivered: 0,
  notSent: 0,
});

/** Amounts are added in ten-thousandths (the gateway's 4 places), so a sum of 0.0125s stays exact. */
const addMoney = (a: number, b: number) => Math.round((a + b) * 10_000) / 10_000;

function add(into: Totals, line: SendLine): void {
  if (!line.messageId) {
    into.notSent++;
    return;
  }
  into.sends++;
  into.recipients += line.recipientCount;
  into.segments += line.segments;
  into.estimatedCost = addMoney(into.estimatedCost, line.estimatedCost ?? 0);
  into.delivered += line.delivery.delivered;
  into.undelivered += line.delivery.undelivered;
}

function at<K, V>(map: Map<K, V>, key: K, make: () => V): V {
  let value = map.get(key);
  if (value === undefined) {
    value = make();
    map.set(key, value);
  }
  return value;
}

/** The Summary sheet, added to line by line while the Sends sheet is written. */
export class SummaryBuilder {
  readonly #timeZone: string;
  readonly #summary: ReportSummary;

  constructor(timeZone: string) {
    this.#timeZone = timeZone;
    this.#summary = {
      byDay: new Map(),
      bySenderName: new Map(),
      byPerson: new Map(),
      total: { ...empty(), spend: undefined },
      spendRead: false,
    };
  }

  add(line: SendLine): void {
    const s = this.#summary;
    add(
      at(s.byDay, localDayKey(line.madeAt, this.#timeZone), () => ({ ...empty(), spend: undefined })),
      line,
    );
    add(at(s.bySenderName, line.senderName || '(none)', empty), line);
    add(at(s.byPerson, line.person, empty), line);
    add(s.total, line);
  }

  /** The balance log of the period: each entry's spend goes to its local day, beside the estimated cost. */
  addBalanceLog(entries: readonly BalanceLogEntry[], range: { from: Date; to: Date }): void {
    const s = this.#summary;
    s.spendRead = true;
    s.total.spend = 0;
    for (const day of s.byDay.values()) day.spend = 0;
    for (const e of entries) {
      if (!e.timestamp || e.timestamp < range.from || e.timestamp >= range.to) continue;
      const sign = directionOf(e) === 'debit' ? 1 : isRefund(e) ? -1 : 0;
      if (sign === 0) continue;
      const day = at(s.byDay, localDayKey(e.timestamp, this.#timeZone), () => ({ ...empty(), spend: 0 }));
      day.spend = addMoney(day.spend ?? 0, sign * e.amount);
      s.total.spend = addMoney(s.total.spend, sign * e.amount);
    }
  }

  result(): ReportSummary {
    const s = this.#summary;
    return { ...s, byDay: new Map([...s.byDay].sort(([a], [b]) => a.localeCompare(b))) };
  }
}
