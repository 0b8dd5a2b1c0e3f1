import type { Gateway, MessageReport } from '../gateway/index.js';
import type { OutboxRow, Store } from '../store/index.js';

/**
 * The gateway receives a Submit right after its outbox row is written; these margins cover the call's own
 * time and a gateway clock that is minutes off ours.
 */
const BEFORE_MS = 5 * 60_000;
const AFTER_MS = 10 * 60_000;
const PAGE_SIZE = 500;
const MAX_PAGES = 20;

export interface GatewayCheck {
  range: { begin: Date; end: Date };
  /** Batches at the gateway that match the send by sender, text, recipient count and time. */
  matches: MessageReport[];
  /** Batches listed in the range, matching or not. */
  listed: number;
}

export function checkRange(row: Pick<OutboxRow, 'createdAt' | 'payload'>): { begin: Date; end: Date } {
  // A scheduled send reached the gateway when it was claimed, long after its row was written.
  const claimedAt = (row.payload as { claimedAt?: unknown } | null)?.claimedAt;
  const claimed = typeof claimedAt === 'string' ? Date.parse(claimedAt) : Number.NaN;
  const t = Number.isFinite(claimed) ? claimed : row.createdAt.getTime();
  return { begin: new Date(t - BEFORE_MS), end: new Date(t + AFTER_MS) };
}

const normalised = (text: string) => text.replace(/\r\n?/g, '\n').trim();

/** The texts the gateway may list for this send: the text, or for a personalised send any envelope's. */
function textsOf(row: OutboxRow): Set<string> {
  const texts = new Set([normalised(row.text)]);
  const envelopes = (row.payload as { envelopes?: Array<{ message?: unknown }> } | null)?.envelopes;
  for (const envelope of envelopes ?? []) {
    if (typeof envelope.message === 'string') texts.add(normalised(envelope.message));
  }
  return texts;
}

/** Whether a batch the gateway lists could be this send: same sender, text and recipient count, in time. */
export function matchesSend(row: OutboxRow, report: MessageReport): boolean {
  const range = checkRange(row);
  const received = report.received?.getTime();
  return (
    (report.sender ?? '').toLowerCase() === (row.sender ?? '').toLowerCase() &&
    report.count === row.recipientCount &&
    textsOf(row).has(normalised(report.message ?? '')) &&
    (received === undefined || (received >= range.begin.getTime() && received <= range.end.getTime()))
  );
}

/**
 * Looks for a send without a MessageId among the batches the gateway received around its time
 * (QueryMulti with MessageId 0 over a Range). Batches already recorded on another send are not candidates.
 * Reads only: nothing is sent.
 */
export async function findSendAtGateway(
  deps: { gateway: Gateway; store: Store },
  row: OutboxRow,
): Promise<GatewayCheck> {
  const range = checkRange(row);
  const listed = new Map<number, MessageReport>();
  for (let pageIndex = 0; pageIndex < MAX_PAGES; pageIndex++) {
    const page = await deps.gateway.queryMulti({ range, pageIndex, pageSize: PAGE_SIZE });
    const before = listed.size;
    for (const report of page.reports) listed.set(report.id, report);
    // A gateway that does not page answers everything at once: no TotalCount, or the same page again.
    if (page.totalCount === undefined || listed.size === before || listed.size >= page.totalCount) break;
  }
  const matches: MessageReport[] = [];
  for (const report of listed.values()) {
    if (!matchesSend(row, report)) continue;
    const owner = await deps.store.outbox.getByMessageId(String(report.id));
    if (owner && owner.id !== row.id) continue;
    matches.push(report);
  }
  return { range, matches, listed: listed.size };
}
