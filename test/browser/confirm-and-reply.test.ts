import { describe, expect, it } from 'vitest';
import {
  eventually,
  hasChromium,
  NO_CHROMIUM_REASON,
  screenshot,
  typeInComposer,
  useWorkspaceInBrowser,
} from './support.js';

describe.skipIf(!hasChromium)(
  `sending and replying from modals in the local workspace${hasChromium ? '' : ` (skipped: ${NO_CHROMIUM_REASON})`}`,
  () => {
    // Three recipients or more are confirmed first.
    const local = useWorkspaceInBrowser({ env: { CONFIRM_RECIPIENTS: '2' } });

    it('after Send on the confirmation, one modal shows the result and one click closes it', async () => {
      const modal = local.page.getByRole('dialog');
      await typeInComposer(local.page, '/sms send');
      await modal.getByLabel('Recipients').waitFor();
      await modal.getByLabel('Recipients').fill('0532 111 11 11\n0532 111 11 12\n0532 111 11 13');
      await modal.getByLabel('Message').fill('Confirmed send');
      await modal.locator('[data-op="modal-submit"]').click();
      await eventually(() => modal.locator('.modal-title').textContent()).toBe('Confirm send');
      await modal.getByRole('button', { name: /^Send 3/ }).click();
      await modal.getByText(/Sent\. Batch \d+ is on its way/).waitFor();
      await screenshot(local.page, 'confirm-01-result');
      await modal.locator('[data-op="modal-x"]').click();
      await eventually(() => modal.count()).toBe(0);
      // Nothing was left underneath to close a second time.
      expect(await local.page.locator('.modal').count()).toBe(0);
    });

    it('Reply shows the SMS being answered, and the result says the card is in its thread', async () => {
      await local.bot.control.inbound({ MSISDN: '905551112233', Text: 'Siparişim nerede? Order 4711' });
      await local.bot.relay.pollOnce();
      const post = local.page.locator('#main .msg', { hasText: 'Siparişim nerede?' });
      await post.getByRole('button', { name: 'Reply' }).click();
      const modal = local.page.getByRole('dialog');
      await modal.getByLabel('Message').waitFor();
      const body = modal.locator('.modal-body');
      await eventually(() => body.textContent()).toContain('Replying to +90 555 111 22 33');
      expect(await body.textContent()).toContain('Siparişim nerede? Order 4711');
      await screenshot(local.page, 'reply-01-modal');

      await modal.getByLabel('Message').fill('Kargoda, yarın elinizde.');
      // Typing rebuilds the modal (its estimate follows the text): the quoted SMS stays.
      await eventually(() => body.textContent()).toContain('24 characters');
      expect(await body.textContent()).toContain('Siparişim nerede? Order 4711');

      await modal.locator('[data-op="modal-submit"]').click();
      await eventually(() => body.textContent()).toMatch(/Sent\. Batch \d+ is on its way/);
      expect(await body.textContent()).toMatch(
        /its delivery card is in the thread of the SMS you answered, in #sms-ops/,
      );
      await screenshot(local.page, 'reply-02-result');
      await modal.locator('[data-op="modal-x"]').click();
      await eventually(() => modal.count()).toBe(0);
      // And it is there: the card in the SMS's thread.
      await post.locator('.thread-summary').click();
      await local.page
        .locator('#thread .messages')
        .getByText(/Kargoda, yarın elinizde\./)
        .first()
        .waitFor();
    });
  },
);
