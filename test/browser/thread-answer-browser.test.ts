import { describe, expect, it } from 'vitest';
import { eventually, hasChromium, NO_CHROMIUM_REASON, screenshot, useWorkspaceInBrowser } from './support.js';

/** Answer in the thread and the workflow step panel, as a person uses them in the local workspace page. */
describe.skipIf(!hasChromium)(
  `answer in the thread and workflow steps in a real browser${hasChromium ? '' : ` (skipped: ${NO_CHROMIUM_REASON})`}`,
  () => {
    const local = useWorkspaceInBrowser({ pagePer: 'test' });

    it('@smsops in the thread of an inbound SMS: a private preview, then Send puts the card in the thread', async () => {
      await local.bot.control.inbound([
        { MSISDN: '905327654321', Text: 'Can I pick it up today?', Recipient: 'ACME' },
      ]);
      await local.bot.relay.pollOnce();
      const post = local.page.locator('#main .messages .msg', { hasText: 'Can I pick it up today?' });
      await post.waitFor();
      await post.hover();
      await post.getByRole('button', { name: 'Reply in thread' }).click();
      const thread = local.page.getByRole('complementary', { name: 'Thread' });
      const composer = thread.locator('.composer textarea');
      await composer.fill('@smsops Yes, until 18:00');
      await composer.press('Enter');
      const preview = thread.locator('.msg.ephemeral', { hasText: 'Send this SMS to +90 532 765 43 21?' });
      await preview.waitFor();
      await preview.getByText('From ACME').waitFor();
      await screenshot(local.page, 'thread-answer-preview');
      const submits = await local.bot.control.callCount('Submit');
      await preview.getByRole('button', { name: 'Send' }).click();
      await thread.locator('.msg', { hasText: /SMS batch \d+/ }).waitFor();
      await thread.locator('.msg.ephemeral', { hasText: /Sent\. Batch \d+/ }).waitFor();
      expect(await local.bot.control.callCount('Submit')).toBe(submits + 1);
      await screenshot(local.page, 'thread-answer-sent');
    });

    it('the workflow step panel runs a step and shows its error, then its outputs', async () => {
      await local.page.getByRole('button', { name: 'Simulator' }).click();
      const panel = local.page.getByRole('complementary', { name: 'Gateway simulator' });
      await panel.getByLabel('Step').selectOption({ label: 'Get SMS balance' });
      await panel.getByRole('button', { name: 'Run step' }).click();
      await eventually(() => panel.locator('#step-result').textContent()).toMatch(
        /Failed · .*\/sms workflows on/,
      );
      await local.bot.store.appSettings.set('workflows', 'on', 'U0ADMIN');
      await panel.getByRole('button', { name: 'Run step' }).click();
      await eventually(() => panel.locator('#step-result').textContent()).toMatch(
        /Completed · outputs \{"usable":/,
      );
      await panel.getByLabel('Step').selectOption({ label: 'Send an SMS' });
      await panel.getByLabel('Recipients').fill('0532 123 45 67');
      await panel.getByLabel('Message').fill('From the panel');
      await panel.getByRole('button', { name: 'Run step' }).click();
      await eventually(() => panel.locator('#step-result').textContent()).toMatch(
        /Completed · outputs \{"message_id":"\d+","recipients":1\}/,
      );
      await screenshot(local.page, 'workflow-step-panel');
    });
  },
);
