import { createInboundPoster, createInboundRelay } from '../../src/bot.js';
import type { GatewayClient } from '../../src/gateway/index.js';
import type { InboundPoster } from '../../src/jobs/inbound-poster.js';
import type { InboundRelay, InboundRelaySettings } from '../../src/jobs/inbound-relay.js';
import { type Logger, silentLogger } from '../../src/log.js';
import type { Store } from '../../src/store/index.js';
import {
  type FakeSlack,
  type FakeSlackOptions,
  SEEDED,
  type SlackMessage,
  startFakeSlack,
} from '../../workspace/index.js';
import { startTestBot } from '../support/bot.js';
import { SimulatorControl } from '../support/simulator.js';
import { SIGNING_SECRET } from '../support/slack-harness.js';

export const { channels, users } = SEEDED;

export interface InboundRig {
  control: SimulatorControl;
  fake: FakeSlack;
  store: Store;
  gateway: GatewayClient;
  dbPath: string;
  poster(options?: { adminUserIds?: string[] }): InboundPoster;
  relay(options?: {
    instanceId?: string;
    store?: Store;
    poster?: InboundPoster;
    logger?: Logger;
    settings?: Partial<Omit<InboundRelaySettings, 'instanceId'>>;
  }): InboundRelay;
  inject(messages: Array<Record<string, unknown>>): Promise<number[]>;
  /** Every inbound SMS section posted so far, in posting order, with where it went. */
  posted(): Array<{ id: number; channel: string; ts: string; threadTs?: string; message: SlackMessage }>;
  /** Resolves once every id is visible somewhere; rejects after timeoutMs. */
  waitVisible(ids: readonly number[], timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * The relay's real surroundings on loopback, built by the bot's own composition: the simulator as the
 * gateway over HTTP, SQLite in a temp folder, INBOUND_CHANNEL subscribed, and the fake Slack Web API (rate
 * limits when asked). `relay()` adds another instance on the same store, as a second process would be. Each test gets its own, so gateway ids
 * (which restart per simulator) never meet another test's claims.
 */
export async function startInboundRig(options: { fakeSlack?: FakeSlackOptions } = {}): Promise<InboundRig> {
  const fake = await startFakeSlack(options.fakeSlack);
  const { bot, close } = await startTestBot({
    SLACK_BOT_TOKEN: fake.botToken,
    SLACK_SIGNING_SECRET: SIGNING_SECRET,
    SLACK_API_URL: fake.apiUrl,
    ADMIN_USER_IDS: users.admin,
    INBOUND_CHANNEL: channels.smsOps,
    INBOUND_POLL_SECONDS: '1',
  });
  const { config, store, gateway } = bot;
  const control = new SimulatorControl({ url: bot.simulatorUrl! });
  let instances = 0;
  const poster: InboundRig['poster'] = (o = {}) =>
    createInboundPoster(config, {
      botToken: fake.botToken,
      apiUrl: fake.apiUrl,
      adminUserIds: o.adminUserIds ?? [users.admin],
      logger: silentLogger,
    });
  const posted: InboundRig['posted'] = () =>
    fake.state.messages.all().flatMap((message) =>
      (message.blocks ?? [])
        .map((b) => (b as { block_id?: string }).block_id ?? '')
        .filter((id) => id.startsWith('inbound_'))
        .map((id) => ({
          id: Number(id.slice('inbound_'.length)),
          channel: message.channel,
          ts: message.ts,
          ...(message.thread_ts && message.thread_ts !== message.ts ? { threadTs: message.thread_ts } : {}),
          message,
        })),
    );
  return {
    control,
    fake,
    store,
    gateway,
    dbPath: config.databaseUrl.slice('sqlite:'.length),
    poster,
    relay: (o = {}) =>
      createInboundRelay(config, {
        gateway,
        store: o.store ?? store,
        poster: o.poster ?? poster(),
        logger: o.logger ?? silentLogger,
        instanceId: o.instanceId ?? `test-${++instances}`,
        // Without rate limits in the fake, pacing would only slow the tests down; burst tests set 1000.
        tuning: { postIntervalMs: 10, ...o.settings },
      }),
    inject: async (messages) => (await control.inbound(messages)).ids,
    posted,
    waitVisible: (ids, timeoutMs = 20_000) =>
      new Promise<void>((resolve, reject) => {
        const missing = () => {
          const seen = new Set(posted().map((p) => p.id));
          return ids.filter((id) => !seen.has(id));
        };
        if (missing().length === 0) {
          resolve();
          return;
        }
        const timer = setTimeout(() => {
          stopWatching();
          reject(new Error(`not visible after ${timeoutMs} ms: ${missing().slice(0, 20).join(', ')}…`));
        }, timeoutMs);
        const stopWatching = fake.state.journal.on('message', () => {
          if (missing().length > 0) return;
          clearTimeout(timer);
          stopWatching();
          resolve();
        });
      }),
    close: async () => {
      await close();
      await fake.close();
    },
  };
}

/** How many times each id was posted, per channel: `{ 'C0SMSOPS': { 500001: 1 } }`. */
export function postCounts(rig: InboundRig): Record<string, Record<number, number>> {
  const counts: Record<string, Record<number, number>> = {};
  for (const p of rig.posted()) {
    const channel = counts[p.channel] ?? {};
    channel[p.id] = (channel[p.id] ?? 0) + 1;
    counts[p.channel] = channel;
  }
  return counts;
}

/** Numbers in gateway form, one per index: 905320000000 + i. */
export const number = (i: number) => `90532${String(i).padStart(7, '0')}`;
