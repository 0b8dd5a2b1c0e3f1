import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBot } from '../support/bot.js';
import { channels, type Harness, SIGNING_SECRET, startHarness, users } from '../support/slack-harness.js';
import { parseExposition, type Sample, sampleSum } from './scrape.js';

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
    expect(text).not.toMatch(/5321234567|5337654321|5559876543/);
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
