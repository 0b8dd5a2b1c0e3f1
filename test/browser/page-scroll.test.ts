import { WebClient } from '@slack/web-api';
import { beforeAll, describe, it } from 'vitest';
import { SEEDED } from '../../workspace/index.js';
import {
  eventually,
  hasChromium,
  NO_CHROMIUM_REASON,
  screenshot,
  typeInComposer,
  useWorkspaceInBrowser,
} from './support.js';

/** Where a message is against the channel's pane, in pixels of the viewport. */
interface Placement {
  top: number;
  bottom: number;
  paneTop: number;
  paneBottom: number;
}

describe.skipIf(!hasChromium)(
  `sending in the local workspace shows the answer${hasChromium ? '' : ` (skipped: ${NO_CHROMIUM_REASON})`}`,
  () => {
    const local = useWorkspaceInBrowser({
      prepare: async (bot) => {
        // A channel with history: a message of sixty lines, more than the pane shows at once.
        const client = new WebClient(bot.workspace.botToken, {
          slackApiUrl: bot.workspace.apiUrl,
          retryConfig: { retries: 0 },
        });
        const lines = Array.from({ length: 60 }, (_, i) => `Earlier line ${i + 1}`);
        await client.chat.postMessage({ channel: SEEDED.channels.smsOps, text: lines.join('\n') });
      },
    });
    beforeAll(async () => {
      await local.page
        .locator('#main .messages')
        .getByText(/Earlier line 60/)
        .waitFor();
    });

    async function scrollToTop(): Promise<void> {
      const box = local.page.locator('#main .messages');
      await box.evaluate((el) => {
        el.scrollTop = 0;
      });
      await eventually(() => box.evaluate((el) => el.scrollTop)).toBe(0);
    }

    function placementOf(text: string): Promise<Placement | undefined> {
      return local.page.locator('#main .messages').evaluate((box, wanted) => {
        const all = [...box.querySelectorAll('.msg[data-eph="1"]')].filter((m) =>
          (m.textContent ?? '').includes(wanted),
        );
        const el = all.at(-1);
        if (!el) return undefined;
        const pane = box.getBoundingClientRect();
        const rect = el.getBoundingClientRect();
        return { top: rect.top, bottom: rect.bottom, paneTop: pane.top, paneBottom: pane.bottom };
      }, text);
    }

    it('a command sent while the channel is scrolled up shows its answer, as Slack jumps to the bottom', async () => {
      await scrollToTop();
      await typeInComposer(local.page, '/sms balance');
      await eventually(() => placementOf('Usable')).toBeDefined();
      await eventually(async () => {
        const p = (await placementOf('Usable'))!;
        return p.top >= p.paneTop && p.bottom <= p.paneBottom + 1;
      }).toBe(true);
      await screenshot(local.page, 'scroll-01-balance-answer');
    });

    it('an answer taller than the pane is shown from its first line', async () => {
      await scrollToTop();
      await typeInComposer(local.page, '/sms help');
      await eventually(() => placementOf('/sms subcommands')).toBeDefined();
      await eventually(async () => {
        const p = (await placementOf('/sms subcommands'))!;
        // Taller than the pane: its top is in view, not its end.
        return p.bottom - p.top > p.paneBottom - p.paneTop && p.top >= p.paneTop && p.top < p.paneTop + 120;
      }).toBe(true);
      await screenshot(local.page, 'scroll-02-help-from-its-start');
    });
  },
);
