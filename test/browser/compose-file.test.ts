import iconv from 'iconv-lite';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  eventually,
  hasChromium,
  type LocalBot,
  NO_CHROMIUM_REASON,
  openWorkspace,
  pageErrors,
  screenshot,
  startLocalBot,
  typeInComposer,
  useWorkspaceInBrowser,
} from './support.js';

describe.skipIf(!hasChromium)(
  `a file of recipients uploaded in the local workspace${hasChromium ? '' : ` (skipped: ${NO_CHROMIUM_REASON})`}`,
  () => {
    const local = useWorkspaceInBrowser();

    it('uploads an Excel semicolon CSV in Windows-1254, reviews what it gave, sends the rejected rows to the user, and sends', async () => {
      const modal = local.page.getByRole('dialog');
      await typeInComposer(local.page, '/sms send');
      await modal.getByLabel('…or a file of numbers').waitFor();
      await modal.getByLabel('…or a file of numbers').setInputFiles({
        name: 'müşteriler.csv',
        mimeType: 'text/csv',
        buffer: iconv.encode(
          'Adı Soyadı;Cep Telefonu\r\nAyşe Yılmaz;0532 123 45 67\r\nÇağrı;5,32E+09\r\nOğuz;5331234567\r\nAli;05321234567\r\n',
          'win1254',
        ),
      });
      await modal.getByText('müşteriler.csv').waitFor();
      await modal.getByLabel('Message').fill('Kampanya başladı.');
      await modal.getByRole('button', { name: 'Review' }).click();

      await eventually(() => modal.locator('.modal-title').textContent()).toBe('Confirm send');
      const review = modal.locator('.modal-body');
      await eventually(() => review.textContent()).toContain('Windows-1254, semicolon-separated');
      const text = (await review.textContent()) ?? '';
      expect(text).toMatch(/Rows read\s*4/);
      expect(text).toMatch(/Valid unique recipients\s*2/);
      expect(text).toMatch(/Duplicates merged\s*1/);
      expect(text).toMatch(/Rows rejected\s*1/);
      expect(text).toContain('Line 3: “5,32E+09”');
      await screenshot(local.page, 'file-01-review');

      await modal.getByRole('button', { name: 'Send me the rejected rows as a file' }).click();
      await modal
        .getByText(/The 1 rejected rows are sent to you as a file, in your direct messages/)
        .waitFor();

      await modal.getByRole('button', { name: 'Send 2 messages' }).click();
      await modal.getByText(/Sent\. Batch \d+ is on its way/).waitFor();
      const row = (await local.bot.store.outbox.recent(1))[0]!;
      expect(new Set(row.recipients)).toEqual(new Set(['905321234567', '905331234567']));
      await screenshot(local.page, 'file-02-sent');

      // The file is in the user's messages with the app, not in the channel.
      // The result was pushed over the form: X closes the view on top, as in Slack, until none is left.
      await eventually(async () => {
        if ((await modal.count()) > 0) {
          await modal
            .locator('[data-op="modal-x"]')
            .click({ timeout: 1_000 })
            .catch(() => undefined);
        }
        return modal.count();
      }).toBe(0);
      await local.page.locator('#dm-list li').click();
      await local.page
        .locator('#main .messages')
        .getByText(/Rejected rows of müşteriler\.csv|müşteriler-rejected\.csv/)
        .first()
        .waitFor();
      await screenshot(local.page, 'file-03-rejected-rows-dm');
    });

    it('uploads a .txt of numbers, confirms a campaign of chunks, and follows it on one card', async () => {
      // A bot of its own with chunks of 3: the file's seven numbers are a campaign of 3 chunks.
      const campaignBot = await startLocalBot({ SUBMIT_CHUNK_SIZE: '3', SUBMIT_CHUNK_INTERVAL_MS: '0' });
      const campaignPage = await openWorkspace(local.browser.context, campaignBot.url);
      try {
        await sendCampaignFromFile(campaignBot, campaignPage);
        expect(pageErrors(campaignPage)).toEqual([]);
      } finally {
        await campaignPage.close();
        await campaignBot.close();
      }
    });
  },
);

/** Seven numbers in a plain text file, one per line. */
const NUMBERS = Array.from({ length: 7 }, (_, i) => `0532 100 00 0${i}`);

async function sendCampaignFromFile(bot: LocalBot, page: Page): Promise<void> {
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
  await modal.getByRole('button', { name: 'Review' }).click();

  await eventually(() => modal.locator('.modal-title').textContent()).toBe('Confirm send');
  const review = modal.locator('.modal-body');
  await eventually(() => review.textContent()).toMatch(/Valid unique recipients\s*7/);
  expect(await review.textContent()).toMatch(/campaign of 3 chunks/);
  await modal.getByRole('button', { name: 'Send 7 messages' }).click();
  await modal.getByText(/Campaign \S+ started: 7 recipients in 3 chunks/).waitFor();

  // One card for the campaign; its chunks go as the runner passes (not started in tests), each through the
  // one send path.
  const messages = page.locator('#main .messages');
  await messages
    .getByText(/Chunks submitted/)
    .first()
    .waitFor();
  await eventually(async () => {
    await bot.campaigns.tick();
    return (await bot.control.state()).batches.length;
  }).toBe(3);
  await modal.locator('[data-op="modal-x"]').click();
  await messages
    .getByText(/Sent 7 · Not sent 0/)
    .first()
    .waitFor();
  const batches = (await bot.control.state()).batches;
  expect(batches.map((b) => b.recipients.length)).toEqual([3, 3, 1]);
  await screenshot(page, 'campaign-01-card');
}
