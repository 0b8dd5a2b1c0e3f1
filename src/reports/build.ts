import type { BalanceLogEntry, Gateway, InboundMessage } from '../gateway/index.js';
import { withoutForgottenSenders } from '../sms/forgotten-senders.js';
import type { CountryCode } from '../sms/index.js';
import type { OutboxRow, ReportCampaign, ReportCursor, Store } from '../store/index.js';
import type { DeliveryLookup } from './delivery.js';
import { type InboundSummary, inboundSummaryOf } from './inbound.js';
import type { ReportPeriod } from './period.js';
import { type ReportDetail, type SendLine, sendLineOf } from './send-lines.js';
import { type ReportSummary, SummaryBuilder } from './summary.js';

/** Rows read from the store at a time: a month of 100,000 sends is never held at once. */
const PAGE = 500;

/** What a report covers: a period, or one send (a delivery card's or a campaign card's Report button). */
export type ReportScope =
  | { kind: 'period'; period: ReportPeriod }
  | { kind: 'send'; outboxId: number; label: string; timeZone: string }
  | { kind: 'campaign'; campaignId: number; label: string; timeZone: string };

export interface ReportOptions {
  scope: ReportScope;
  detail: ReportDetail;
  /** Inbound numbers and texts: only for an admin who asked. */
  inboundDetails: boolean;
  /** Inbound SMS received before this show their number and text as purged (RETENTION_DAYS). */
  retainedSince?: Date;
}

export interface ReportSources {
  store: Store;
  gateway: Gateway;
  delivery: DeliveryLookup;
  /** A Slack user's name (or the id when it cannot be read); reports know no Slack. */
  personName: (userId: string) => Promise<string>;
  /** How an inbound sender's number is brought to the gateway form, to be matched against `/sms forget`. */
  defaultCountry: CountryCode;
  logger?: { warn: (obj: object, msg: string) => void };
}

/** Where the rows go as they are made: the xlsx or CSV writer. */
export interface ReportSink {
  addSend(line: SendLine): void | Promise<void>;
}

export interface ReportProgress {
  done: number;
  total: number;
}

export interface BuiltReport {
  sends: number;
  summary: ReportSummary;
  /** Undefined for a report of one send (its inbound SMS are not its own). */
  inbound: InboundSummary | undefined;
  /** The gateway calls that failed, in a word each, for the note under the report. */
  unread: string[];
}

async function* sendsOf(
  store: Store,
  scope: ReportScope,
): AsyncGenerator<{ row: OutboxRow; cursor: ReportCursor }> {
  if (scope.kind === 'send') {
    const row = await store.outbox.get(scope.outboxId);
    if (row)
      yield {
        row,
        cursor: { madeAt: (row.submittedAt ?? row.dueAt ?? row.createdAt).getTime(), id: row.id },
      };
    return;
  }
  if (scope.kind === 'campaign') {
    yield* await store.reports.sendsOfCampaign(scope.campaignId);
    return;
  }
  let after: ReportCursor | null = null;
  for (;;) {
    const page = await store.reports.sendsIn(scope.period, after, PAGE);
    yield* page;
    if (page.length < PAGE) return;
    after = page[page.length - 1]!.cursor;
  }
}

async function countOf(store: Store, scope: ReportScope): Promise<number> {
  if (scope.kind === 'period') return store.reports.countSendsIn(scope.period);
  if (scope.kind === 'campaign') return (await store.reports.sendsOfCampaign(scope.campaignId)).length;
  return 1;
}

export function timeZoneOf(scope: ReportScope): string {
  return scope.kind === 'period' ? scope.period.timeZone : scope.timeZone;
}

/** The range the gateway is asked about: the period's, or the span of the sends of a one-send report. */
function rangeOf(scope: ReportScope, first: Date | undefined, last: Date | undefined) {
  if (scope.kind === 'period') return { from: scope.period.from, to: scope.period.to };
  const from = first ?? new Date(0);
  return { from, to: new Date((last ?? from).getTime() + 1) };
}

