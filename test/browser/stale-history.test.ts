import { WebClient } from '@slack/web-api';
import type { Page, Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { SEEDED } from '../../workspace/index.js';
import { hasChromium, NO_CHROMIUM_REASON, useWorkspaceInBrowser } from './support.js';

/**
 * Opens a channel whose history answer is read before `meanwhile` runs and reaches the page after it: what a
 * slow answer does when the bot changes a message meanwhile (a report that is ready as its DM opens). Resolves
 * once the page has shown the channel from that answer.
 */
async function openWhileChanging(page: Page, channel: string, meanwhile: () => Promise<void>): Promise<void> {
  let snapshotTaken!: () => void;
  const snapshot = new Promise<void>((resolve) => {
    snapshotTaken = resolve;
  });
  let releaseSnapshot!: () => void;
  const released = new Promise<void>((resolve) => {
    releaseSnapshot = resolve;
  });
  let held = false;
  const hold = async (route: Route) => {
    // The first answer only: the page's later asks (a resync's) go through.
    if (held) return route.fallback();
    held = true;
    const response = await route.fetch();
    snapshotTaken();
    await released;
    await route.fulfill({ response });
  };
  const isHistory = (url: URL) =>
    url.pathname === '/_ws/history' && url.searchParams.get('channel') === channel;
  await page.route(isHistory, hold);
  try {
    await page.locator(`.side-item[data-go="${channel}"]`).click();
    await snapshot;
    await meanwhile();
    releaseSnapshot();
    // go() renders the channel in the same task as it sets the address: what shows then is what stays.
    await page.waitForURL(new RegExp(`#/${channel}$`));
  } finally {
    await page.unroute(isHistory, hold);
  }
}

describe.skipIf(!hasChromium)(
  `a channel opened in the local workspace${hasChromium ? '' : ` (skipped: ${NO_CHROMIUM_REASON})`}`,
  () => {
    let client: WebClient;
    const posted: Record<string, string> = {};
    const local = useWorkspaceInBrowser({
      prepare: async (bot) => {
        client = new WebClient(bot.workspace.botToken, {
          slackApiUrl: bot.workspace.apiUrl,
          retryConfig: { retries: 0 },
        });
        for (const [channel, text] of [
          [SEEDED.channels.general, 'Report: 0 of 1 sends read'],
          [SEEDED.channels.alerts, 'Balance is low'],
        ] as const) {
          posted[channel] = (await client.chat.postMessage({ channel, text })).ts!;
        }
      },
    });
    const messages = () => local.page.locator('#main .messages');

    it('keeps a message edited while its history was loading, as the edit left it', async () => {
      const channel = SEEDED.channels.general;
      await openWhileChanging(local.page, channel, async () => {
        await client.chat.update({ channel, ts: posted[channel]!, text: 'Report is ready: 1 send' });
        await messages().locator('.msg', { hasText: 'Report is ready: 1 send' }).waitFor();
      });
      const shown = await messages().locator('.msg', { hasText: 'Report' }).allTextContents();
      expect(shown).toEqual([expect.stringContaining('Report is ready: 1 send')]);
    });

    it('does not bring back a message deleted while its history was loading', async () => {
      const channel = SEEDED.channels.alerts;
      await openWhileChanging(local.page, channel, async () => {
        await client.chat.delete({ channel, ts: posted[channel]! });
        // The deletion reached the page: it drew the channel it is opening, without the message.
        await messages().getByText('This is the very beginning of the #alerts channel').waitFor();
      });
      expect(await messages().getByText('Balance is low').count()).toBe(0);
    });

    it('drops a history answer asked for before a switch of user, and with it a message deleted since', async () => {
      const { page } = local;
      const channel = SEEDED.channels.general;
      const ts = (await client.chat.postMessage({ channel, text: 'Campaign paused' })).ts!;
      await openWhileChanging(page, channel, async () => {
        // Deleted after the answer was read, before the page loads everything again as another user.
        await client.chat.delete({ channel, ts });
        const alice = SEEDED.users.alice;
        await Promise.all([
          page.waitForResponse((r) => r.url().includes('/_ws/history?') && r.url().includes(`user=${alice}`)),
          page.selectOption('#user-switch', alice),
        ]);
      });
      await page.locator(`.side-item[data-go="${channel}"]`).click();
      await messages().getByText('This is the very beginning of the #general channel').waitFor();
      expect(await messages().getByText('Campaign paused').count()).toBe(0);
    });
  },
);
