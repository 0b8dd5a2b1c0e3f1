import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBot } from '../support/bot.js';
import { channels, type Harness, SIGNING_SECRET, startHarness, users } from '../support/slack-harness.js';
import { evaluate, familyOf, interpolate, metricNamesIn, type Scrape } from './promql.js';
import { familiesOf, parseExposition, type Sample, sampleSum } from './scrape.js';

let h: Harness;
let metricsUrl: string;

async function scrape(): Promise<{ text: string; samples: Sample[] }> {
  const response = await fetch(metricsUrl);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  const text = await response.text();
  return { text, samples: parseExposition(text) };
}

beforeAll(async () => {
  h = await startHarness({ env: { METRICS_PORT: '9464' } });
  metricsUrl = h.bot.metrics!.url;
});
afterAll(() => h?.close());

describe('GET /metrics with METRICS_PORT set', () => {
  // Before the relay's loop is started and stopped below: a stopped relay posts nothing more.
  it('shows the inbound lag while an SMS waits to be posted, and 0 once it is', async () => {
    await h.store.subscriptions.add(channels.smsOps, { kind: 'inbound' }, users.admin);
    await h.control.inbound({ MSISDN: '905551234000', Text: 'Anyone there?' });
    h.fake.injectFault({ method: 'chat.postMessage', status: 500 });
    const failed = await h.bot.relay.pollOnce();
    expect(failed.pending).toBe(1);
    const waiting = sampleSum((await scrape()).samples, 'smsops_inbound_lag_seconds');
    expect(waiting).toBeGreaterThan(0);
    const posted = await h.bot.relay.pollOnce();
    expect(posted.posted).toBe(1);
    expect(sampleSum((await scrape()).samples, 'smsops_inbound_lag_seconds')).toBe(0);
  });

  it('moves the counters of a send and an inbound SMS, and reads the store and the relay at scrape', async () => {
    const before = (await scrape()).samples;
    expect(sampleSum(before, 'smsops_outbox_rows', { state: 'submitted' })).toBe(0);

    // A send through the compose modal, as a user does it: 2 recipients, 2 segments each.
    const view = await h.openCompose('send');
    const text = `Your order is ready. ${'x'.repeat(150)}`;
    const submitted = await h.submitCompose(view, {
      recipients: '0532 123 45 67\n0533 765 43 21',
      text,
    });
    expect(submitted.outcome.kind).toBe('updated');
    await h.fake.state.waitForMessage((m) => m.channel === channels.smsOps && /SMS batch \d+:/.test(m.text));

    // An inbound SMS, relayed by the relay's own loop; Slack answers its first post with a 429.
    await h.store.subscriptions.add(channels.smsOps, { kind: 'inbound' }, users.admin);
    await h.control.inbound({ MSISDN: '905559876543', Text: 'Is my order ready?' });
    h.fake.injectFault({ method: 'chat.postMessage', status: 429, retryAfter: 1 });
    h.bot.relay.start();
    await h.fake.state.waitForMessage((m) => JSON.stringify(m.blocks ?? []).includes('Is my order ready?'));
    await h.bot.relay.stop();

    // A gateway failure met and retried by a read.
    await h.control.fault({ operation: 'GetBalance', kind: 'http500', times: 1 });
    await h.bot.gateway.getBalance();

    const after = (await scrape()).samples;
    const moved = (name: string, labels: Record<string, string> = {}) =>
      sampleSum(after, name, labels) - sampleSum(before, name, labels);
    expect(moved('smsops_sends_total', { outcome: 'submitted' })).toBe(1);
    expect(moved('smsops_sms_recipients_total')).toBe(2);
    expect(moved('smsops_sms_segments_total')).toBe(4);
    expect(
      moved('smsops_gateway_request_duration_seconds_count', { operation: 'Submit', outcome: 'ok' }),
    ).toBe(1);
    expect(
      moved('smsops_gateway_request_duration_seconds_count', { operation: 'Receive', outcome: 'ok' }),
    ).toBeGreaterThanOrEqual(1);
    expect(moved('smsops_gateway_errors_total', { operation: 'GetBalance', kind: 'http_status' })).toBe(1);
    expect(moved('smsops_inbound_posted_total')).toBe(1);
    expect(sampleSum(after, 'smsops_inbound_lag_seconds')).toBe(0);
    expect(sampleSum(after, 'smsops_inbound_last_poll_timestamp_seconds')).toBeGreaterThan(0);
    expect(
      moved('smsops_job_runs_total', { job_name: 'inbound_relay_poll', outcome: 'ok' }),
    ).toBeGreaterThanOrEqual(1);
    // Every client the bot has is counted: the listeners' (views.open), the app's (the card) and the relay's.
    expect(moved('smsops_slack_api_calls_total', { method: 'views.open' })).toBeGreaterThanOrEqual(1);
    expect(moved('smsops_slack_api_calls_total', { method: 'chat.postMessage' })).toBeGreaterThanOrEqual(3);
    expect(moved('smsops_slack_api_rate_limited_total', { method: 'chat.postMessage' })).toBe(1);
    // The figures read from the store at scrape.
    expect(sampleSum(after, 'smsops_outbox_rows', { state: 'submitted' })).toBe(1);
    expect(sampleSum(after, 'smsops_open_batches')).toBe(1);
    // prom-client's process metrics.
    expect(sampleSum(after, 'process_resident_memory_bytes')).toBeGreaterThan(0);
  });

  it('shows no secret, phone number, user or channel', async () => {
    const { text, samples } = await scrape();
    for (const secret of [h.fake.botToken, SIGNING_SECRET, 'demo']) expect(text).not.toContain(secret);
    expect(text).not.toMatch(/5321234567|5337654321|5559876543|5551234000/);
    for (const id of [...Object.values(users), ...Object.values(channels)]) expect(text).not.toContain(id);
    // Label values are words from closed sets, never free text.
    const values = new Set(samples.flatMap((s) => Object.values(s.labels)));
    for (const value of values) expect(value).toMatch(/^[A-Za-z0-9_.+-]*$/);
  });

  it('is served on its own listener only: not beside /slack/events, and nothing else on the metrics port', async () => {
    expect(h.bot.metrics!.port).not.toBe(h.bot.http.port);
    expect((await fetch(`${h.bot.http.url}/metrics`)).status).toBe(404);
    const metricsOrigin = new URL(metricsUrl).origin;
    expect((await fetch(`${metricsOrigin}/slack/events`, { method: 'POST', body: '{}' })).status).toBe(404);
    expect((await fetch(`${metricsOrigin}/healthz`)).status).toBe(404);
    expect((await fetch(metricsUrl, { method: 'POST' })).status).toBe(405);
  });
});

