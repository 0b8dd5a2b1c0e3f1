import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import dotenv from 'dotenv';
import { type Bot, buildBot } from './bot.js';
import { type Config, ConfigError, loadConfig } from './config.js';
import { createLogger } from './log.js';
import { LOCAL_MODE_NOTE } from './setup-help.js';

dotenv.config({ quiet: true });

const SHUTDOWN_DEADLINE_MS = 9_000;

/** Starts the bot: `npm start` calls it once the build is known to be current (scripts/start.mjs). */
export async function main(): Promise<void> {
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
  // A promise nobody awaited failed: a bug to fix, not a reason to drop every request in flight.
  process.on('unhandledRejection', (reason) => {
    logger.error({ err: reason instanceof Error ? reason.message : String(reason) }, 'unhandled rejection');
  });
  let bot: Bot | undefined;
  try {
    bot = await buildBot(config, { logger });
    await bot.start();
  } catch (error) {
    await bot?.stop();
    // One clear line: the store names its target with the password masked; others say what failed.
    logger.error({ err: error instanceof Error ? error.message : String(error) }, 'start-up failed');
    // At once: Slack's auth.test, sent while the store opened, may still be retrying against an unreachable Slack.
    process.exit(1);
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
    void bot.stop().then(() => {
      logger.info('stopped');
      process.exit(0);
    });
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

/** Whether this module is the program node was asked to run, through a symlink (`current/dist/…`) or not. */
function isProgram(): boolean {
  const program = process.argv[1];
  if (program === undefined) return false;
  try {
    return realpathSync(program) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

// Run as a program (`node dist/main.cjs`, `tsx src/main.ts`), not when `npm start` loads it to call main().
if (isProgram()) {
  main().catch((error: unknown) => {
    process.stderr.write(`smsops: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
