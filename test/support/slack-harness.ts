import { expect } from 'vitest';
import type { Bot, BotOverrides } from '../../src/bot.js';
import type { SlackGateLimits } from '../../src/http/slack-gate.js';
import type { DeliveryTracker } from '../../src/jobs/tracker.js';
import type { Logger } from '../../src/log.js';
import type { SlackApp } from '../../src/slack/app.js';
import type { SendingSettings, SlackDeps } from '../../src/slack/deps.js';
import type { OutboxRow, Store } from '../../src/store/index.js';
import {
  checkBlocks,
  createSlackDriver,
  type EphemeralMessage,
  type FakeSlack,
  SEEDED,
  type SlackDriver,
  type SlackMessage,
  startFakeSlack,
  type ViewOutput,
} from '../../workspace/index.js';
import { startTestBot } from './bot.js';
import { sendingEnv } from './settings.js';
import { SimulatorControl } from './simulator.js';

export const SIGNING_SECRET = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';
export const { users, channels } = SEEDED;

export interface HarnessOptions {
  sending?: Partial<SendingSettings>;
  gatewayTimeoutMs?: number;
  /** Point the bot at another gateway (e.g. a closed port) instead of the simulator. */
  gatewayUrl?: string;
  fakeSlack?: Parameters<typeof startFakeSlack>[0];
  /** Shrinks the server's limits on /slack/events (e.g. a short body deadline). */
  slackLimits?: Partial<SlackGateLimits>;
  /** A store of the test's choosing (e.g. PostgreSQL behind a proxy that can be cut); closed with the harness. */
  store?: Store;
  logger?: Logger;
  /** The bot's clock (buildBot's `now`): a test moves it instead of sleeping. */
  now?: () => Date;
  /** More environment variables for the bot (e.g. METRICS_PORT, SCHEDULE_GRACE_MINUTES, SUBMIT_CHUNK_INTERVAL_MS). */
  env?: Record<string, string>;
  /** The file readers' limits (a small heap) and what the test watches of them (a thread started). */
  tableReader?: BotOverrides['tableReader'];
}

/**
 * The whole bot, for real, on loopback: the simulator as the gateway, SQLite in a temp folder,
 * the fake Slack Web API, our Bolt app behind our HTTP server, and Slack's side as signed requests.
 */
export interface Harness {
  /** The bot as buildBot made it; its loops are not started (tests call tick, pollNow, pollOnce). */
  bot: Bot;
  deps: SlackDeps;
  store: Store;
  fake: FakeSlack;
  driver: SlackDriver;
  control: SimulatorControl;
  tracker: DeliveryTracker;
  /** The Bolt app's Web API client, as the bot's own listeners use it. */
  slackClient: SlackApp['app']['client'];
  botUrl: string;
  /** Runs `/sms <text>` as a user in a channel and returns what Slack got back. */
  sms(text: string, userId?: string, channelId?: string): ReturnType<SlackDriver['slashCommand']>;
  /** An ephemeral shown to a user whose text matches, since the last `sms()` or `mark()`. */
  ephemeral(userId: string, match: RegExp): Promise<EphemeralMessage>;
  /** From now on, `ephemeral()` only looks at what comes next. */
  mark(): void;
  /** `/sms <text>` as `user`, then the compose modal once it has replaced the loading view. */
  openCompose(text?: string, user?: string): Promise<ViewOutput>;
  /** Submits the compose modal with these field values (`text` finds the text block, whatever its version). */
  submitCompose(
    view: ViewOutput,
    values: Record<string, string>,
    user?: string,
  ): ReturnType<SlackDriver['viewSubmission']>;
  /** Picks an option of a select or radio field in the composer and returns the view the bot updated it to. */
  chooseInCompose(
    view: ViewOutput,
    field: 'mode' | 'template' | 'list' | 'encoding',
    value: string,
  ): Promise<ViewOutput>;
  close(): Promise<void>;
}

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const fake = await startFakeSlack(options.fakeSlack);
  const { bot, close } = await startTestBot(
    {
      SLACK_BOT_TOKEN: fake.botToken,
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
      SLACK_API_URL: fake.apiUrl,
      ADMIN_USER_IDS: users.admin,
      SMS_GATEWAY_TIMEOUT_MS: String(options.gatewayTimeoutMs ?? 2_000),
      ...(options.gatewayUrl
        ? { SMS_GATEWAY_URL: options.gatewayUrl, SMS_GATEWAY_USERNAME: 'demo', SMS_GATEWAY_PASSWORD: 'demo' }
        : {}),
      ...sendingEnv(options.sending ?? {}),
      ...options.env,
    },
    {
      slackLimits: options.slackLimits,
      ...(options.now ? { now: options.now } : {}),
      ...(options.store ? { store: options.store } : {}),
      ...(options.logger ? { logger: options.logger } : {}),
      ...(options.tableReader ? { tableReader: options.tableReader } : {}),
    },
  );
  const control = new SimulatorControl({ url: bot.simulatorUrl ?? options.gatewayUrl ?? '' });
  const { deps, store, tracker } = bot;
  const botUrl = `${bot.http.url}/slack/events`;
  const driver = createSlackDriver({ botUrl, signingSecret: SIGNING_SECRET, fake });
  let since = 0;
  const mark = () => {
    since = fake.state.journal.seq;
  };
  return {
    bot,
    deps,
    store,
    fake,
    driver,
    control,
    tracker,
    slackClient: bot.slack.app.client,
    botUrl,
    sms: (text, userId = users.admin, channelId = channels.smsOps) => {
      mark();
      return driver.slashCommand({ command: '/sms', text, userId, channelId });
    },
    ephemeral: async (userId, match) => {
      const event = await fake.state.waitFor(
        'ephemeral',
        (e) =>
          e.action !== 'deleted' && e.message.recipient === userId && match.test(ephemeralText(e.message)),
        { after: since },
      );
      return event.message;
    },
    mark,
    openCompose: async (text = 'send', user: string = users.admin) => {
      const after = fake.state.journal.seq;
      mark();
      await driver.slashCommand({ command: '/sms', text, userId: user, channelId: channels.smsOps });
      const call = await fake.state.waitForCall(
        'views.update',
        (c) => (c.args.view as { callback_id?: string }).callback_id === 'compose',
        { after },
      );
      return fake.state.views.get(String(call.args.view_id))!;
    },
    submitCompose: (view, values, user = users.admin) => {
      const given: Record<string, Record<string, string>> = {};
      for (const [field, value] of Object.entries(values)) {
        given[field === 'text' ? textBlockOf(view) : field] = { [field]: value };
      }
      return driver.viewSubmission({ userId: user, view, values: given });
    },
    chooseInCompose: async (view, field, value) => {
      const after = fake.state.journal.seq;
      await driver.blockAction({
        userId: users.admin,
        view,
        actionId: field,
        blockId: field,
        selectedOption: { value },
      });
      const call = await fake.state.waitForCall('views.update', () => true, { after });
      return fake.state.views.get(String(call.args.view_id))!;
    },
    close: async () => {
      await close();
      await fake.close();
    },
  };
}

