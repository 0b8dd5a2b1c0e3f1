import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GatewayClient } from '../../src/gateway/index.js';
import { startHttpServer } from '../../src/http/server.js';
import { DeliveryTracker } from '../../src/jobs/tracker.js';
import { silentLogger } from '../../src/log.js';
import { createSlackApp } from '../../src/slack/app.js';
import { CardUpdater } from '../../src/slack/card-updates.js';
import type { SendingSettings, SlackDeps } from '../../src/slack/deps.js';
import { openStore, type Store } from '../../src/store/index.js';
import {
  createSlackDriver,
  type EphemeralMessage,
  type FakeSlack,
  SEEDED,
  type SlackDriver,
  startFakeSlack,
  type ViewOutput,
} from '../../src/workspace/index.js';
import { testSettings } from './settings.js';
import { type SimulatorControl, startTestSimulator } from './simulator.js';

export const SIGNING_SECRET = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';
export const { users, channels } = SEEDED;

export interface HarnessOptions {
  sending?: Partial<SendingSettings>;
  gatewayTimeoutMs?: number;
  /** Point the bot at another gateway (e.g. a closed port) instead of the simulator. */
  gatewayUrl?: string;
  fakeSlack?: Parameters<typeof startFakeSlack>[0];
}

/**
 * The whole bot, for real, on loopback: the simulator as the gateway, SQLite in a temp folder,
 * the fake Slack Web API, our Bolt app behind our HTTP server, and Slack's side as signed requests.
 */
export interface Harness {
  deps: SlackDeps;
  store: Store;
  fake: FakeSlack;
  driver: SlackDriver;
  control: SimulatorControl;
  tracker: DeliveryTracker;
  botUrl: string;
  /** Runs `/sms <text>` as a user in a channel and returns what Slack got back. */
  sms(text: string, userId?: string, channelId?: string): ReturnType<SlackDriver['slashCommand']>;
  /** An ephemeral shown to a user whose text matches, since the last `sms()` or `mark()`. */
  ephemeral(userId: string, match: RegExp): Promise<EphemeralMessage>;
  /** From now on, `ephemeral()` only looks at what comes next. */
  mark(): void;
  /** `/sms <text>` as `user`, then the compose modal once it has replaced the loading view. */
  openCompose(text?: string, user?: string): Promise<ViewOutput>;
  /** Picks an option of a select or radio field in the composer and returns the view the bot updated it to. */
  chooseInCompose(
    view: ViewOutput,
    field: 'mode' | 'template' | 'list' | 'encoding',
    value: string,
  ): Promise<ViewOutput>;
  close(): Promise<void>;
}

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const dir = mkdtempSync(join(tmpdir(), 'smsops-harness-'));
  const { sim, control } = await startTestSimulator();
  const store = await openStore(`sqlite:${join(dir, 'smsops.db')}`);
  const fake = await startFakeSlack(options.fakeSlack);
  const gateway = new GatewayClient({
    baseUrl: options.gatewayUrl ?? sim.url,
    username: 'demo',
    password: 'demo',
    timeoutMs: options.gatewayTimeoutMs ?? 2_000,
    retry: { attempts: 2, baseDelayMs: 5, maxDelayMs: 10 },
  });
  let tracker: DeliveryTracker | undefined;
  const deps: SlackDeps = {
    gateway,
    store,
    logger: silentLogger,
    settings: testSettings([users.admin], options.sending),
    now: () => new Date(),
    nudgeTracker: (id) => {
      void tracker?.pollNow(id);
    },
  };
  const slack = await createSlackApp(deps, {
    mode: 'http',
    botToken: fake.botToken,
    signingSecret: SIGNING_SECRET,
    apiUrl: fake.apiUrl,
    logger: silentLogger,
    retryConfig: { retries: 0 },
  });
  const cards = new CardUpdater({ deps, client: slack.app.client, logger: silentLogger });
  tracker = new DeliveryTracker({
    gateway,
    store,
    logger: silentLogger,
    onProgress: async (row) => cards.update(row),
  });
  const http = await startHttpServer({
    port: 0,
    host: '127.0.0.1',
    slackListener: slack.requestListener,
    health: async () => ({ ok: true }),
  });
  const botUrl = `${http.url}/slack/events`;
  const driver = createSlackDriver({ botUrl, signingSecret: SIGNING_SECRET, fake });
  let since = 0;
  const mark = () => {
    since = fake.state.journal.seq;
  };
  return {
    deps,
    store,
    fake,
    driver,
    control,
    tracker,
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
      await tracker?.stop();
      await cards.stop();
      await http.close();
      await gateway.close();
      await fake.close();
      await sim.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
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
