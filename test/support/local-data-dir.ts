import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import type { Bot } from '../../src/bot.js';
import { startTestBot, type TestBot } from './bot.js';
import { captureLogger, type LogLine } from './logs.js';

export type LocalBotWithLogs = Bot & { logLines: LogLine[] };

export interface LocalDataDirs {
  /** A fresh data folder, removed after the test. */
  dataDir(): string;
  /**
   * Local mode as `npm start` runs it (no Slack credentials, the simulator as the gateway), its store and
   * state files in `dir`; its log lines from info up are kept.
   */
  startLocal(dir: string): Promise<LocalBotWithLogs>;
  /** Stops the bot as a restart does: its state is written to its folder, which stays. */
  stop(bot: Bot): Promise<void>;
}

/**
 * Tests of what local mode keeps across a restart: bots started and stopped again on data folders of the
 * test's own. Call it at the top of the file; after each test it stops the bots still running and removes
 * the folders.
 */
export function useLocalDataDirs(prefix: string): LocalDataDirs {
  const dirs: string[] = [];
  const running: TestBot[] = [];

  afterEach(async () => {
    for (const bot of running.splice(0)) await bot.close();
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  return {
    dataDir: () => {
      const dir = mkdtempSync(join(tmpdir(), prefix));
      dirs.push(dir);
      return dir;
    },
    startLocal: async (dir) => {
      const capture = captureLogger({ level: 'info' });
      const testBot = await startTestBot(
        { DATABASE_URL: `sqlite:${join(dir, 'smsops.db')}` },
        { logger: capture.logger },
      );
      running.push(testBot);
      return Object.assign(testBot.bot, { logLines: capture.lines });
    },
    stop: async (bot) => {
      const index = running.findIndex((r) => r.bot === bot);
      await bot.stop();
      running.splice(index, 1);
    },
  };
}
