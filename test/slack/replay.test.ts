import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { slackSignature } from '../../workspace/driver/signing.js';
import { createSlackDriver, type SlackDriver } from '../../workspace/index.js';
import {
  type RecordedRequest,
  type RecordingProxy,
  startRecordingProxy,
} from '../support/recording-proxy.js';
import {
  channels,
  ephemeralText,
  type Harness,
  SIGNING_SECRET,
  startHarness,
  users,
} from '../support/slack-harness.js';

/**
 * A signed request copied off the wire and sent again (same timestamp, same signature) must not run a
 * second time. Slack's own retries are signed anew, so they still reach the app as before.
 */

let h: Harness;
let proxy: RecordingProxy;
/** Slack's side, sending through a proxy that keeps a copy of every request. */
let wire: SlackDriver;

beforeAll(async () => {
  h = await startHarness();
  proxy = await startRecordingProxy(h.botUrl);
  wire = createSlackDriver({ botUrl: proxy.url, signingSecret: SIGNING_SECRET, fake: h.fake });
});
afterAll(async () => {
  await proxy?.close();
  await h?.close();
});

function deliver(copy: RecordedRequest, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(h.botUrl, { method: 'POST', headers: { ...copy.headers, ...headers }, body: copy.body });
}

function helpAnswersSince(seq: number): number {
  return h.fake.state.journal
    .entries('ephemeral')
    .filter(
      (e) =>
        e.seq > seq &&
        e.value.action !== 'deleted' &&
        e.value.message.recipient === users.admin &&
        /\/sms send/.test(ephemeralText(e.value.message)) &&
        !/Unknown subcommand/.test(e.value.message.text ?? ''),
    ).length;
}

describe('replayed requests', () => {
  it('the same signed command delivered again, even twice at once, runs once', async () => {
    const start = h.fake.state.journal.seq;
    await wire.slashCommand({
      command: '/sms',
      text: 'help',
      userId: users.admin,
      channelId: channels.smsOps,
    });
    await h.ephemeral(users.admin, /\/sms send/);
    const copy = proxy.recorded.at(-1)!;

    const replays = await Promise.all([deliver(copy), deliver(copy)]);
    expect(replays.map((r) => r.status)).toEqual([200, 200]);
    expect((await deliver(copy)).status).toBe(200);

    // A later command's answer: once it shows, a replay's answer would have shown too.
    await h.sms('frobnicate');
    await h.ephemeral(users.admin, /Unknown subcommand/);
    expect(helpAnswersSince(start)).toBe(1);
  });

  it("Slack's retry of an event (same body, signed anew, X-Slack-Retry-Num) still reaches the app", async () => {
    const start = h.fake.state.journal.seq;
    await wire.appHomeOpened(users.admin);
    await h.fake.state.waitForCall('views.publish', () => true, { after: start });
    const original = proxy.recorded.at(-1)!;
    const published = h.fake.state.journal.seq;

    const retryAt = Number(original.headers['x-slack-request-timestamp']) + 1;
    const retry = await deliver(original, {
      'x-slack-request-timestamp': String(retryAt),
      'x-slack-signature': slackSignature(SIGNING_SECRET, retryAt, original.body),
      'x-slack-retry-num': '1',
      'x-slack-retry-reason': 'http_timeout',
    });
    expect(retry.status).toBe(200);
    await h.fake.state.waitForCall('views.publish', () => true, { after: published });
  });
});
