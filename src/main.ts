import dotenv from 'dotenv';
import { type Config, ConfigError, loadConfig } from './config.js';
import { type Gateway, GatewayClient } from './gateway/index.js';
import { type HealthReport, type RunningHttpServer, startHttpServer } from './http/server.js';
import { DeliveryTracker } from './jobs/tracker.js';
import { createLogger, type Logger } from './log.js';
import { SETUP_HELP } from './setup-help.js';
import { startSimulator } from './simulator/server.js';
import { createSlackApp, type SlackApp } from './slack/app.js';
import { updateCard } from './slack/cards.js';
import type { SlackDeps } from './slack/deps.js';
import { openStore, type Store, StoreOpenError } from './store/index.js';

dotenv.config({ quiet: true });

const SHUTDOWN_DEADLINE_MS = 9_000;

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
  const closeAll = async () => {
    for (const close of closers.reverse()) await close().catch(() => undefined);
  };
  try {
    const store: Store = await openStore(config.databaseUrl, { logger });
    closers.push(() => store.close());
    logger.info({ store: store.target }, 'store opened');

    let gatewayUrl = config.gateway.url;
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
    if (config.adminUserIds.length === 0) {
      logger.warn('ADMIN_USER_IDS is empty: nobody can grant roles or send until it is set');
    }

    const mode = config.slack.mode === 'socket' ? 'socket' : 'http';
    const slack: SlackApp = await createSlackApp(deps, {
      mode,
      botToken: config.slack.botToken!,
      signingSecret: config.slack.signingSecret,
      appToken: config.slack.appToken,
      apiUrl: config.slack.apiUrl,
      logger,
    });

    tracker = new DeliveryTracker({
      gateway,
      store,
      logger,
      onProgress: (row) => updateCard(deps, slack.app.client, row),
    });
    tracker.start();
    closers.push(() => tracker!.stop());

    const probe = gatewayProbe(gateway);
    const http: RunningHttpServer = await startHttpServer({
      port: config.port,
      slackListener: slack.requestListener,
      health: async (): Promise<HealthReport> => {
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
          lastInboundPoll: null,
        };
      },
    });
    // Intake stops first on shutdown: the HTTP server is the last thing opened, the first closed.
    closers.push(() => http.close());
    await slack.start();
    closers.push(() => slack.stop());
    logger.info(
      { mode, port: http.port },
      `smsops is running (${mode === 'socket' ? 'Socket Mode' : `HTTP mode on :${http.port}`})`,
    );
    return closeAll;
  } catch (error) {
    await closeAll();
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
  if (config.slack.mode === 'local') {
    process.stderr.write(`${SETUP_HELP}\n`);
    process.exitCode = 1;
    return;
  }
  const logger = createLogger({ level: config.logLevel, readable: process.stdout.isTTY === true });
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
