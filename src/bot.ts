import { randomBytes } from 'node:crypto';
import type { RequestListener } from 'node:http';
import { hostname } from 'node:os';
import type { LocalWorkspace } from '../workspace/index.js';
import { type Config, secretValuesOf } from './config.js';
import { ensureDefaultDigests } from './digests/defaults.js';
import { type Gateway, GatewayClient, type GatewayClientOptions, gatewayProbe } from './gateway/index.js';
import { healthReporter } from './http/health.js';
import { type HealthReport, type RunningHttpServer, startHttpServer } from './http/server.js';
import type { SlackGateLimits } from './http/slack-gate.js';
import { LowBalanceChecker } from './jobs/alert-balance.js';
import { CampaignRunner } from './jobs/campaigns.js';
import { DigestScheduler } from './jobs/digest-scheduler.js';
import type { InboundPoster } from './jobs/inbound-poster.js';
import { InboundRelay, type InboundRelaySettings } from './jobs/inbound-relay.js';
import { MonthlyReports } from './jobs/monthly-report.js';
import { RetentionPurge } from './jobs/retention.js';
import { ScheduledSender } from './jobs/scheduled-sends.js';
import { DeliveryTracker } from './jobs/tracker.js';
import { localStateDir, localStatePaths, simulatorIdsAbove } from './local-state.js';
import type { Logger } from './log.js';
import type { BotMetrics, RunningMetricsServer } from './metrics/index.js';
import { registerSecret } from './secrets.js';
import { sendLeaseMs } from './sending/lease.js';
import { SendsInFlight } from './sends-in-flight.js';
import { observedFetch, type SlackApiObserver } from './slack/api-calls.js';
import { createSlackApp, prepareSlackApp, type SlackApp, type SlackAppOptions } from './slack/app.js';
import { campaignReporter } from './slack/campaign-cards.js';
import { CardUpdater } from './slack/card-updates.js';
import { cardOnProgress, postCard } from './slack/delivery-cards.js';
import { type SlackDeps, sendingSettingsOf } from './slack/deps.js';
import { SlackDigestPoster } from './slack/digest-poster.js';
import { sendPolicyOf } from './slack/permissions.js';
import { monthlyReportPoster } from './slack/report-runner.js';
import { slackScheduledPort } from './slack/scheduled-port.js';
import { createSlackInboundPoster, inboundWebClient } from './slack/slack-inbound-poster.js';
import { useCurrency } from './slack/ui/format.js';
import { UserZones } from './slack/user-zones.js';
import { openStore, type Store } from './store/index.js';
import { type ReaderEvents, type TableReaderLimits, TableReaderPool } from './tables/worker/pool.js';
import type { ThreadPriority } from './threads/idle-priority.js';

/**
 * What a test, a drill or a bench may change about the bot that production builds from its config alone.
 * Everything else is decided here, once, from the config.
 */
export interface BotOverrides {
  logger: Logger;
  /** The clock every listener and loop reads. */
  now?: () => Date;
  /** The address the HTTP server listens on. Default: HOST. */
  host?: string;
  /** Gateway client tuning: quick retries for tests, more connections for benches. */
  gatewayClient?: Pick<GatewayClientOptions, 'retry' | 'connections'>;
  /** Slack Web API retry policy; tests turn retries off to see failures at once. */
  slackRetry?: SlackAppOptions['retryConfig'];
  /** False: the loops are built but not started, and tests drive them (pollNow, pollOnce, tick). */
  startJobs?: boolean;
  /** Unique among live processes; default host:port, stable across restarts. */
  instanceId?: string;
  /** A store of the caller's making (e.g. PostgreSQL behind a proxy a drill can cut); closed with the bot. */
  store?: Store;
  /** Shrinks the server's limits on /slack/events (e.g. a short body deadline in a test). */
  slackLimits?: Partial<SlackGateLimits>;
  /** Relay tuning for tests (post spacing, burst targets). */
  relay?: Partial<Omit<InboundRelaySettings, 'instanceId'>>;
  /** The file readers' limits (a test's small heap) and what a bench watches of them. */
  tableReader?: { limits?: Partial<TableReaderLimits>; events?: ReaderEvents };
}

