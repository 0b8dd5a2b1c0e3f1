import type { AddressInfo } from 'node:net';
import { App, LogLevel } from '@slack/bolt';
import { afterEach, describe, expect, it } from 'vitest';
import { ackTimer } from '../../bench/ack-timer.js';
import {
  createSlackDriver,
  type FakeSlack,
  SEEDED,
  type SlackDriver,
  type View,
} from '../../workspace/index.js';
import { fakeSlack } from './helpers.js';

const SIGNING_SECRET = 'test-signing-secret';
const { users, channels } = SEEDED;

const sendForm: View = {
  type: 'modal',
  callback_id: 'send_sms',
  title: { type: 'plain_text', text: 'Send SMS' },
  submit: { type: 'plain_text', text: 'Send' },
  blocks: [
    {
      type: 'input',
      block_id: 'to',
      label: { type: 'plain_text', text: 'To' },
      element: { type: 'plain_text_input', action_id: 'number' },
    },
    {
      type: 'input',
      block_id: 'route',
      label: { type: 'plain_text', text: 'Route' },
      element: {
        type: 'static_select',
        action_id: 'pick',
        options: [
          { text: { type: 'plain_text', text: 'Primary' }, value: 'primary' },
          { text: { type: 'plain_text', text: 'Backup' }, value: 'backup' },
        ],
      },
    },
  ],
};

const step = (title: string, callbackId: string, extra: Partial<View> = {}): View =>
  ({
    type: 'modal',
    callback_id: callbackId,
    title: { type: 'plain_text', text: title },
    submit: { type: 'plain_text', text: 'Next' },
    blocks: [
      { type: 'section', block_id: 'intro', text: { type: 'mrkdwn', text: title } },
      {
        type: 'actions',
        block_id: 'tools',
        elements: [{ type: 'button', action_id: 'more', text: { type: 'plain_text', text: 'More' } }],
      },
    ],
    ...extra,
  }) as View;

/** A stand-in for the real bot: just enough listeners to exercise each kind of request Slack sends. */
function tinyBot(fake: FakeSlack) {
  const seen = {
    commands: [] as string[],
    retryNums: [] as (number | undefined)[],
    closed: [] as boolean[],
  };
  const app = new App({
    signingSecret: SIGNING_SECRET,
    token: fake.botToken,
    logLevel: LogLevel.ERROR,
    // Otherwise the constructor fires auth.test unawaited: a test that ends before any request leaves it dangling.
    deferInitialization: true,
    clientOptions: { slackApiUrl: fake.apiUrl, retryConfig: { retries: 0 } },
  });

  app.command('/sms', async ({ command, ack, respond, client }) => {
    seen.commands.push(command.text);
    if (command.text === 'help') {
      await ack({ response_type: 'ephemeral', text: 'Usage: /sms send <number> <text>' });
      return;
    }
    if (command.text === 'plain') {
      await ack('Plain text ack');
      return;
    }
    await ack();
    if (command.text === 'wizard') {
      await client.views.open({
        trigger_id: command.trigger_id,
        view: step('Step 1', 'wizard_1', { notify_on_close: true }),
      });
      return;
    }
    if (command.text === 'form') {
      await client.views.open({
        trigger_id: command.trigger_id,
        view: { ...sendForm, private_metadata: command.channel_id },
      });
      return;
    }
    await respond({
      response_type: 'in_channel',
      text: `Queued: ${command.text}`,
      blocks: [
        { type: 'section', block_id: 'status', text: { type: 'mrkdwn', text: `Queued: ${command.text}` } },
        {
          type: 'actions',
          block_id: 'controls',
          elements: [
            {
              type: 'button',
              action_id: 'cancel_sms',
              text: { type: 'plain_text', text: 'Cancel' },
              value: 'sms-1',
            },
          ],
        },
      ],
    });
  });

  app.action('cancel_sms', async ({ ack, respond, action }) => {
    await ack();
    await respond({ replace_original: true, text: `Cancelled ${(action as { value: string }).value}` });
  });

  app.view('send_sms', async ({ ack, view, client }) => {
    const number = view.state.values.to?.number?.value ?? '';
    if (!number.startsWith('+')) {
      await ack({
        response_action: 'errors',
        errors: { to: 'Use the international format, e.g. +447700900123' },
      });
      return;
    }
    await ack();
    const route = view.state.values.route?.pick?.selected_option?.value;
    await client.chat.postMessage({
      channel: view.private_metadata,
      text: `Sending to ${number} via ${route}`,
    });
  });

  app.action({ action_id: 'more', type: 'block_actions' }, async ({ ack, body, client }) => {
    await ack();
    const view = body.view!;
    await client.views.update({
      view_id: view.id,
      hash: view.hash,
      view: step(`${view.title.text}+`, view.callback_id),
    });
  });

  app.view('wizard_1', async ({ ack }) => {
    await ack({ response_action: 'push', view: step('Step 2', 'wizard_2') });
  });

  app.view('wizard_2', async ({ ack }) => {
    await ack({ response_action: 'clear' });
  });

  app.view({ callback_id: 'wizard_1', type: 'view_closed' }, async ({ ack, body }) => {
    await ack();
    if (body.type === 'view_closed') seen.closed.push(body.is_cleared);
  });

  // Listens, but never hears: the manifest subscribes to no message.* event (see the test below).
  app.message('ping', async ({ say, message }) => {
    await say({ text: 'pong', thread_ts: message.ts });
  });

  app.event('app_home_opened', async ({ event, client, context }) => {
    seen.retryNums.push(context.retryNum);
    await client.views.publish({
      user_id: event.user,
      view: {
        type: 'home',
        blocks: [{ type: 'section', text: { type: 'mrkdwn', text: 'SMS gateway: up' } }],
      },
    });
  });

  return { app, seen };
}

