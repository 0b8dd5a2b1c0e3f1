import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type AppManifest,
  appManifest,
  createSlackDriver,
  type FakeSlack,
  SEEDED,
} from '../../workspace/index.js';
import { clientFor, fakeSlack } from './helpers.js';

const SIGNING_SECRET = 'test-signing-secret';
const { users, channels } = SEEDED;

interface Delivery {
  headers: IncomingMessage['headers'];
  body: { event_id: string; event: Record<string, unknown> };
}

const servers: Array<{ close(): void }> = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});

/** A bot that records every delivery and answers app_mention events with the next of `statuses` (then 200). */
async function recordingBot(statuses: number[] = []) {
  const seen: Delivery[] = [];
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => {
      raw += chunk;
    });
    req.on('end', () => {
      const body = JSON.parse(raw) as Delivery['body'];
      seen.push({ headers: req.headers, body });
      res.writeHead((body.event.type === 'app_mention' ? statuses.shift() : undefined) ?? 200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return { seen, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/slack/events` };
}

async function setup(statuses: number[] = [], manifest?: AppManifest) {
  const fake = await fakeSlack();
  const bot = await recordingBot(statuses);
  const driver = createSlackDriver({
    botUrl: bot.url,
    signingSecret: SIGNING_SECRET,
    fake,
    eventRetryDelaysMs: [0, 0, 0],
    ...(manifest ? { manifest } : {}),
  });
  return { fake, bot, driver };
}

describe('mentions of the app in the workspace', () => {
  it('deliver app_mention as Slack shapes it (the app subscribes to it), and not the message itself (it subscribes to no message event)', async () => {
    const { driver, bot } = await setup();
    const parent = await driver.userMessage({
      userId: users.alice,
      channelId: channels.smsOps,
      text: 'hello',
    });
    const { mention, message } = await driver.userMessage({
      userId: users.alice,
      channelId: channels.smsOps,
      text: '<@U0SMSBOT> answer this',
      threadTs: parent.message.ts,
    });
    expect(mention?.status).toBe(200);
    expect(await mention?.retries).toEqual([]);
    const delivered = bot.seen.find((d) => d.body.event.type === 'app_mention')!;
    expect(delivered.body.event).toEqual({
      type: 'app_mention',
      user: users.alice,
      text: '<@U0SMSBOT> answer this',
      ts: message.ts,
      thread_ts: parent.message.ts,
      team: 'T0LOCAL',
      channel: channels.smsOps,
      event_ts: message.ts,
    });
    expect(delivered.body.event_id).toBe(mention?.eventId);
    expect(parent.mention).toBeUndefined();
    expect(bot.seen.filter((d) => d.body.event.type === 'message')).toEqual([]);
  });

  it('are delivered again, up to three times, while the app does not ack: same event_id, X-Slack-Retry-Num', async () => {
    const { driver, bot } = await setup([500, 503]);
    const { mention } = await driver.userMessage({
      userId: users.alice,
      channelId: channels.smsOps,
      text: '<@U0SMSBOT> again',
    });
    expect(mention?.status).toBe(500);
    const retries = await mention!.retries;
    expect(retries.map((r) => r.status)).toEqual([503, 200]);
    const deliveries = bot.seen.filter((d) => d.body.event.type === 'app_mention');
    expect(deliveries.map((d) => d.body.event_id)).toEqual([
      mention!.eventId,
      mention!.eventId,
      mention!.eventId,
    ]);
    expect(deliveries.map((d) => d.headers['x-slack-retry-num'])).toEqual([undefined, '1', '2']);
    expect(deliveries[1]!.headers['x-slack-retry-reason']).toBe('http_error');
    // Each delivery is signed anew, later than the one before.
    const stamps = deliveries.map((d) => Number(d.headers['x-slack-request-timestamp']));
    expect(stamps[1]).toBeGreaterThan(stamps[0]!);
    expect(stamps[2]).toBeGreaterThan(stamps[1]!);
  });
});

describe('custom steps (function_executed) and functions.complete*', () => {
  async function started(fake: FakeSlack, driver: ReturnType<typeof createSlackDriver>) {
    const run = await driver.functionExecuted({
      callbackId: 'send_sms',
      inputs: { recipients: '0532 123 45 67', message: 'Hi' },
      startedBy: users.alice,
    });
    return { run, client: clientFor(fake, { retryConfig: { retries: 0 } }) };
  }

  it('fires function_executed as Slack does: the step as manifest.yml declares it, inputs, ids and a token of its own', async () => {
    const { fake, driver, bot } = await setup();
    const { run } = await started(fake, driver);
    const event = bot.seen[0]!.body.event as Record<string, unknown> & { function: Record<string, unknown> };
    expect(event).toMatchObject({
      type: 'function_executed',
      inputs: {
        recipients: '0532 123 45 67',
        message: 'Hi',
        // Slack fills the interactivity input with the person who started the workflow.
        interactivity: {
          interactor: { id: users.alice, secret: expect.stringMatching(/^\w{20,}$/) },
          interactivity_pointer: expect.any(String),
        },
      },
      function_execution_id: run.execution.id,
      workflow_execution_id: run.execution.workflowExecutionId,
      bot_access_token: run.execution.token,
    });
    expect(event.function).toMatchObject({ callback_id: 'send_sms', title: 'Send an SMS', type: 'app' });
    expect(event.function.input_parameters).toContainEqual(
      expect.objectContaining({
        name: 'interactivity',
        type: 'slack#/types/interactivity',
        is_required: false,
      }),
    );
    await expect(driver.functionExecuted({ callbackId: 'nope', inputs: {} })).rejects.toThrow(
      /no function nope/,
    );
    await expect(
      driver.functionExecuted({ callbackId: 'send_sms', inputs: { message: 'x' } }),
    ).rejects.toThrow(/required inputs missing: recipients$/);
  });

  it('leaves the interactivity input out when nobody started the workflow, and lets nobody type it', async () => {
    const { driver, bot } = await setup();
    await driver.functionExecuted({ callbackId: 'send_sms', inputs: { recipients: '1', message: 'Hi' } });
    expect(bot.seen[0]!.body.event.inputs).toEqual({ recipients: '1', message: 'Hi' });
    await expect(
      driver.functionExecuted({
        callbackId: 'send_sms',
        inputs: { recipients: '1', message: 'Hi', interactivity: { interactor: { id: users.admin } } },
      }),
    ).rejects.toThrow(/interactivity is a slack#\/types\/interactivity input: Slack fills it/);
  });

  it('runs no step of an app that does not subscribe to function_executed', async () => {
    const manifest = appManifest();
    const unsubscribed = {
      ...manifest,
      botEvents: manifest.botEvents.filter((e) => e !== 'function_executed'),
    };
    const { driver, bot } = await setup([], unsubscribed);
    await expect(
      driver.functionExecuted({ callbackId: 'get_sms_balance', inputs: {}, startedBy: users.alice }),
    ).rejects.toThrow(/does not subscribe to function_executed/);
    expect(bot.seen).toEqual([]);
  });

  it('completes a run once; refuses unknown and finished runs and outputs that break the declared schema', async () => {
    const { fake, driver } = await setup();
    const { run, client } = await started(fake, driver);
    const id = run.execution.id;
    await expect(
      client.functions.completeSuccess({ function_execution_id: 'Fx0NOPE', outputs: {} }),
    ).rejects.toMatchObject({ data: { error: 'function_execution_not_found' } });
    await expect(
      client.functions.completeSuccess({ function_execution_id: id, outputs: { message_id: 42 } }),
    ).rejects.toMatchObject({ data: { error: 'parameter_validation_failed' } });
    const withToken = clientFor(fake);
    await withToken.functions.completeSuccess({
      token: run.execution.token,
      function_execution_id: id,
      outputs: { message_id: '100042', recipients: 1 },
    });
    expect(await run.ended()).toMatchObject({
      state: 'completed',
      outputs: { message_id: '100042', recipients: 1 },
    });
    await expect(
      client.functions.completeError({ function_execution_id: id, error: 'late' }),
    ).rejects.toMatchObject({
      data: { error: 'execution_not_in_running_state' },
    });
    // The run's token lasts as long as the run.
    await expect(
      withToken.chat.postMessage({ token: run.execution.token, channel: channels.smsOps, text: 'after' }),
    ).rejects.toMatchObject({ data: { error: 'token_expired' } });
    await expect(
      withToken.chat.postMessage({ token: 'xwfp-unknown', channel: channels.smsOps, text: 'x' }),
    ).rejects.toMatchObject({ data: { error: 'invalid_auth' } });
  });

  it('ends a run in error with the text a workflow author reads', async () => {
    const { fake, driver } = await setup();
    const { run, client } = await started(fake, driver);
    await client.functions.completeError({
      function_execution_id: run.execution.id,
      error: 'Turn it on first.',
    });
    expect(await run.ended()).toMatchObject({ state: 'failed', error: 'Turn it on first.' });
  });
});