/** The whole bot, built and listening for HTTP; `start()` starts its loops and its Slack connection. */
export interface Bot {
  readonly config: Config;
  readonly store: Store;
  readonly gateway: GatewayClient;
  /** The in-process simulator's base URL when the gateway is simulated. */
  readonly simulatorUrl?: string;
  readonly deps: SlackDeps;
  readonly slack: SlackApp;
  readonly tracker: DeliveryTracker;
  /** Submits the chunks of campaigns (sends larger than SUBMIT_CHUNK_SIZE). */
  readonly campaigns: CampaignRunner;
  readonly relay: InboundRelay;
  readonly digests: DigestScheduler;
  readonly alerts: LowBalanceChecker;
  readonly retention: RetentionPurge;
  /** `/sms subscribe report`: last month's report on the first day of each month. */
  readonly monthlyReports: MonthlyReports;
  /** Fires scheduled sends when due (tests call tick()). */
  readonly scheduled: ScheduledSender;
  readonly http: RunningHttpServer;
  /** Local mode only: the stand-in for Slack, served by the bot's own HTTP server. */
  readonly workspace?: LocalWorkspace;
  /** METRICS_PORT set: GET /metrics on its own listener. */
  readonly metrics?: RunningMetricsServer;
  health(): Promise<HealthReport>;
  start(): Promise<void>;
  /** Stops intake first (HTTP, Slack), then the loops, then the gateway and the store. */
  stop(): Promise<void>;
}

/** How long shutdown waits for sends in flight (main.ts exits regardless after 9 s). */
const SENDS_DRAIN_MS = 5_000;

/** SENDS_DRAIN_MS from the moment the drain begins: the drain and the gateway's close share it. */
function drainBudget(): { begin(): void; left(): number } {
  let startedAt: number | undefined;
  return {
    begin() {
      startedAt ??= Date.now();
    },
    left() {
      return Math.max(0, SENDS_DRAIN_MS - (Date.now() - (startedAt ?? Date.now())));
    },
  };
}

/** How long after start the background loops make their first pass. */
const LOOPS_START_DELAY_MS = 500;

/**
 * One line when a reading thread starts with a priority unlike the last one's (the first, then any change): whether
 * reads give way to acks on this machine, and if not, why (threads/idle-priority.ts).
 */
function readerPriorityLog(
  logger: Logger,
  also?: (priority: ThreadPriority) => void,
): (priority: ThreadPriority) => void {
  let last: string | undefined;
  return (priority) => {
    also?.(priority);
    const said = `${priority.got} ${priority.reason ?? ''}`;
    if (said === last) return;
    last = said;
    const how = { idle: 'SCHED_IDLE', nice: 'nice 19', unchanged: 'normal' }[priority.got];
    logger.info(
      { priority: priority.got, ...(priority.reason ? { reason: priority.reason } : {}) },
      `files are read at ${how} priority`,
    );
  };
}

