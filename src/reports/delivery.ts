import { type Gateway, GatewayUnavailable, type MessageReport } from '../gateway/index.js';
import type { OutboxRow, ReportRange } from '../store/index.js';
import { type DeliveryFigures, storedFigures } from './send-lines.js';

/**
 * QueryMulti calls a report may make in a minute: half the delivery tracker's default budget (120), so a report
 * running beside the tracker never takes the gateway past what the tracker alone may ask.
 */
export const REPORT_QUERY_CALLS_PER_MINUTE = 60;
/** Batches asked for per page when the gateway pages its listing (PageSize, gateway-notes.md). */
const LISTING_PAGE_SIZE = 500;
/** A listing longer than this many pages is left: the sends not found in it are asked one by one, within the pace. */
const MAX_LISTING_PAGES = 40;

export interface DeliveryPace {
  callsPerMinute: number;
  now: () => number;
  sleep: (ms: number) => Promise<void>;
}

export const realPace = (callsPerMinute = REPORT_QUERY_CALLS_PER_MINUTE): DeliveryPace => ({
  callsPerMinute,
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
});

function figuresOf(report: MessageReport): DeliveryFigures {
  return {
    delivered: report.deliveredCount,
    undelivered: report.undeliveredCount,
    pending: Math.max(0, report.count - report.deliveredCount - report.undeliveredCount),
    source: 'gateway now',
  };
}

/**
 * Delivery figures as QueryMulti gives them when the report is made. First the gateway's listing of the period
 * (MessageId 0 and the Range: one call, or a few pages, for every batch); a send missing from it is asked by its
 * MessageId. Every call waits its turn within `callsPerMinute`. When the gateway cannot answer, the figures the
 * tracker stored at its last poll are shown, and marked so.
 */
export class DeliveryLookup {
  readonly #gateway: Gateway;
  readonly #pace: DeliveryPace;
  readonly #listed = new Map<string, MessageReport>();
  readonly #calls: number[] = [];
  #gatewayDown = false;

  constructor(gateway: Gateway, pace: DeliveryPace) {
    this.#gateway = gateway;
    this.#pace = pace;
  }

  /** How many QueryMulti calls this lookup made. */
  get calls(): number {
    return this.#calls.length;
  }

  async #turn(): Promise<void> {
    for (;;) {
      const now = this.#pace.now();
      const recent = this.#calls.filter((t) => now - t < 60_000);
      if (recent.length < this.#pace.callsPerMinute) break;
      await this.#pace.sleep(60_000 - (now - recent[0]!) + 1);
    }
    this.#calls.push(this.#pace.now());
  }

  /** Lists the batches the gateway received in the range (a margin either side: its clock is its own). */
  async list(range: ReportRange): Promise<void> {
    const margin = 6 * 3_600_000;
    const request = {
      range: { begin: new Date(range.from.getTime() - margin), end: new Date(range.to.getTime() + margin) },
    };
    try {
      for (let page = 0; page < MAX_LISTING_PAGES; page++) {
        await this.#turn();
        const { reports, totalCount } = await this.#gateway.queryMulti({
          ...request,
          pageIndex: page,
          pageSize: LISTING_PAGE_SIZE,
        });
        for (const r of reports) this.#listed.set(String(r.id), r);
        // A gateway without paging answers everything at once (and no TotalCount, or the whole count).
        if (reports.length < LISTING_PAGE_SIZE || totalCount === undefined || this.#listed.size >= totalCount)
          break;
      }
    } catch {
      // The per-send questions below try again, each on its own; a gateway that is down is then not asked further.
    }
  }

  async figures(row: OutboxRow): Promise<DeliveryFigures> {
    if (!row.messageId) return storedFigures(row);
    const listed = this.#listed.get(row.messageId);
    if (listed) return figuresOf(listed);
    // What the tracker recorded as final is what QueryMulti said last: asking again changes nothing.
    if (row.delivery.final || this.#gatewayDown) return storedFigures(row);
    const id = Number(row.messageId);
    if (!Number.isSafeInteger(id)) return storedFigures(row);
    try {
      await this.#turn();
      const { reports } = await this.#gateway.queryMulti({ messageId: id });
      const report = reports.find((r) => String(r.id) === row.messageId) ?? reports[0];
      return report ? figuresOf(report) : storedFigures(row);
    } catch (error) {
      // Unreachable: the rest is not asked either (each would wait out its timeout). A refusal is this batch's.
      if (error instanceof GatewayUnavailable) this.#gatewayDown = true;
      return storedFigures(row);
    }
  }
}
