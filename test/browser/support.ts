import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { App } from '@slack/bolt';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import type { RunningHttpServer } from '../../src/http/server.js';
import type { CampaignRunner } from '../../src/jobs/campaigns.js';
import type { InboundRelay } from '../../src/jobs/inbound-relay.js';
import type { DeliveryTracker } from '../../src/jobs/tracker.js';
import type { SlackDeps } from '../../src/slack/deps.js';
import type { Store } from '../../src/store/index.js';
import { type LocalWorkspace, SEEDED } from '../../workspace/index.js';
import { startTestBot } from '../support/bot.js';
import { SimulatorControl } from '../support/simulator.js';

export const CHROMIUM_PATH = '/usr/bin/chromium';
/** CI installs Debian's chromium (.ci/run); without it the browser suites are skipped, never a download. */
export const hasChromium = existsSync(CHROMIUM_PATH);
export const NO_CHROMIUM_REASON = `${CHROMIUM_PATH} is missing (apt-get install -y chromium)`;

export const ARTIFACTS_DIR = join(process.cwd(), 'test-artifacts', 'browser');

/**
 * The bot as local mode runs it, on loopback: the simulator as the gateway, SQLite in a temp folder, Bolt in
 * HTTP mode, and the local workspace on the bot's own HTTP server, its /api/ being the bot's SLACK_API_URL.
 */
export interface LocalBot {
  /** The page: `http://127.0.0.1:PORT/`. */
  url: string;
  http: RunningHttpServer;
  workspace: LocalWorkspace;
  store: Store;
  deps: SlackDeps;
  /** The Bolt app: a test may add a listener of its own (a view of its own making). */
  app: App;
  control: SimulatorControl;
  /** Not started: tests poll it (`pollNow`) instead of waiting for its schedule. */
  tracker: DeliveryTracker;
  /** Inbound SMS go to #sms-ops. Not started: tests call `pollOnce()`. */
  relay: InboundRelay;
  /** Not started: tests run its passes (`tick()`). */
  campaigns: CampaignRunner;
  close(): Promise<void>;
}

export async function startLocalBot(env: Record<string, string> = {}): Promise<LocalBot> {
  // No Slack token: local mode, as `npm start` runs it, with the simulator as the gateway.
  const { bot, close } = await startTestBot({ INBOUND_POLL_SECONDS: '1', ...env });
  return {
    url: `${bot.http.url}/`,
    http: bot.http,
    workspace: bot.workspace!,
    store: bot.store,
    deps: bot.deps,
    app: bot.slack.app,
    control: new SimulatorControl({ url: bot.simulatorUrl! }),
    tracker: bot.tracker,
    relay: bot.relay,
    campaigns: bot.campaigns,
    close,
  };
}

export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

/** Debian's chromium, headless, with a fresh profile that is removed afterwards. */
export async function launchChromium(): Promise<Browser> {
  const profile = mkdtempSync(join(tmpdir(), 'smsops-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    viewport: { width: 1440, height: 900 },
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  context.setDefaultTimeout(10_000);
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

const uncaught = new WeakMap<Page, string[]>();

/** Opens the workspace page and waits until it has loaded its data; uncaught page errors are kept. */
export async function openWorkspace(context: BrowserContext, url: string): Promise<Page> {
  const page = await context.newPage();
  const errors: string[] = [];
  uncaught.set(page, errors);
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(url);
  await page.locator('body[data-ready="1"]').waitFor();
  return page;
}

export interface WorkspaceInBrowser {
  readonly bot: LocalBot;
  /** For a page of a test's own: `openWorkspace(local.browser.context, url)`. */
  readonly browser: Browser;
  readonly page: Page;
}

export interface WorkspaceInBrowserOptions {
  /** Settings of the bot on top of local mode's. */
  env?: Record<string, string>;
  /** What the suite gives the bot before the page opens: listeners of its own, channel history. */
  prepare?: (bot: LocalBot) => Promise<void> | void;
  /** `suite`: one page for every test. `test`: a page of its own for each test, closed after it. */
  pagePer?: 'suite' | 'test';
  /** After each test, the page's own script threw nothing it did not catch. */
  expectNoPageErrors?: boolean;
}

/**
 * The hooks of a browser suite: the bot in local mode and Chromium, started once for the suite and closed
 * after it, and the workspace page open in it. Call it in the describe; its fields are set once the suite has
 * started.
 */
export function useWorkspaceInBrowser(options: WorkspaceInBrowserOptions = {}): WorkspaceInBrowser {
  const { env = {}, prepare, pagePer = 'suite', expectNoPageErrors = true } = options;
  let bot: LocalBot | undefined;
  let browser: Browser | undefined;
  let page: Page | undefined;
  const open = async (): Promise<void> => {
    page = await openWorkspace(browser!.context, bot!.url);
  };

  beforeAll(async () => {
    bot = await startLocalBot(env);
    await prepare?.(bot);
    browser = await launchChromium();
    if (pagePer === 'suite') await open();
  });
  if (pagePer === 'test') {
    beforeEach(async () => {
      // Modals live in the workspace, not the page: one a test left open would cover the next test's page.
      for (const user of Object.values(SEEDED.users)) bot!.workspace.state.views.clear(user);
      await open();
    });
  }
  afterEach(async () => {
    if (expectNoPageErrors) expect(pageErrors(page!)).toEqual([]);
    if (pagePer === 'test') await page?.close();
  });
  afterAll(async () => {
    if (pagePer === 'suite') await page?.close();
    await browser?.close();
    await bot?.close();
  });

  return {
    get bot() {
      return bot!;
    },
    get browser() {
      return browser!;
    },
    get page() {
      return page!;
    },
  };
}

/** Errors the page's own script threw and did not catch. */
export function pageErrors(page: Page): string[] {
  return uncaught.get(page) ?? [];
}

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  const path = join(ARTIFACTS_DIR, `${name}.png`);
  await page.screenshot({ path });
  return path;
}

/** Types a line into the main composer and presses Return, as a person would. */
export async function typeInComposer(page: Page, text: string): Promise<void> {
  const composer = page.locator('#main .composer textarea');
  await composer.click();
  await composer.fill(text);
  await composer.press('Enter');
}

/** expect.poll with room for a loaded CI machine: vitest's default gives up after one second. */
export function eventually<T>(read: () => T | Promise<T>, options: { timeout?: number } = {}) {
  return expect.poll(read, { timeout: 10_000, interval: 50, ...options });
}