/** Where this process reaches its own server: loopback, in the family HOST listens on. */
function selfUrl(host: string, port: number): string {
  if (host === '0.0.0.0' || host === '::') return `http://127.0.0.1:${port}`;
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

export interface InboundRelayParts {
  gateway: Gateway;
  store: Store;
  logger: Logger;
  poster: InboundPoster;
  instanceId: string;
  tuning?: BotOverrides['relay'];
  /** The bot's metrics, when METRICS_PORT is set. */
  metrics?: Pick<BotMetrics, 'inboundPosted' | 'jobs'>;
}

/** The inbound relay as the config asks for it; a second instance on the same store is another call. */
export function createInboundRelay(config: Config, parts: InboundRelayParts): InboundRelay {
  return new InboundRelay({
    gateway: parts.gateway,
    store: parts.store,
    poster: parts.poster,
    logger: parts.logger,
    ...(parts.metrics
      ? { onPosted: (n: number) => parts.metrics?.inboundPosted(n), jobObserver: parts.metrics.jobs }
      : {}),
    settings: {
      pollSeconds: config.inboundPollSeconds,
      conversationHours: config.inbound.conversationHours,
      stopWords: config.inbound.stopWords,
      surveyKeywords: config.inbound.surveyKeywords,
      ...parts.tuning,
      instanceId: parts.instanceId,
    },
  });
}

/**
 * Posts inbound SMS to Slack through a Web API client of its own: 429s come back to the relay, which paces
 * per channel, instead of pausing every Slack call the app makes.
 */
export function createInboundPoster(
  config: Config,
  slack: {
    botToken: string;
    apiUrl?: string;
    adminUserIds: readonly string[];
    logger: Logger;
    apiObserver?: SlackApiObserver;
  },
): InboundPoster {
  return createSlackInboundPoster({
    client: inboundWebClient(slack.botToken, {
      apiUrl: slack.apiUrl,
      ...(slack.apiObserver ? { fetch: observedFetch(slack.apiObserver, slack.apiUrl) } : {}),
    }),
    adminUserIds: slack.adminUserIds,
    reportTimeZone: config.reportTimeZone,
    simulated: !config.gateway.url,
    logger: slack.logger,
  });
}

/** Builds the bot from its config: the one composition that main.ts, tests, drills and benches share. */
export async function buildBot(config: Config, overrides: BotOverrides): Promise<Bot> {
  const { logger } = overrides;
  // Before anything can log: from here on no line, error text or report can carry these values.
  registerSecret(...secretValuesOf(config));
  useCurrency(config.currency);
  const host = overrides.host ?? config.host;
  const now = overrides.now ?? (() => new Date());
  const local = config.slack.mode === 'local';
  const simulated = !config.gateway.url;
  const closers: Array<() => Promise<void>> = [];
  const sendsBudget = drainBudget();
  const closeAll = async () => {
    for (const close of closers.splice(0).reverse()) await close().catch(() => undefined);
  };
  let httpServer: RunningHttpServer | undefined;
  /** Set when start-up failed: what is open is dropped, not drained (a warm-up probe is not waited for). */
  let failedToStart = false;
  try {
    // Loaded only when asked for: without METRICS_PORT no metric is kept and prom-client is never loaded.
    const metricsModule = config.metricsPort === undefined ? undefined : await import('./metrics/index.js');
    const metrics = metricsModule?.createMetrics();

    let slackOptions = {
      botToken: config.slack.botToken!,
      signingSecret: config.slack.signingSecret,
      apiUrl: config.slack.apiUrl,
    };
    const slackAppOptions = (from: typeof slackOptions): SlackAppOptions => ({
      mode: config.slack.mode === 'socket' ? 'socket' : 'http',
      ...from,
      appToken: config.slack.appToken,
      logger,
      retryConfig: overrides.slackRetry,
      apiObserver: metrics?.slackApi,
    });
    // Slack is asked about the token (auth.test), and the gateway probed, while the store opens. Local mode's Slack is the workspace
    // this process serves, so its app is built once the server is up.
    const preparedSlack = local ? undefined : prepareSlackApp(slackAppOptions(slackOptions));

    const openTheStore = async (): Promise<Store> => {
      const opened = overrides.store ?? (await openStore(config.databaseUrl, { logger }));
      // Closed last, after everything that may still write to it.
      closers.unshift(() => opened.close());
      logger.info({ store: opened.target }, 'store opened');
      return opened;
    };
    // Local mode keeps the workspace and the simulator beside the store: a restart changes nothing a person sees.
    const stateDir = local ? localStateDir(config.databaseUrl) : undefined;
    const statePaths = stateDir ? localStatePaths(stateDir) : undefined;
    let openedStore: Store | undefined;

    let gatewayUrl = config.gateway.url;
    let simulatorUrl: string | undefined;
    if (!gatewayUrl) {
      // Loaded only when it runs: production with a real gateway never loads the simulator.
      const { startSimulator } = await import('./simulator/server.js');
      // Opened first: the simulator counts on from the ids the store knows, whatever its own file says.
      openedStore = await openTheStore();
      const simulator = await startSimulator({
        port: 0,
        username: config.gateway.username,
        password: config.gateway.password,
        timeZone: config.gateway.timeZone,
        logger,
        firstIds: await simulatorIdsAbove(openedStore),
        statePath: statePaths?.simulator,
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
      observer: metrics?.gateway,
      ...overrides.gatewayClient,
    });
    // Closed before the store (closers run last to first): a call in flight, a Submit above all, ends and its
    // MessageId is recorded while the store is still open. The sends get what is left of the one budget the
    // drain below began (SENDS_DRAIN_MS), not a second one: main.ts' deadline is 9 s for the whole stop.
    closers.push(() => (failedToStart ? gateway.destroy() : gateway.close({ graceMs: sendsBudget.left() })));
    // Probed in the background while the store opens and the rest starts: the first /healthz does not wait
    // on a cold connection.
    const gatewayHealth = gatewayProbe(gateway);
    gatewayHealth.warmUp();

    const store = openedStore ?? (await openTheStore());

    let tracker: DeliveryTracker | undefined;
    const sendsInFlight = new SendsInFlight();
    // No thread until the first upload: a bot that is never sent a file never starts one.
    const tableReader = new TableReaderPool(overrides.tableReader?.limits, {
      ...overrides.tableReader?.events,
      priority: readerPriorityLog(logger, overrides.tableReader?.events?.priority),
    });
    const deps: SlackDeps = {
      gateway,
      store,
      logger,
      settings: {
        adminUserIds: config.adminUserIds,
        defaultCountry: config.defaultCountry,
        reportTimeZone: config.reportTimeZone,
        simulated,
        sending: sendingSettingsOf(config.sending),
        digestMinIntervalSeconds: config.digests.minIntervalSeconds,
        workflowMaxRecipients: config.workflowMaxRecipients,
        scheduleGraceMinutes: config.scheduleGraceMinutes,
        retentionDays: config.retentionDays,
      },
      userZones: new UserZones({ fallback: config.reportTimeZone, logger, now }),
      now,
      nudgeTracker: (id) => {
        void tracker?.pollNow(id).catch(() => undefined);
      },
      sendObserver: metrics?.sends,
      sendsInFlight,
      tableReader,
    };
    // Runs once intake and the loops have stopped (closers run last to first), before the gateway and the store
    // close: a send started after an ack gets its MessageId recorded, or is left for the next start to settle.
    closers.push(async () => {
      sendsBudget.begin();
      if (sendsInFlight.count === 0) return;
      logger.info({ sends: sendsInFlight.count }, 'waiting for the sends in flight');
      if (!(await sendsInFlight.settled(sendsBudget.left()))) {
        logger.warn(
          { sends: sendsInFlight.count },
          'sends still in flight at shutdown: the next start settles them, never sending them again',
        );
      }
    });
    if (config.adminUserIds.length === 0 && !local) {
      logger.warn('ADMIN_USER_IDS is empty: nobody can grant roles or send until it is set');
    }

    // The server is up before the Slack app: in local mode the app's own auth.test goes to the workspace
    // it serves. Requests reach the app once it exists; until then Slack is asked to try again.
    let slackListener: RequestListener | undefined;
    let health: () => Promise<HealthReport> = async () => ({ ok: false, starting: true });
    let workspace: LocalWorkspace | undefined;
    let localInboundChannel: string | undefined;
    const http = await startHttpServer({
      port: config.port,
      host,
      logger,
      slackLimits: overrides.slackLimits,
      slackListener: (req, res) => {
        if (slackListener) slackListener(req, res);
        else res.writeHead(503, { 'retry-after': '1' }).end();
      },
      health: () => health(),
      extra: (req, res) => workspace?.handle(req, res) ?? false,
    });
    httpServer = http;
    // Its own listener on METRICS_HOST (loopback by default): never beside /slack/events, nor open where HOST is.
    let metricsServer: RunningMetricsServer | undefined;
    if (metricsModule && metrics && config.metricsPort !== undefined) {
      const running = await metricsModule.startMetricsServer({
        registry: metrics.registry,
        port: config.metricsPort,
        host: config.metricsHost,
        logger,
      });
      metricsServer = running;
      closers.push(() => running.close());
    }
    // Stable across restarts yet unique among live processes (two cannot listen on one host and port):
    // a restarted bot finds the claims it left unposted when it died and posts them at once.
    const instanceId = overrides.instanceId ?? `${hostname()}:${http.port}`;
    // A send in flight is claimed under this lease and renewed while the gateway answers, however slowly;
    // every instance's tracker takes only a send whose lease ran out for abandoned.
    const leaseMs = sendLeaseMs(config.gateway.timeoutMs);
    deps.sendLease = { owner: instanceId, ttlMs: leaseMs };

    if (local) {
      // Loaded only in local mode: the stand-in for Slack is a tool beside the product.
      const { createLocalWorkspace, SEEDED } = await import('../workspace/index.js');
      localInboundChannel = SEEDED.channels.smsOps;
      const signingSecret = randomBytes(32).toString('hex');
      registerSecret(signingSecret);
      const w = await createLocalWorkspace({
        signingSecret,
        botEventsUrl: `${selfUrl(host, http.port)}/slack/events`,
        simulatorUrl,
        logger,
        statePath: statePaths?.workspace,
      });
      // Saved once intake and the loops have stopped (closers run last to first): the cards' last edits are in.
      closers.push(() => w.saveState());
      workspace = w;
      registerSecret(w.botToken);
      deps.settings = { ...deps.settings, adminUserIds: [...config.adminUserIds, w.localUserId] };
      slackOptions = { botToken: w.botToken, signingSecret, apiUrl: w.apiUrl };
    }
    const slack = await createSlackApp(deps, preparedSlack ?? slackAppOptions(slackOptions));
    slackListener = slack.requestListener;

    const cards = new CardUpdater({ deps, client: slack.app.client, logger });
    // A campaign's chunks are tracked as any send, but shown on the campaign's one card.
    const campaignCards = campaignReporter(deps, slack.app.client, cards);
    const campaigns = new CampaignRunner({
      send: { ...deps, policy: sendPolicyOf(deps), sendLease: deps.sendLease },
      owner: instanceId,
      leaseMs,
      paceMs: config.sending.chunkIntervalMs,
      reporter: campaignCards,
      logger,
      jobObserver: metrics?.jobs,
    });
    deps.nudgeCampaigns = () => campaigns.kick();
    const onProgress = cardOnProgress(deps, slack.app.client, cards);
    tracker = new DeliveryTracker({
      gateway,
      store,
      logger,
      now,
      onProgress: (row) =>
        row.campaignId === null ? onProgress(row) : campaignCards.changed(row.campaignId),
      stalePendingMs: leaseMs,
      onUnknown: async (row) => {
        if (row.campaignId === null) return postCard(deps, slack.app.client, row);
        // The campaign waiting on this chunk stops at its next pass: a chunk of unknown fate is never resent.
        campaigns.kick();
        await campaignCards.changed(row.campaignId);
      },
      jobObserver: metrics?.jobs,
    });
    const liveTracker = tracker;

    // Local mode shows inbound SMS in #sms-ops unless INBOUND_CHANNEL says otherwise.
    const inboundChannel = config.inboundChannel ?? localInboundChannel;
    if (inboundChannel) {
      await store.subscriptions.add(inboundChannel, { kind: 'inbound' }, 'INBOUND_CHANNEL');
    }
    const relay = createInboundRelay(config, {
      gateway,
      store,
      logger,
      poster: createInboundPoster(config, {
        ...slackOptions,
        adminUserIds: deps.settings.adminUserIds,
        logger,
        apiObserver: metrics?.slackApi,
      }),
      instanceId,
      tuning: overrides.relay,
      metrics,
    });
    metrics?.watch({ now, store, inbound: relay });

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
    // Digests and alerts post to Slack in the report zone, at most every DIGEST_MIN_INTERVAL_SECONDS.
    const posting = { gateway, store, poster: digestPoster, logger, now, jobObserver: metrics?.jobs };
    const framing = {
      reportTimeZone: config.reportTimeZone,
      simulated,
      minIntervalSeconds: config.digests.minIntervalSeconds,
    };
    const digests = new DigestScheduler({
      ...posting,
      settings: { ...framing, instanceId, catchUpMinutes: config.digests.catchUpMinutes },
    });
    const alerts = new LowBalanceChecker({
      ...posting,
      settings: { ...framing, alertCheckMinutes: config.digests.alertCheckMinutes },
    });

    const monthlyReports = new MonthlyReports({
      store,
      poster: monthlyReportPoster(deps, slack.app.client),
      logger,
      now,
      instanceId,
      jobObserver: metrics?.jobs,
    });

    const retention = new RetentionPurge({
      store,
      logger,
      settings: { retentionDays: config.retentionDays, instanceId },
      jobObserver: metrics?.jobs,
    });

    const scheduled = new ScheduledSender({
      store,
      logger,
      now,
      port: slackScheduledPort(deps, slack.app.client),
      settings: { graceMinutes: config.scheduleGraceMinutes },
      jobObserver: metrics?.jobs,
    });

    health = healthReporter({
      store,
      gateway: gatewayHealth,
      simulated,
      lastInboundPoll: () => relay.lastSuccessfulPoll,
    });

    closers.push(
      () => cards.stop(),
      () => liveTracker.stop(),
      () => campaigns.stop(),
      () => relay.stop(),
      () => digests.stop(),
      () => monthlyReports.stop(),
      () => alerts.stop(),
      () => retention.stop(),
      () => scheduled.stop(),
    );
    // Right after intake: a file read in flight is ended (its reader told), not waited for.
    closers.push(() => tableReader.close());
    // Intake stops first on shutdown: the HTTP server and the Slack connection are closed before the rest.
    closers.push(() => http.close());
    // Closed before the server: an open browser tab's event stream would otherwise hold its close.
    const openWorkspace = workspace;
    if (openWorkspace) closers.push(() => openWorkspace.close());
    let started = false;
    return {
      config,
      store,
      gateway,
      simulatorUrl,
      deps,
      slack,
      tracker: liveTracker,
      campaigns,
      relay,
      digests,
      alerts,
      retention,
      monthlyReports,
      scheduled,
      http,
      workspace,
      metrics: metricsServer,
      health: () => health(),
      start: async () => {
        if (started) return;
        started = true;
        await slack.start();
        closers.push(() => slack.stop());
        if (overrides.startJobs !== false) {
          // The loops' first passes (a poll, a purge, a digest check: each a query or a gateway call) wait until
          // start-up is over, so the first /healthz and the first Slack requests are not queued behind them.
          const loops = setTimeout(() => {
            liveTracker.start();
            campaigns.start();
            relay.start();
            digests.start();
            monthlyReports.start();
            alerts.start();
            retention.start();
            scheduled.start();
          }, LOOPS_START_DELAY_MS);
          // Pushed last, so a stop clears it first: no loop starts once shutdown has begun.
          closers.push(async () => clearTimeout(loops));
        }
        if (local) {
          logger.info(
            { port: http.port },
            `smsops is running in local mode: open http://localhost:${http.port}/`,
          );
        } else {
          const mode = config.slack.mode;
          logger.info(
            { mode, port: http.port },
            `smsops is running (${mode === 'socket' ? 'Socket Mode' : `HTTP mode on :${http.port}`})`,
          );
        }
      },
      stop: closeAll,
    };
  } catch (error) {
    failedToStart = true;
    await closeAll();
    await httpServer?.close();
    throw error;
  }
}
