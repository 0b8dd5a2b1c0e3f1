import iconv from 'iconv-lite';
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

describe.skipIf(!hasChromium)(
  `a file of recipients uploaded in the local workspace${hasChromium ? '' : ` (skipped: ${NO_CHROMIUM_REASON})`}`,
  () => {
    let bot: LocalBot;
    let browser: Browser;
    let page: Page;

    beforeAll(async () => {
      bot = await startLocalBot();
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

    it('uploads an Excel semicolon CSV in Windows-1254, reviews what it gave, posts the rejected rows, and sends', async () => {
      const modal = page.getByRole('dialog');
      await typeInComposer(page, '/sms send');
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
      await modal.getByRole('button', { name: 'Review & send' }).click();

      await eventually(() => modal.locator('.modal-title').textContent()).toBe('Confirm send');
      const review = modal.locator('.modal-body');
      await eventually(() => review.textContent()).toContain('Windows-1254, semicolon-separated');
      const text = (await review.textContent()) ?? '';
      expect(text).toMatch(/Rows read\s*4/);
      expect(text).toMatch(/Valid unique recipients\s*2/);
      expect(text).toMatch(/Duplicates merged\s*1/);
      expect(text).toMatch(/Rows rejected\s*1/);
      expect(text).toContain('Line 3: “5,32E+09”');
      await screenshot(page, 'file-01-review');

      await modal.getByRole('button', { name: 'Post the rejected rows as a file' }).click();
      await modal.getByText(/The 1 rejected rows are posted as a file/).waitFor();
      await page
        .locator('#main .messages')
        .getByText(/Rejected rows of müşteriler\.csv|müşteriler-rejected\.csv/)
        .first()
        .waitFor();

      await modal.getByRole('button', { name: 'Send 2 messages' }).click();
      await modal.getByText(/Sent\. Batch \d+ is on its way/).waitFor();
      const row = (await bot.store.outbox.recent(1))[0]!;
      expect(new Set(row.recipients)).toEqual(new Set(['905321234567', '905331234567']));
      await screenshot(page, 'file-02-sent');
    });
  },
);
