import { randomBytes } from 'node:crypto';
import type { RequestListener } from 'node:http';
import { hostname } from 'node:os';
import dotenv from 'dotenv';
import { type Config, ConfigError, loadConfig } from './config.js';
import { type Gateway, GatewayClient } from './gateway/index.js';
import { type HealthReport, type RunningHttpServer, startHttpServer } from './http/server.js';
import { LowBalanceChecker } from './jobs/alert-balance.js';
import { ensureDefaultDigests } from './jobs/digest-defaults.js';
import { DigestScheduler } from './jobs/digest-scheduler.js';
import { InboundRelay } from './jobs/inbound-relay.js';
import { DeliveryTracker } from './jobs/tracker.js';
import { createLogger, type Logger } from './log.js';
import { LOCAL_MODE_NOTE } from './setup-help.js';
import { startSimulator } from './simulator/server.js';
import { createSlackApp, type SlackApp } from './slack/app.js';
import { CardUpdater } from './slack/card-updates.js';
import { postCard } from './slack/cards.js';
import type { SlackDeps } from './slack/deps.js';
import { SlackDigestPoster } from './slack/digest-poster.js';
import { createSlackInboundPoster, inboundWebClient } from './slack/inbound-poster.js';
import { openStore, type Store, StoreOpenError } from './store/index.js';
import { createLocalWorkspace, type LocalWorkspace } from './workspace/local.js';
import { SEEDED } from './workspace/seed.js';

dotenv.config({ quiet: true });

const SHUTDOWN_DEADLINE_MS = 9_000;
/** How long the send flow may take to post a delivery card before the tracker posts a missing one. */
const CARD_GRACE_MS = 120_000;

/** Gateway reachability for /healthz, probed at most every 30 s so health checks never load the gateway. */
function gatewayProbe(gateway: Gateway) {
  let last: { ok: boolean; at: Date; reason?: string } | undefined;
  let inFlight: Promise<void> | undefined;
  return async () => {
    if (!last || Date.now() - last.at.getTime() > 30_000) {
      inFlight ??= gateway
        .getSenders({ signal: AbortSignal.timeout(3_000) })
        .then(() => {
          last = { ok: true, at: new Date() };
        })
        .catch((error: unknown) => {
          last = {
            ok: false,
            at: new Date(),
            reason: error instanceof Error ? error.message : String(error),
          };
        })
        .finally(() => {
          inFlight = undefined;
        });
      await inFlight;
    }
    return last!;
  };
}

