import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { WebClient } from '@slack/web-api';
import { describe, expect, it } from 'vitest';
import { DigestScheduler } from '../../src/jobs/digest-scheduler.js';
import { silentLogger } from '../../src/log.js';
import { SlackDigestPoster } from '../../src/slack/digest-poster.js';
import { SEEDED } from '../../workspace/index.js';
import { eventually, hasChromium, NO_CHROMIUM_REASON, screenshot, useWorkspaceInBrowser } from './support.js';

/** Every :shortcode: the bot's source writes (`:memory:` is SQLite's, not an emoji). */
function shortcodesTheAppUses(): string[] {
  const names = new Set<string>();
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir)) {
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) walk(path);
      else if (path.endsWith('.ts')) {
        for (const m of readFileSync(path, 'utf8').matchAll(
          /(?<![\w:]):([a-z][a-z0-9_+-]*[a-z0-9]):(?![\w:])/g,
        )) {
          names.add(m[1]!);
        }
      }
    }
  };
  walk(join(process.cwd(), 'src'));
  names.delete('memory');
  return [...names].sort();
}

/** Whether fontconfig, where Chromium finds its fonts on Linux, has any font that draws 🎉. */
function machineHasEmojiFont(): boolean {
  try {
    return execFileSync('fc-list', [':charset=1f389'], { encoding: 'utf8' }).trim() !== '';
  } catch {
    return true;
  }
}

describe.skipIf(!hasChromium)(
  `emoji and the digest chart in the local workspace${hasChromium ? '' : ` (skipped: ${NO_CHROMIUM_REASON})`}`,
  () => {
    let client: WebClient;
    const local = useWorkspaceInBrowser({
      prepare: (bot) => {
        client = new WebClient(bot.workspace.botToken, {
          slackApiUrl: bot.workspace.apiUrl,
          retryConfig: { retries: 0 },
        });
      },
    });

    it('draws every emoji the bot uses as an image, with no emoji font on the machine', async () => {
      const names = shortcodesTheAppUses();
      expect(names.length).toBeGreaterThan(30);
      await client.chat.postMessage({
        channel: SEEDED.channels.smsOps,
        text: `Emoji check ${names.map((n) => `:${n}:`).join(' ')}`,
      });
      const message = local.page.locator('#main .msg', { hasText: 'Emoji check' });
      await message.waitFor();
      const drawn = await message.locator('.msg-text').evaluate((el) =>
        [...el.querySelectorAll('.emoji')].map((e) => ({
          name: e.getAttribute('title'),
          image: e.querySelector('svg, img') !== null,
          width: e.getBoundingClientRect().width,
        })),
      );
      expect(drawn.map((d) => d.name)).toEqual(names.map((n) => `:${n}:`));
      expect(drawn.filter((d) => !d.image).map((d) => d.name)).toEqual([]);
      expect(drawn.every((d) => d.width > 10)).toBe(true);
      // Nothing is left as a bare :name: either.
      expect(await message.locator('.msg-text').textContent()).not.toMatch(/:[a-z_]+:/);
      await screenshot(local.page, 'emoji-01-app-emoji');
    });

    it('an emoji with no image shows its :name: where the browser has no colour emoji font, never an empty box', async () => {
      await client.chat.postMessage({ channel: SEEDED.channels.smsOps, text: 'Party :tada:' });
      const emoji = local.page.locator('#main .msg', { hasText: 'Party' }).locator('.emoji');
      await emoji.waitFor({ state: 'attached' });
      // A string: the test is type-checked without the DOM's types.
      const shown = (await local.page.evaluate(`(() => {
        const el = [...document.querySelectorAll('#main .msg')].find((m) => m.textContent.includes('Party')).querySelector('.emoji');
        return {
          after: getComputedStyle(el, '::after').content,
          fontSize: getComputedStyle(el).fontSize,
          width: el.getBoundingClientRect().width,
        };
      })()`)) as { after: string; fontSize: string; width: number };
      if (!machineHasEmojiFont()) {
        expect(shown).toMatchObject({ after: '":tada:"', fontSize: '0px' });
        expect(shown.width).toBeGreaterThan(20);
      } else {
        // With an emoji font the character itself is drawn.
        expect(shown.after).toBe('none');
        expect(shown.width).toBeGreaterThan(10);
      }
      await screenshot(local.page, 'emoji-02-no-image');
    });

    it('the statistics digest’s chart fits the thread pane', async () => {
      const poster = new SlackDigestPoster({ client, logger: silentLogger });
      const digests = new DigestScheduler({
        gateway: local.bot.deps.gateway,
        store: local.bot.store,
        poster,
        logger: silentLogger,
        settings: {
          reportTimeZone: 'Europe/Istanbul',
          simulated: true,
          instanceId: 'page',
          minIntervalSeconds: 1,
        },
      });
      await local.bot.store.subscriptions.add(
        SEEDED.channels.smsOps,
        { kind: 'digest', digest: 'stats', cron: '* * * * *', timezone: 'Europe/Istanbul' },
        SEEDED.users.admin,
        new Date(Date.now() - 3_600_000),
      );
      expect((await digests.tick())[0]?.outcome).toBe('posted');
      const digest = local.page.locator('#main .msg', { hasText: 'Monthly statistics digest' });
      await digest.locator('.thread-summary').click();
      const chart = local.page.locator('#thread .messages img');
      await chart.waitFor();
      await eventually(() =>
        chart.evaluate(
          (img) => (img as unknown as { complete: boolean; naturalWidth: number }).naturalWidth > 900,
        ),
      ).toBe(true);
      const fit = (await local.page.evaluate(`(() => {
        const pane = document.querySelector('#thread').getBoundingClientRect();
        const box = document.querySelector('#thread .messages');
        const img = box.querySelector('img').getBoundingClientRect();
        return {
          inside: img.left >= pane.left && img.right <= pane.right,
          scrollsSideways: box.scrollWidth > box.clientWidth,
          width: img.width,
        };
      })()`)) as { inside: boolean; scrollsSideways: boolean; width: number };
      expect(fit).toMatchObject({ inside: true, scrollsSideways: false });
      expect(fit.width).toBeGreaterThan(200);
      await screenshot(local.page, 'emoji-03-chart-in-thread');
    });
  },
);
