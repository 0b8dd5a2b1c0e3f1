import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type Browser,
  eventually,
  hasChromium,
  type LocalBot,
  launchChromium,
  NO_CHROMIUM_REASON,
  openWorkspace,
  pageErrors,
  screenshot,
  startLocalBot,
  typeInComposer,
} from './support.js';

/** Seven numbers in a plain text file, one per line: with chunks of 3 the send is a campaign of 3 chunks. */
const NUMBERS = Array.from({ length: 7 }, (_, i) => `0532 100 00 0${i}`);

describe.skipIf(!hasChromium)(
  `a campaign from an uploaded file in the local workspace${hasChromium ? '' : ` (skipped: ${NO_CHROMIUM_REASON})`}`,
  () => {
    let bot: LocalBot;
    let browser: Browser;
    let page: Page;

    beforeAll(async () => {
      bot = await startLocalBot({ SUBMIT_CHUNK_SIZE: '3', SUBMIT_CHUNK_INTERVAL_MS: '0' });
      browser = await launchChromium();
      page = await openWorkspace(browser.context, bot.url);
    });
    afterEach(() => {
      expect(pageErrors(page)).toEqual([]);
    });
    afterAll(async () => {
      await page?.close();
      await browser?.close();
      await bot?.close();
    });

    it('uploads a .txt of numbers, confirms a campaign of chunks, and follows it on one card', async () => {
      const modal = page.getByRole('dialog');
      await typeInComposer(page, '/sms send');
      await modal.getByLabel('…or a file of numbers').waitFor();
      await modal.getByLabel('…or a file of numbers').setInputFiles({
        name: 'numbers.txt',
        mimeType: 'text/plain',
        buffer: Buffer.from(`${NUMBERS.join('\n')}\n`),
      });
      await modal.getByText('numbers.txt').waitFor();
      await modal.getByLabel('Message').fill('Campaign from a file');
      await modal.getByRole('button', { name: 'Review & send' }).click();

      await eventually(() => modal.locator('.modal-title').textContent()).toBe('Confirm send');
      const review = modal.locator('.modal-body');
      await eventually(() => review.textContent()).toMatch(/Valid unique recipients\s*7/);
      expect(await review.textContent()).toMatch(/campaign of 3 chunks/);
      await modal.getByRole('button', { name: 'Send 7 messages' }).click();
      await modal.getByText(/Campaign \S+ started: 7 recipients in 3 chunks/).waitFor();

      // The chunks go as the runner passes (not started in tests): each through the one send path.
      const card = page
        .locator('#main .messages')
        .getByText(/Chunks submitted/)
        .first();
      await card.waitFor();
      await eventually(async () => {
        await bot.campaigns.tick();
        return (await bot.control.state()).batches.length;
      }).toBe(3);
      await page
        .locator('#main .messages')
        .getByText(/3 of 3/)
        .first()
        .waitFor();
      await modal.locator('[data-op="modal-x"]').click();
      await page
        .locator('#main .messages')
        .getByText(/Sent 7 · Not sent 0/)
        .first()
        .waitFor();
      const batches = (await bot.control.state()).batches;
      expect(batches.map((b) => b.recipients.length)).toEqual([3, 3, 1]);
      await screenshot(page, 'campaign-01-card');
    });
  },
);
