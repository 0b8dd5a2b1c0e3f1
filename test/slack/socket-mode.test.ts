import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { helpText } from '../../src/slack/ui/help.js';
import {
  eventEnvelope,
  functionExecutedEvent,
  slashCommandPayload,
} from '../../workspace/driver/payloads.js';
import {
  ACK_DEADLINE_MS,
  appManifest,
  type EphemeralMessage,
  type FakeSlack,
  SEEDED,
  startFakeSlack,
} from '../../workspace/index.js';
import { startTestBot, type TestBot } from '../support/bot.js';
import { ephemeralText } from '../support/slack-harness.js';
import {
  type Ack,
  bounded,
  type SocketModeConnection,
  type SocketModeServer,
  slashCommandEnvelope,
  startSocketModeServer,
} from '../support/socket-mode-server.js';

const { users, channels } = SEEDED;
const APP_TOKEN = 'xapp-1-test';

let fake: FakeSlack;
let sockets: SocketModeServer;
let testBot: TestBot | undefined;

beforeAll(async () => {
  fake = await startFakeSlack();
  // One Web API base for the bot, as in production: apps.connections.open is answered here, the rest is
  // passed on to the fake Slack.
  sockets = await startSocketModeServer({ appToken: APP_TOKEN, upstreamApiUrl: fake.apiUrl });
  testBot = await bounded(
    startTestBot({
      SLACK_BOT_TOKEN: fake.botToken,
      SLACK_APP_TOKEN: APP_TOKEN,
      SLACK_API_URL: sockets.apiUrl,
      ADMIN_USER_IDS: users.admin,
    }),
    5_000,
    'Socket Mode start',
  );
});

afterAll(async () => {
  await testBot?.close().catch(() => undefined);
  await sockets?.close();
  await fake?.close();
});

/** Runs `/sms <text>` the way Slack does in Socket Mode: an envelope on the socket, answered by an ack. */
async function sms(text: string, userId: string = users.admin, channelId: string = channels.smsOps) {
  const user = fake.state.directory.user(userId)!;
  const channel = fake.state.directory.channel(channelId)!;
  const responseUrl = fake.issueResponseUrl({ channelId, userId });
  const payload = slashCommandPayload({
    identity: fake.identity,
    user,
    channel,
    command: '/sms',
    text,
    responseUrl,
    triggerId: fake.issueTriggerId(userId),
  });
  const after = fake.state.journal.seq;
  const envelope = slashCommandEnvelope(payload);
  const ack: Ack = await sockets.send(envelope, { timeoutMs: ACK_DEADLINE_MS });
  return { envelope, ack, responseUrl, after };
}

async function ephemeralAfter(after: number, userId: string, match: RegExp): Promise<EphemeralMessage> {
  const { message } = await fake.state.waitFor(
    'ephemeral',
    (e) => e.action !== 'deleted' && e.message.recipient === userId && match.test(ephemeralText(e.message)),
    { after, timeoutMs: 5_000 },
  );
  return message;
}

/** What was POSTed to one response_url: a refused answer (bad Block Kit, used twice) would show here. */
function responsePosts(responseUrl: string) {
  return fake.state.journal
    .values('response')
    .filter((p) => responseUrl.endsWith(`/${p.responseUrlId}`))
    .map((p) => ({ status: p.status, error: p.error }));
}

describe('Socket Mode, end to end on loopback', () => {
  let connection: SocketModeConnection;

  it('opens one connection with the app token, and init verified the bot token against the fake Slack', async () => {
    connection = await sockets.waitForConnection(1_000);
    expect(sockets.opens).toBe(1);
    expect(sockets.connections).toHaveLength(1);
    const authTest = await fake.waitForCall('auth.test', undefined, { timeoutMs: 1_000 });
    expect(authTest.status).toBe(200);
    expect(authTest.result.ok).toBe(true);
  });

  it('acks /sms help within 3 s and shows the help as an ephemeral to the caller', async () => {
    const { envelope, ack, responseUrl, after } = await sms('help');
    expect(ack.envelope_id).toBe(envelope.envelope_id);
    expect(ack.elapsedMs).toBeLessThan(ACK_DEADLINE_MS);
    // An empty ack: the answer goes through response_url, not the ack's payload.
    expect(ack.payload ?? {}).toEqual({});

    const message = await ephemeralAfter(after, users.admin, /smsops: \/sms subcommands/);
    expect(message.text).toBe(helpText());
    expect(message.channel).toBe(channels.smsOps);
    expect(responsePosts(responseUrl)).toEqual([{ status: 200, error: undefined }]);
  });

  it('answers /sms balance for the admin with the balance', async () => {
    const { envelope, ack, responseUrl, after } = await sms('balance', users.admin);
    expect(ack.envelope_id).toBe(envelope.envelope_id);
    expect(ack.elapsedMs).toBeLessThan(ACK_DEADLINE_MS);

    const message = await ephemeralAfter(after, users.admin, /Usable credit/);
    // The simulator starts every run with 1,250.00 of credit and no limit.
    expect(message.text).toContain('Usable credit 1.250,00 ₺ (main 1.250,00 ₺ + limit 0,00 ₺)');
    expect(ephemeralText(message)).toContain('Simulated gateway');
    expect(responsePosts(responseUrl)).toEqual([{ status: 200, error: undefined }]);
  });

  it('both commands travelled on the one socket, each answered by exactly one ack', () => {
    const acks = connection.received as Array<{ envelope_id?: string }>;
    expect(acks).toHaveLength(2);
    expect(new Set(acks.map((a) => a.envelope_id)).size).toBe(2);
  });

  it('runs a Workflow Builder step delivered on the socket and completes it with the run’s own token', async () => {
    await testBot!.bot.store.appSettings.set('workflows', 'on', users.admin);
    const execution = fake.state.functions.start(appManifest().functions.get('get_sms_balance')!, {});
    const event = functionExecutedEvent(fake.identity, execution, fake.state.clock());
    const ack = await sockets.send(
      {
        envelope_id: 'env-function-1',
        type: 'events_api',
        payload: eventEnvelope(fake.identity, event, 'Ev0FUNCTION1', Math.floor(fake.state.clock() / 1000)),
        accepts_response_payload: false,
      },
      { timeoutMs: ACK_DEADLINE_MS },
    );
    expect(ack.elapsedMs).toBeLessThan(ACK_DEADLINE_MS);
    const ended = await fake.state.waitFor(
      'function',
      (e) => e.execution.id === execution.id && e.action !== 'started',
    );
    expect(ended.execution).toMatchObject({
      state: 'completed',
      outputs: { usable: 1250, main: 1250, limit: 0 },
    });
    const call = fake.state.calls('functions.completeSuccess').at(-1)!;
    expect(call).toMatchObject({ auth: 'workflow', status: 200 });
  });

  it('stop() closes the socket with a normal close handshake and does not reconnect', async () => {
    await testBot?.bot.slack.stop();
    const closed = await bounded(connection.closed, 3_000, 'socket closed after stop()');
    expect(closed).toEqual({ initiator: 'client', code: 1000, reason: '' });
    expect(sockets.opens).toBe(1);
    expect(sockets.connections.filter((c) => c !== connection)).toEqual([]);
  });
});
