import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { GatewayObserver } from '../gateway/index.js';
import type { JobObserver } from '../jobs/loop.js';
import type { SendObserver } from '../sending/send.js';
import type { SlackApiObserver } from '../slack/api-calls.js';
import type { OutboxState, Store } from '../store/index.js';
import { within } from '../within.js';

/** What the gauges read at each scrape; given once the parts that hold them are built. */
export interface MetricsSources {
  now: () => Date;
  store: Pick<Store, 'outbox'>;
  inbound: { readonly oldestUnposted?: Date; readonly lastSuccessfulPoll?: Date };
}

/** Every metric the bot serves, and the observers the composition hands to the parts that feed them. */
export interface BotMetrics {
  readonly registry: Registry;
  readonly gateway: GatewayObserver;
  readonly sends: SendObserver;
  readonly jobs: JobObserver;
  readonly slackApi: SlackApiObserver;
  inboundPosted(deliveries: number): void;
  /** Gives the gauges read at scrape what they read. */
  watch(sources: MetricsSources): void;
}

/** Every outbox state, so each series exists (at 0) before the first send in that state. */
const OUTBOX_STATES: readonly OutboxState[] = ['pending', 'submitted', 'failed', 'unknown', 'cancelled'];

/** Gateway replies take from a few milliseconds to the 15 s timeout. */
const GATEWAY_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15, 30];
const JOB_BUCKETS = [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300];

/** How long one scrape may wait for the store before it answers without the store's figures. */
const STORE_READ_TIMEOUT_MS = 5_000;

/** Label values: low-cardinality words (never numbers, users or channels). */
const label = (value: string) => value.replace(/[^a-zA-Z0-9.]+/g, '_');

/**
 * The registry of one bot (not prom-client's global one: two bots in one process, as in tests, keep their
 * figures apart). Names follow Prometheus conventions: smsops_ prefix, _total for counters, _seconds for
 * durations; process and Node.js metrics are prom-client's defaults under their usual names.
 */
export function createMetrics(): BotMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];

  const sends = new Counter({
    name: 'smsops_sends_total',
    help: 'Sends by outcome: submitted, rejected, not_sent, unknown, duplicate, refused, error',
    labelNames: ['outcome'] as const,
    registers,
  });
  const recipients = new Counter({
    name: 'smsops_sms_recipients_total',
    help: 'Recipients of sends the gateway accepted',
    registers,
  });
  const segments = new Counter({
    name: 'smsops_sms_segments_total',
    help: 'SMS segments of sends the gateway accepted (all recipients)',
    registers,
  });
  const gatewayDuration = new Histogram({
    name: 'smsops_gateway_request_duration_seconds',
    help: 'Gateway HTTP exchanges (each attempt) by operation and outcome: ok, rejected, error',
    labelNames: ['operation', 'outcome'] as const,
    buckets: GATEWAY_BUCKETS,
    registers,
  });
  const gatewayErrors = new Counter({
    name: 'smsops_gateway_errors_total',
    help: 'Failed gateway exchanges by operation and kind (rejected, timeout, refused, http_status, ...)',
    labelNames: ['operation', 'kind'] as const,
    registers,
  });
  const inboundPosted = new Counter({
    name: 'smsops_inbound_posted_total',
    help: 'Inbound SMS posted to Slack (one per message and channel)',
    registers,
  });
  const slackCalls = new Counter({
    name: 'smsops_slack_api_calls_total',
    help: 'Slack Web API HTTP requests (retries included) by method',
    labelNames: ['method'] as const,
    registers,
  });
  const slackRateLimited = new Counter({
    name: 'smsops_slack_api_rate_limited_total',
    help: 'Slack Web API requests answered 429 (rate limited), by method',
    labelNames: ['method'] as const,
    registers,
  });
  const jobRuns = new Counter({
    name: 'smsops_job_runs_total',
    help: 'Passes of the background loops by job and outcome: ok, failed',
    labelNames: ['job_name', 'outcome'] as const,
    registers,
  });
  const jobDuration = new Histogram({
    name: 'smsops_job_duration_seconds',
    help: 'How long one pass of a background loop took, by job',
    labelNames: ['job_name'] as const,
    buckets: JOB_BUCKETS,
    registers,
  });

  let sources: MetricsSources | undefined;
  // The two outbox gauges share one query per scrape (prom-client collects them side by side).
  let counting: { at: number; counts: ReturnType<Store['outbox']['countByState']> } | undefined;
  const outboxCounts = async () => {
    if (!sources) return undefined;
    const at = Date.now();
    if (!counting || at - counting.at > 1_000) {
      const counts = sources.store.outbox.countByState();
      counting = { at, counts };
      counts.catch(() => {
        counting = undefined;
      });
    }
    try {
      return await within(counting.counts, STORE_READ_TIMEOUT_MS, () => undefined);
    } catch {
      return undefined;
    }
  };
  new Gauge({
    name: 'smsops_outbox_rows',
    help: 'Sends in the outbox by state (read from the store at scrape)',
    labelNames: ['state'] as const,
    registers,
    async collect() {
      this.reset();
      const counts = await outboxCounts();
      if (!counts) return;
      for (const state of OUTBOX_STATES) this.set({ state }, 0);
      for (const c of counts) this.inc({ state: label(c.state) }, c.count);
    },
  });
  new Gauge({
    name: 'smsops_open_batches',
    help: 'Submitted batches the delivery tracker still follows (not final; read from the store at scrape)',
    registers,
    async collect() {
      this.reset();
      const counts = await outboxCounts();
      if (!counts) return;
      this.set(counts.filter((c) => c.state === 'submitted' && !c.final).reduce((n, c) => n + c.count, 0));
    },
  });
  new Gauge({
    name: 'smsops_inbound_lag_seconds',
    help: 'Age of the oldest inbound SMS the relay has seen and not yet posted; 0 when none waits',
    registers,
    collect() {
      if (!sources) return;
      const oldest = sources.inbound.oldestUnposted;
      this.set(oldest ? Math.max(0, (sources.now().getTime() - oldest.getTime()) / 1000) : 0);
    },
  });
  new Gauge({
    name: 'smsops_inbound_last_poll_timestamp_seconds',
    help: 'When the gateway last answered an inbound poll (Unix time); absent before the first',
    registers,
    collect() {
      this.reset();
      const last = sources?.inbound.lastSuccessfulPoll;
      if (last) this.set(last.getTime() / 1000);
    },
  });

  return {
    registry,
    gateway: {
      onCall(operation, outcome, seconds, errorKind) {
        gatewayDuration.observe({ operation, outcome }, seconds);
        if (errorKind) gatewayErrors.inc({ operation, kind: label(errorKind) });
      },
    },
    sends: {
      onSend(outcome, sent) {
        sends.inc({ outcome: label(outcome) });
        if (sent.recipients > 0) recipients.inc(sent.recipients);
        if (sent.segments > 0) segments.inc(sent.segments);
      },
    },
    jobs: {
      onRun(job, outcome, seconds) {
        const job_name = label(job);
        jobRuns.inc({ job_name, outcome });
        jobDuration.observe({ job_name }, seconds);
      },
    },
    slackApi: {
      onCall(method, status) {
        slackCalls.inc({ method });
        if (status === 429) slackRateLimited.inc({ method });
      },
    },
    inboundPosted(deliveries) {
      inboundPosted.inc(deliveries);
    },
    watch(given) {
      sources = given;
    },
  };
}