async function run(config: Config, logger: Logger): Promise<() => Promise<void>> {
  const closers: Array<() => Promise<void>> = [];
  let httpServer: RunningHttpServer | undefined;
  const closeAll = async () => {
    for (const close of closers.reverse()) await close().catch(() => undefined);
  };
  try {
    const store: Store = await openStore(config.databaseUrl, { logger });
    closers.push(() => store.close());
    logger.info({ store: store.target }, 'store opened');

    let gatewayUrl = config.gateway.url;
    let simulatorUrl: string | undefined;
    if (!gatewayUrl) {
      const simulator = await startSimulator({
        port: 0,
        username: config.gateway.username,
        password: config.gateway.password,
        timeZone: config.gateway.timeZone,
        logger,
      });
      closers.push(() => simulator.close());
      gatewayUrl = simulator.url;
      simulatorUrl = simulator.url;
      logger.warn(
        { url: simulator.url },
        'SIMULATED GATEWAY: SMS_GATEWAY_URL is unset, no real SMS will be sent',
      );
    }
    const gateway = new GatewayClient({
      baseUrl: gatewayUrl,
      username: config.gateway.username,
      password: config.gateway.password,
      timeZone: config.gateway.timeZone,
      timeoutMs: config.gateway.timeoutMs,
      logger,
    });
    closers.push(() => gateway.close());

    let tracker: DeliveryTracker | undefined;
    const deps: SlackDeps = {
      gateway,
      store,
      logger,
      settings: {
        adminUserIds: config.adminUserIds,
        defaultCountry: config.defaultCountry,
        reportTimeZone: config.reportTimeZone,
        simulated: !config.gateway.url,
        sending: { ...config.sending, defaultValidityMinutes: 1440 },
      },
      now: () => new Date(),
      nudgeTracker: (id) => {
        void tracker?.pollNow(id).catch(() => undefined);
      },
    };
    if (config.adminUserIds.length === 0 && config.slack.mode !== 'local') {
      logger.warn('ADMIN_USER_IDS is empty: nobody can grant roles or send until it is set');
    }

    const mode = config.slack.mode === 'socket' ? 'socket' : 'http';
    const local = config.slack.mode === 'local';
    // The server is up before the Slack app: in local mode the app's own auth.test goes to the workspace
    // it serves. Requests reach the app once it exists; until then Slack is asked to try again.
    let slackListener: RequestListener | undefined;
    let health: () => Promise<HealthReport> = async () => ({ ok: false, starting: true });
    let workspace: LocalWorkspace | undefined;
    const http: RunningHttpServer = await startHttpServer({
      port: config.port,
      slackListener: (req, res) => {
        if (slackListener) slackListener(req, res);
        else res.writeHead(503, { 'retry-after': '1' }).end();
      },
      health: () => health(),
      extra: (req, res) => workspace?.handle(req, res) ?? false,
    });
    httpServer = http;
    let slackOptions = {
      botToken: config.slack.botToken!,
      signingSecret: config.slack.signingSecret,
      apiUrl: config.slack.apiUrl,
    };
    if (local) {
      const signingSecret = randomBytes(32).toString('hex');
      workspace = await createLocalWorkspace({
        signingSecret,
        botEventsUrl: `http://127.0.0.1:${http.port}/slack/events`,
        simulatorUrl: simulatorUrl,
        logger,
      });
      const w = workspace;
      deps.settings = { ...deps.settings, adminUserIds: [...config.adminUserIds, w.localUserId] };
      slackOptions = { botToken: w.botToken, signingSecret, apiUrl: w.apiUrl };
    }
    const slack: SlackApp = await createSlackApp(deps, {
      mode,
      ...slackOptions,
      appToken: config.slack.appToken,
      logger,
    });
    slackListener = slack.requestListener;

    // Card updates are coalesced and paced within chat.update's tier.
    const cards = new CardUpdater({ deps, client: slack.app.client, logger });
    closers.push(() => cards.stop());
    tracker = new DeliveryTracker({
      gateway,
      store,
      logger,
      onProgress: async (row) => {
        if (row.messageTs) {
          cards.update(row);
          return;
        }
        // The send flow posts the card itself, waiting out Slack's rate limits if it must. Only a send whose
        // card was never posted (a crash right after Submit) gets one here, once that flow is long over.
        const age = Date.now() - (row.submittedAt ?? row.createdAt).getTime();
        if (age > CARD_GRACE_MS) await postCard(deps, slack.app.client, row);
      },
      stalePendingMs: config.gateway.timeoutMs * 2 + 10_000,
      onUnknown: (row) => postCard(deps, slack.app.client, row),
    });
    tracker.start();
    closers.push(() => tracker!.stop());

    // Stable across restarts yet unique among live processes (two cannot listen on one host and port):
    // a restarted bot finds the claims it left unposted when it died and posts them at once.
    const instanceId = `${hostname()}:${config.port}`;
    const simulated = !config.gateway.url;
    // Local mode shows inbound SMS in #sms-ops unless INBOUND_CHANNEL says otherwise.
    const inboundChannel = config.inboundChannel ?? (local ? SEEDED.channels.smsOps : undefined);
    if (inboundChannel) {
      await store.subscriptions.add(inboundChannel, { kind: 'inbound' }, 'INBOUND_CHANNEL');
    }
    const relay = new InboundRelay({
      gateway,
      store,
      // Its own client: 429s come back to the relay, which paces per channel, instead of pausing every
      // Slack call the app makes.
      poster: createSlackInboundPoster({
        client: inboundWebClient(slackOptions.botToken, { apiUrl: slackOptions.apiUrl }),
        adminUserIds: config.adminUserIds,
        reportTimeZone: config.reportTimeZone,
        simulated,
        logger,
      }),
      logger,
      settings: {
        instanceId,
        pollSeconds: config.inboundPollSeconds,
        conversationHours: config.inbound.conversationHours,
        stopWords: config.inbound.stopWords,
        surveyKeywords: config.inbound.surveyKeywords,
      },
    });
    relay.start();
    closers.push(() => relay.stop());

    await ensureDefaultDigests(
      store,
      config.digestChannel
        ? { channel: config.digestChannel, cron: config.digestCron, timeZone: config.reportTimeZone }
        : undefined,
    );
    const digestPoster = new SlackDigestPoster({
      client: slack.app.client,
      logger,
      charts: config.digests.charts,
    });
    const digests = new DigestScheduler({
      gateway,
      store,
      poster: digestPoster,
      logger,
      settings: {
        reportTimeZone: config.reportTimeZone,
        simulated,
        instanceId,
        catchUpMinutes: config.digests.catchUpMinutes,
      },
    });
    const alerts = new LowBalanceChecker({
      gateway,
      store,
      poster: digestPoster,
      logger,
      settings: {
        reportTimeZone: config.reportTimeZone,
        simulated,
        alertCheckMinutes: config.digests.alertCheckMinutes,
      },
    });
    digests.start();
    alerts.start();
    closers.push(
      () => digests.stop(),
      () => alerts.stop(),
    );

    const probe = gatewayProbe(gateway);
    health = async (): Promise<HealthReport> => {
      const [storeHealth, gatewayHealth] = await Promise.all([store.health(), probe()]);
      return {
        ok: storeHealth.ok,
        store: storeHealth,
        gateway: {
          reachable: gatewayHealth.ok,
          checkedAt: gatewayHealth.at,
          reason: gatewayHealth.reason,
          simulated: !config.gateway.url,
        },
        degraded: !gatewayHealth.ok,
        lastInboundPoll: relay.lastSuccessfulPoll ?? null,
      };
    };
    // Intake stops first on shutdown: the HTTP server and the Slack connection are closed before the rest.
    closers.push(() => http.close());
    // Closed before the server: an open browser tab's event stream would otherwise hold its close.
    if (workspace) {
      const w = workspace;
      closers.push(() => w.close());
    }
    await slack.start();
    closers.push(() => slack.stop());
    if (local) {
      logger.info(
        { port: http.port },
        `smsops is running in local mode: open http://localhost:${http.port}/`,
      );
    } else {
      logger.info(
        { mode, port: http.port },
        `smsops is running (${mode === 'socket' ? 'Socket Mode' : `HTTP mode on :${http.port}`})`,
      );
    }
    return closeAll;
  } catch (error) {
    await closeAll();
    await httpServer?.close();
    throw error;
  }
}

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exitCode = 1;
      return;
    }
    throw error;
  }
  const local = config.slack.mode === 'local';
  // Local mode is for a person at a terminal: readable lines. Production: JSON lines.
  const logger = createLogger({ level: config.logLevel, readable: local || process.stdout.isTTY === true });
  if (local) logger.info(LOCAL_MODE_NOTE);
  let stop: () => Promise<void>;
  try {
    stop = await run(config, logger);
  } catch (error) {
    // One clear line: the store names its target with the password masked; others say what failed.
    const message = error instanceof StoreOpenError || error instanceof Error ? error.message : String(error);
    logger.error({ err: message }, 'start-up failed');
    process.exitCode = 1;
    return;
  }
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const deadline = setTimeout(() => {
      logger.error('shutdown took too long; exiting');
      process.exit(1);
    }, SHUTDOWN_DEADLINE_MS);
    deadline.unref();
    void stop().then(() => {
      logger.info('stopped');
      process.exit(0);
    });
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

await main();