const apps: App[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.stop()));
});

/** The wiring every integration test of the bot repeats: fake first (Bolt calls auth.test at construction). */
async function setup(): Promise<{
  fake: FakeSlack;
  driver: SlackDriver;
  botUrl: string;
  seen: ReturnType<typeof tinyBot>['seen'];
}> {
  const fake = await fakeSlack();
  const { app, seen } = tinyBot(fake);
  await app.init();
  const server = await app.start(0);
  apps.push(app);
  const port = (server.address() as AddressInfo).port;
  const botUrl = `http://127.0.0.1:${port}/slack/events`;
  const driver = createSlackDriver({ botUrl, signingSecret: SIGNING_SECRET, fake });
  return { fake, driver, botUrl, seen };
}

describe('signed requests from the driver to a real Bolt app', () => {
  it('delivers a slash command; the bot answers through response_url and the message lands in the channel', async () => {
    const { fake, driver } = await setup();
    const result = await driver.slashCommand({
      command: '/sms',
      text: 'send +447700900123 hello',
      userId: users.alice,
      channelId: channels.smsOps,
    });
    expect(result.status).toBe(200);
    expect(result.body).toBe('');
    expect(result.payload).toMatchObject({ user_name: 'alice', channel_name: 'sms-ops', team_id: 'T0LOCAL' });
    const message = await fake.waitForMessage((m) => m.text === 'Queued: send +447700900123 hello');
    expect(message.channel).toBe(channels.smsOps);
    const post = await fake.state.waitFor('response', (r) => r.status === 200);
    expect(post.body).toMatchObject({ response_type: 'in_channel' });
  });

  it('sends through the transport it is given: a bench times acks in a process of its own (bench/ack-timer.ts)', async () => {
    const { fake, botUrl } = await setup();
    const timer = ackTimer();
    try {
      const sent: string[] = [];
      const timed = createSlackDriver({
        botUrl,
        signingSecret: SIGNING_SECRET,
        fake,
        transport: (request) => {
          sent.push(request.url);
          return timer.transport(request);
        },
      });
      const command = { command: '/sms', text: 'help', userId: users.bob, channelId: channels.general };
      const help = await timed.slashCommand(command);
      // Signed and acked as from this process: the ack's JSON is shown, the time is the other process's.
      expect(help.status).toBe(200);
      expect(help.body).toEqual({ response_type: 'ephemeral', text: 'Usage: /sms send <number> <text>' });
      expect(help.headers['content-type']).toContain('application/json');
      expect(help.elapsedMs).toBeGreaterThan(0);
      expect(sent).toEqual([botUrl]);
      expect(fake.state.messages.ephemerals({ recipient: users.bob }).map((m) => m.text)).toEqual([
        'Usage: /sms send <number> <text>',
      ]);
      // A request Slack would sign wrongly is refused there as here.
      const forged = await timed.slashCommand({ ...command, signing: 'bad-signature' });
      expect(forged.status).toBe(401);
    } finally {
      await timer.close();
    }
  });

  it('takes the answer and its time from the transport: a JSON ack shown, over 3 s counted late as Slack would', async () => {
    const fake = await fakeSlack();
    const answers = [
      {
        status: 200,
        text: '{"text":"Bakiye: 120"}',
        headers: { 'content-type': 'application/json' },
        elapsedMs: 12,
      },
      {
        status: 200,
        text: '{"text":"Geç"}',
        headers: { 'content-type': 'application/json' },
        elapsedMs: 3001,
      },
    ];
    const driver = createSlackDriver({
      botUrl: 'http://127.0.0.1:9/slack/events',
      signingSecret: SIGNING_SECRET,
      fake,
      transport: async () => answers.shift()!,
    });
    const command = { command: '/sms', text: 'balance', userId: users.bob, channelId: channels.general };
    const onTime = await driver.slashCommand(command);
    expect(onTime).toMatchObject({ status: 200, body: { text: 'Bakiye: 120' }, elapsedMs: 12, late: false });
    const late = await driver.slashCommand(command);
    expect(late).toMatchObject({ elapsedMs: 3001, late: true });
    // Slack drops an ack that came after its deadline: only the first is shown.
    expect(fake.state.messages.ephemerals({ recipient: users.bob }).map((m) => m.text)).toEqual([
      'Bakiye: 120',
    ]);
  });

  it('turns an ack body into what Slack shows: JSON and plain text both become ephemerals', async () => {
    const { fake, driver } = await setup();
    const json = await driver.slashCommand({
      command: '/sms',
      text: 'help',
      userId: users.bob,
      channelId: channels.general,
    });
    expect(json.body).toEqual({ response_type: 'ephemeral', text: 'Usage: /sms send <number> <text>' });
    expect(json.ackMessage?.status).toBe(200);
    const plain = await driver.slashCommand({
      command: '/sms',
      text: 'plain',
      userId: users.bob,
      channelId: channels.general,
    });
    expect(plain.body).toBe('Plain text ack');
    expect(fake.state.messages.ephemerals({ recipient: users.bob }).map((m) => m.text)).toEqual([
      'Usage: /sms send <number> <text>',
      'Plain text ack',
    ]);
    expect(fake.state.messages.history(channels.general)).toEqual([]);
  });

  it('clicks a button on a message; the bot replaces the original through response_url', async () => {
    const { fake, driver } = await setup();
    await driver.slashCommand({
      command: '/sms',
      text: 'send +1 hi',
      userId: users.alice,
      channelId: channels.smsOps,
    });
    const queued = await fake.waitForMessage((m) => m.text === 'Queued: send +1 hi');
    const click = await driver.blockAction({ userId: users.alice, message: queued, actionId: 'cancel_sms' });
    expect(click.status).toBe(200);
    expect(click.payload).toMatchObject({
      type: 'block_actions',
      container: { type: 'message', message_ts: queued.ts, channel_id: channels.smsOps },
      actions: [{ action_id: 'cancel_sms', block_id: 'controls', value: 'sms-1', type: 'button' }],
    });
    const replaced = await fake.waitForMessage((m) => m.ts === queued.ts && m.text === 'Cancelled sms-1');
    expect(replaced.blocks).toBeUndefined();
  });

  it('refuses to click a button that is not on the message', async () => {
    const { fake, driver } = await setup();
    const plain = fake.state.messages.post({
      channel: channels.general,
      team: 'T0LOCAL',
      text: 'no buttons',
    });
    await expect(
      driver.blockAction({ userId: users.bob, message: plain, actionId: 'cancel_sms' }),
    ).rejects.toThrow(/no element with action_id 'cancel_sms'/);
  });

  it('opens a modal from a command, shows field errors, then closes it on a valid submission', async () => {
    const { fake, driver } = await setup();
    await driver.slashCommand({
      command: '/sms',
      text: 'form',
      userId: users.admin,
      channelId: channels.smsOps,
    });
    await fake.waitForCall('views.open', (c) => c.status === 200 && c.result.ok === true);
    const rejected = await driver.viewSubmission({
      userId: users.admin,
      values: { to: { number: '07700900123' }, route: { pick: 'primary' } },
    });
    expect(rejected.outcome).toEqual({
      kind: 'errors',
      errors: { to: 'Use the international format, e.g. +447700900123' },
    });
    expect(fake.state.views.stack(users.admin)).toHaveLength(1);
    const accepted = await driver.viewSubmission({
      userId: users.admin,
      values: { to: { number: '+447700900123' }, route: { pick: 'backup' } },
    });
    expect(accepted.outcome).toEqual({ kind: 'closed' });
    expect(accepted.payload.view.state.values.route?.pick?.selected_option?.value).toBe('backup');
    expect(fake.state.views.stack(users.admin)).toEqual([]);
    await fake.waitForMessage(
      (m) => m.channel === channels.smsOps && m.text === 'Sending to +447700900123 via backup',
    );
  });

  it('answers a bad signature or a stale timestamp with 401 and runs nothing', async () => {
    const { fake, driver, seen } = await setup();
    const forged = await driver.slashCommand({
      command: '/sms',
      text: 'forged',
      userId: users.bob,
      channelId: channels.smsOps,
      signing: 'bad-signature',
    });
    const stale = await driver.slashCommand({
      command: '/sms',
      text: 'replayed',
      userId: users.bob,
      channelId: channels.smsOps,
      signing: 'stale-timestamp',
    });
    expect([forged.status, stale.status]).toEqual([401, 401]);
    // A valid request after the bad ones: once its effect shows, the bad ones would have shown too.
    await driver.slashCommand({
      command: '/sms',
      text: 'send real',
      userId: users.bob,
      channelId: channels.smsOps,
    });
    await fake.waitForMessage((m) => m.text === 'Queued: send real');
    expect(seen.commands).toEqual(['send real']);
    expect(fake.state.calls().map((c) => c.method)).toEqual(['auth.test']);
  });

  it('delivers app_home_opened with retry headers; the bot publishes the Home tab', async () => {
    const { fake, driver, seen } = await setup();
    const response = await driver.appHomeOpened(users.alice, { retryNum: 1, retryReason: 'http_timeout' });
    expect(response.status).toBe(200);
    await fake.waitForCall('views.publish');
    expect(fake.state.views.home(users.alice)?.blocks).toHaveLength(1);
    expect(seen.retryNums).toEqual([1]);
  });

  it('walks a modal stack: an action updates the view, submissions push then clear', async () => {
    const { fake, driver } = await setup();
    await driver.slashCommand({
      command: '/sms',
      text: 'wizard',
      userId: users.bob,
      channelId: channels.smsOps,
    });
    await fake.waitForCall('views.open');
    const first = fake.state.views.top(users.bob)!;
    const click = await driver.blockAction({ userId: users.bob, view: first, actionId: 'more' });
    expect(click.payload).toMatchObject({
      container: { type: 'view', view_id: first.id },
      view: { id: first.id },
    });
    expect(click.responseUrl).toBeUndefined();
    await fake.waitForCall('views.update', (c) => c.status === 200);
    expect(fake.state.views.top(users.bob)?.title.text).toBe('Step 1+');

    const pushed = await driver.viewSubmission({ userId: users.bob });
    expect(pushed.outcome).toMatchObject({ kind: 'pushed', view: { callback_id: 'wizard_2' } });
    expect(fake.state.views.stack(users.bob).map((v) => v.callback_id)).toEqual(['wizard_1', 'wizard_2']);

    const back = await driver.viewClosed({ userId: users.bob });
    expect(back.delivered).toBeUndefined();
    expect(fake.state.views.stack(users.bob).map((v) => v.callback_id)).toEqual(['wizard_1']);

    await driver.viewSubmission({ userId: users.bob });
    const cleared = await driver.viewSubmission({ userId: users.bob });
    expect(cleared.outcome).toEqual({ kind: 'cleared' });
    expect(fake.state.views.stack(users.bob)).toEqual([]);
  });

  it('tells the bot a view closed only when it asked (notify_on_close)', async () => {
    const { fake, driver, seen } = await setup();
    await driver.slashCommand({
      command: '/sms',
      text: 'wizard',
      userId: users.alice,
      channelId: channels.smsOps,
    });
    await fake.waitForCall('views.open');
    const closed = await driver.viewClosed({ userId: users.alice });
    expect(closed.delivered?.status).toBe(200);
    expect(closed.delivered?.payload).toMatchObject({ type: 'view_closed', is_cleared: false });
    expect(seen.closed).toEqual([false]);
    expect(fake.state.views.stack(users.alice)).toEqual([]);
  });

  it('does not deliver a user’s message to an app that subscribes to no message event, as Slack does not', async () => {
    const { fake, driver } = await setup();
    const { event, mention, message } = await driver.userMessage({
      userId: users.alice,
      channelId: channels.general,
      text: 'ping',
    });
    // smsops' manifest subscribes to app_mention only: the message is in the channel, and the app never hears of it.
    expect(event).toBeUndefined();
    expect(mention).toBeUndefined();
    expect(fake.state.messages.history(channels.general).map((m) => m.ts)).toContain(message.ts);
    expect(fake.state.messages.thread(channels.general, message.ts).map((m) => m.text)).toEqual(['ping']);
  });
});