describe('the Grafana dashboard in docs/', () => {
  const dashboard = JSON.parse(
    readFileSync(join(import.meta.dirname, '../../docs/grafana/smsops-dashboard.json'), 'utf8'),
  ) as {
    panels: Array<{ title: string; type: string; targets?: Array<{ expr: string }> }>;
    templating: { list: Array<{ name: string; type: string; query?: unknown; definition?: string }> };
  };
  const exprs = dashboard.panels.flatMap((p) =>
    (p.targets ?? []).map((t) => ({ panel: p.title, expr: t.expr })),
  );
  const variableQueries = dashboard.templating.list
    .filter((v) => v.type === 'query')
    .map((v) => /label_values\((\w+),/.exec(v.definition ?? '')?.[1]);

  it('asks only for metrics the bot really serves, and shows every smsops metric it serves', async () => {
    const { text } = await scrape();
    const families = new Set(familiesOf(text).keys());
    expect(exprs.length).toBeGreaterThan(10);
    const unknown = exprs.flatMap(({ panel, expr }) =>
      metricNamesIn(expr)
        .filter((name) => familyOf(name, families) === undefined)
        .map((name) => `${panel}: ${name}`),
    );
    expect(unknown).toEqual([]);
    for (const name of variableQueries) expect(name && familyOf(name, families)).toBe(name);
    const shown = new Set(exprs.flatMap(({ expr }) => metricNamesIn(expr).map((n) => familyOf(n, families))));
    expect([...families].filter((f) => f.startsWith('smsops_') && !shown.has(f))).toEqual([]);
    // The data source is a variable: the dashboard imports into any Grafana with a Prometheus.
    expect(JSON.stringify(dashboard)).not.toMatch(/"uid":\s*"(?!\$\{datasource\})[^"]*"\s*\}/);
  });

  it('evaluates every panel over two real scrapes (the renderer in test/metrics draws them the same way)', async () => {
    const history: Scrape[] = [];
    for (const t of [0, 1]) {
      history.push({
        t,
        samples: (await scrape()).samples.map((s) => ({ ...s, labels: { ...s.labels, instance: 'bot' } })),
      });
    }
    for (const { expr } of exprs) {
      expect(() =>
        evaluate(interpolate(expr, { rateInterval: '1m', instance: '.*' }), history, 1),
      ).not.toThrow();
    }
  });
});

describe('without METRICS_PORT', () => {
  it('serves no metrics anywhere', async () => {
    const { bot, close } = await startTestBot({});
    try {
      expect(bot.metrics).toBeUndefined();
      expect((await fetch(`${bot.http.url}/metrics`)).status).toBe(404);
    } finally {
      await close();
    }
  });
});