/**
 * Reads the sends of the scope page by page, asks the gateway for their delivery now (paced), and hands each row
 * to the sink as it is made; then the balance log and the inbound SMS for the Summary and Inbound sheets.
 * `progress` is told after each page.
 */
export async function buildReport(
  sources: ReportSources,
  options: ReportOptions,
  sink: ReportSink,
  progress: (p: ReportProgress) => void | Promise<void>,
): Promise<BuiltReport> {
  const { store, gateway, delivery } = sources;
  const { scope } = options;
  const timeZone = timeZoneOf(scope);
  const total = await countOf(store, scope);
  const summary = new SummaryBuilder(timeZone);
  const unread: string[] = [];
  // One listing answers every batch of a period; a send's or a campaign's few batches are asked by MessageId.
  if (scope.kind === 'period') await delivery.list(scope.period);
  const names = new Map<string, Promise<string>>();
  const nameOf = (id: string) => {
    let name = names.get(id);
    if (!name) {
      name = sources.personName(id).catch(() => id);
      names.set(id, name);
    }
    return name;
  };
  const campaigns = new Map<number, ReportCampaign | undefined>();
  let done = 0;
  let first: Date | undefined;
  let last: Date | undefined;
  let batch: Array<{ row: OutboxRow; cursor: ReportCursor }> = [];
  const flush = async () => {
    const wanted = batch
      .map((b) => b.row.campaignId)
      .filter((id): id is number => id !== null && !campaigns.has(id));
    if (wanted.length > 0) {
      const found = await store.reports.campaigns(wanted);
      for (const id of wanted)
        campaigns.set(
          id,
          found.find((c) => c.id === id),
        );
    }
    for (const { row, cursor } of batch) {
      const madeAt = new Date(cursor.madeAt);
      first ??= madeAt;
      last = madeAt;
      const line = sendLineOf(row, {
        detail: options.detail,
        person: await nameOf(row.slackUser),
        campaign: row.campaignId === null ? undefined : campaigns.get(row.campaignId),
        delivery: await delivery.figures(row),
        madeAt,
      });
      summary.add(line);
      await sink.addSend(line);
      done++;
    }
    batch = [];
    await progress({ done, total: Math.max(total, done) });
  };
  for await (const item of sendsOf(store, scope)) {
    batch.push(item);
    if (batch.length >= 100) await flush();
  }
  await flush();

  const range = rangeOf(scope, first, last);
  const log = await gateway
    .getBalanceLog({ begin: range.from, end: range.to })
    .catch((error: unknown): BalanceLogEntry[] | undefined => {
      sources.logger?.warn(
        { err: error instanceof Error ? error.message : String(error) },
        'report: balance log not read',
      );
      unread.push('balance log');
      return undefined;
    });
  // One send's report sets its spend beside nothing: the balance log has no MessageId to tie an entry to it.
  if (log && scope.kind === 'period') summary.addBalanceLog(log, range);
  let inbound: InboundSummary | undefined;
  if (scope.kind === 'period') {
    const received = await gateway
      .receive({ range: { begin: range.from, end: range.to } })
      .catch((error: unknown): InboundMessage[] | undefined => {
        sources.logger?.warn(
          { err: error instanceof Error ? error.message : String(error) },
          'report: inbound not read',
        );
        unread.push('inbound SMS');
        return undefined;
      });
    inbound = inboundSummaryOf(received, range, timeZone, false);
    if (options.inboundDetails && received) {
      // The gateway keeps what `/sms forget` erased from smsops: a forgotten sender's SMS are counted, never shown.
      const shown = await withoutForgottenSenders(received, store.forgottenNumbers, sources.defaultCountry);
      inbound = {
        ...inbound,
        details: inboundSummaryOf(shown, range, timeZone, true, options.retainedSince).details,
      };
    }
  }
  return { sends: done, summary: summary.result(), inbound, unread };
}
