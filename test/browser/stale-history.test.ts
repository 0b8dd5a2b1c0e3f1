import { WebClient } from '@slack/web-api';
import { describe, expect, it } from 'vitest';
import { SEEDED } from '../../workspace/index.js';
import { hasChromium, NO_CHROMIUM_REASON, useWorkspaceInBrowser } from './support.js';

describe.skipIf(!hasChromium)(
  `a channel opened in the local workspace${hasChromium ? '' : ` (skipped: ${NO_CHROMIUM_REASON})`}`,
  () => {
    let progressTs = '';
    let client: WebClient;
    const local = useWorkspaceInBrowser({
      prepare: async (bot) => {
        client = new WebClient(bot.workspace.botToken, {
          slackApiUrl: bot.workspace.apiUrl,
          retryConfig: { retries: 0 },
        });
        const posted = await client.chat.postMessage({
          channel: SEEDED.channels.general,
          text: 'Report: 0 of 1 sends read',
        });
        progressTs = posted.ts!;
      },
    });

    it('keeps a message edited while its history was loading, as the edit left it', async () => {
      const { page } = local;
      const general = SEEDED.channels.general;
      let snapshotTaken!: () => void;
      const snapshot = new Promise<void>((resolve) => {
        snapshotTaken = resolve;
      });
      let releaseSnapshot!: () => void;
      const released = new Promise<void>((resolve) => {
        releaseSnapshot = resolve;
      });
      // The history answer is read before the edit and reaches the page after it: what a slow answer does
      // when the bot edits its progress message meanwhile (a report that is ready as its DM opens).
      await page.route(
        (url) => url.pathname === '/_ws/history' && url.searchParams.get('channel') === general,
        async (route) => {
          const response = await route.fetch();
          snapshotTaken();
          await released;
          await route.fulfill({ response });
        },
      );
      await page.locator(`.side-item[data-go="${general}"]`).click();
      await snapshot;
      await client.chat.update({ channel: general, ts: progressTs, text: 'Report is ready: 1 send' });
      const messages = page.locator('#main .messages');
      await messages.locator('.msg', { hasText: 'Report is ready: 1 send' }).waitFor();
      releaseSnapshot();
      await page.waitForURL(new RegExp(`#/${general}$`));

      // go() renders the channel in the same task as it sets the address: what shows now is what stays.
      const shown = await messages.locator('.msg', { hasText: 'Report' }).allTextContents();
      expect(shown).toEqual([expect.stringContaining('Report is ready: 1 send')]);
    });
  },
);