/** Everything a person reads in a message: its text and the text of its blocks. */
export function ephemeralText(message: { text?: string; blocks?: unknown[] }): string {
  return `${message.text ?? ''}\n${JSON.stringify(message.blocks ?? [])}`;
}

/** The compose text block's id: it carries a version once a template has replaced the text. */
export function textBlockOf(view: ViewOutput): string {
  return (view.blocks as { block_id?: string }[]).find((b) => b.block_id?.startsWith('text'))!.block_id!;
}

/**
 * `/sms send` with a file uploaded by the admin and `text` as the message: the review that replaced "Reading the
 * file" once the bot has read it.
 */
export async function reviewOfFile(
  h: Harness,
  file: { filename: string; bytes: Uint8Array },
  text: string,
  more: Record<string, Record<string, string>> = {},
): Promise<ViewOutput> {
  const fileId = h.fake.state.files.addUpload({
    ...file,
    bytes: Buffer.from(file.bytes),
    uploader: users.admin,
  }).id;
  const view = await h.openCompose();
  const after = h.fake.state.journal.seq;
  await h.driver.viewSubmission({
    userId: users.admin,
    view,
    values: { ...more, [textBlockOf(view)]: { text }, file: { file: [fileId] } },
  });
  await h.fake.state.waitForCall('views.update', (c) => typeof c.args.external_id === 'string', { after });
  return h.fake.state.views.top(users.admin)!;
}

/** A real send through the compose modal as the admin; resolves with its outbox row once its card is posted. */
export async function sendThroughCompose(h: Harness, recipients: string, text: string): Promise<OutboxRow> {
  const view = await h.openCompose('send');
  const after = h.fake.state.journal.seq;
  const result = await h.submitCompose(view, { recipients, text });
  expect(result.status).toBe(200);
  const card = await h.fake.state.waitForMessage(
    (m) => m.channel === channels.smsOps && /^SMS batch \d+:/.test(m.text),
    { after },
  );
  const messageId = /^SMS batch (\d+):/.exec(card.text)![1]!;
  return (await h.store.outbox.getByMessageId(messageId))!;
}

/**
 * `userId` opens the App Home tab: resolves with the views.publish call and the published blocks as text, once the
 * blocks are checked against Slack's Block Kit limits.
 */
export async function openAppHome(h: Harness, userId: string) {
  const after = h.fake.state.journal.seq;
  await h.driver.appHomeOpened(userId);
  const call = await h.fake.state.waitForCall('views.publish', (c) => c.args.user_id === userId, { after });
  expect(call.status).toBe(200);
  const view = call.args.view as { blocks: unknown[] };
  expect(checkBlocks(view.blocks, 'home', '/view/blocks')).toEqual([]);
  return { call, text: JSON.stringify(view.blocks) };
}

/** The admin presses the file review's rejected-rows button; resolves with the journal position before it. */
export async function askForRejectedRows(h: Harness, review: ViewOutput): Promise<number> {
  const clicked = h.fake.state.journal.seq;
  await h.driver.blockAction({
    userId: users.admin,
    view: review,
    actionId: 'compose_rejected_rows',
    blockId: 'rejected_rows',
    value: JSON.parse(review.private_metadata).draftKey,
  });
  return clicked;
}

/** The admin presses Edit on a scheduled send's card: the compose form that replaced the loading view. */
export async function editScheduled(h: Harness, card: SlackMessage): Promise<ViewOutput> {
  const after = h.fake.state.journal.seq;
  await h.driver.blockAction({ userId: users.admin, message: card, actionId: 'scheduled_edit' });
  const call = await h.fake.state.waitForCall(
    'views.update',
    (c) => (c.args.view as { callback_id?: string }).callback_id === 'compose',
    { after },
  );
  return h.fake.state.views.get(String(call.args.view_id))!;
}
