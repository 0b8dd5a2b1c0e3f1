import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Bot, type BotOverrides, buildBot } from '../../src/bot.js';
import { loadConfig } from '../../src/config.js';
import { silentLogger } from '../../src/log.js';

export interface TestBot {
  bot: Bot;
  close(): Promise<void>;
}

/**
 * The bot as production builds it (buildBot), configured through the same environment variables, on
 * loopback with an ephemeral port, SQLite in a temp folder, Istanbul time, and quick retries. Without
 * SLACK_BOT_TOKEN in `env` it runs in local mode; without SMS_GATEWAY_URL the gateway is the simulator.
 * The loops are not started: tests drive them (pollNow, pollOnce, tick).
 */
export async function startTestBot(
  env: Record<string, string>,
  overrides: Partial<BotOverrides> = {},
): Promise<TestBot> {
  const dir = mkdtempSync(join(tmpdir(), 'smsops-bot-'));
  try {
    const config = loadConfig({
      DATABASE_URL: `sqlite:${join(dir, 'smsops.db')}`,
      REPORT_TIMEZONE: 'Europe/Istanbul',
      SMS_GATEWAY_TIMEOUT_MS: '2000',
      ...env,
    });
    const bot = await buildBot(
      // METRICS_PORT in `env` turns metrics on; they too listen on an ephemeral port (bot.metrics.url).
      { ...config, port: 0, ...(config.metricsPort === undefined ? {} : { metricsPort: 0 }) },
      {
        logger: silentLogger,
        host: '127.0.0.1',
        startJobs: false,
        slackRetry: { retries: 0 },
        gatewayClient: { retry: { attempts: 2, baseDelayMs: 5, maxDelayMs: 10 } },
        ...overrides,
      },
    );
    await bot.start();
    return {
      bot,
      close: async () => {
        await bot.stop();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}
