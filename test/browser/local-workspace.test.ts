import { describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../src/simulator/types.js';
import { SUBCOMMAND_NAMES } from '../../src/slack/commands/catalogue.js';
import { SEEDED } from '../../workspace/index.js';
import {
  eventually,
  hasChromium,
  NO_CHROMIUM_REASON,
  openWorkspace,
  pageErrors,
  screenshot,
  typeInComposer,
  useWorkspaceInBrowser,
} from './support.js';

const THREE = '0532 123 45 67\n+90 533 123 45 67, 905341234567';

describe.skipIf(!hasChromium)(
  `local workspace in a real browser${hasChromium ? '' : ` (skipped: ${NO_CHROMIUM_REASON})`}`,
  () => {
    const local = useWorkspaceInBrowser({ pagePer: 'test' });

    const modal = () => local.page.getByRole('dialog');
    const messages = () => local.page.locator('#main .messages');

    /** The modal's "Sent. Batch N is on its way" once it shows; N is the gateway's MessageId. */
    async function sentBatchId(): Promise<string> {
      const sent = modal().getByText(/Sent\. Batch \d+ is on its way/);
      await sent.waitFor();
      return /Batch (\d+)/.exec((await sent.textContent()) ?? '')![1]!;
    }

    async function openCompose(): Promise<void> {
      await typeInComposer(local.page, '/sms send');
      // The loading view first, then the compose form once senders, lists and templates are in.
      await modal().getByLabel('Recipients').waitFor();
      await eventually(() => modal().locator('.modal-title').textContent()).toBe('Send SMS');
    }

    it('/sms help: the usage hint while typing, then the subcommand list, only visible to the user', async () => {
      // Alice has the workspace open too, in another window.
      const alicePage = await openWorkspace(local.browser.context, local.bot.url);
      await alicePage.locator('#user-switch').selectOption(SEEDED.users.alice);
      await alicePage.locator('#main .channel-intro').waitFor();

      const composer = local.page.locator('#main .composer textarea');
      await composer.click();
      await composer.pressSequentially('/sm');
      const popup = local.page.locator('#main .slash-popup');
      await popup.getByText('/sms', { exact: true }).waitFor();
      await eventually(() => popup.textContent()).toContain('help | send [numbers] [text]');
      await composer.pressSequentially('s help');
      await composer.press('Enter');

      const help = messages().locator('.msg.ephemeral', { hasText: 'smsops: /sms subcommands' });
      await help.waitFor();
      await eventually(() => help.locator('.ephemeral-note').textContent()).toContain('Only visible to you');
      // Block Kit as Slack shows it: a header, bold group names, code spans for each usage.
      await help.locator('.bk-header', { hasText: 'smsops: /sms subcommands' }).waitFor();
      await help.locator('b', { hasText: 'Send' }).first().waitFor();
      await help.locator('code.mk-code', { hasText: '/sms send [numbers…] [text]' }).waitFor();
      await eventually(() => popup.isHidden()).toBe(true);
      await screenshot(local.page, '01-sms-help');

      // Alice's window got the same live events, and shows none of it.
      await alicePage.locator('#main .composer textarea').fill('/sms help');
      await alicePage.locator('#main .composer textarea').press('Enter');
      await alicePage.locator('#main .msg.ephemeral', { hasText: 'smsops: /sms subcommands' }).waitFor();
      expect(await alicePage.locator('#main .msg.ephemeral').count()).toBe(1);
      expect(await messages().locator('.msg.ephemeral').count()).toBe(1);
      expect(pageErrors(alicePage)).toEqual([]);
      await alicePage.close();
    });

    it('compose and send to three numbers, then see the delivery card fill in', async () => {
      await openCompose();
      await modal().getByLabel('Recipients').fill(THREE);
      await modal().getByLabel('Message').fill('Your order is ready');
      // dispatch_action: the bot updates the estimate line while the user types.
      await eventually(() => modal().locator('.bk-context').allTextContents()).toEqual(
        expect.arrayContaining([expect.stringMatching(/3 recipients/)]),
      );
      await eventually(() => modal().getByLabel('Recipients').inputValue()).toBe(THREE);
      await screenshot(local.page, '02-compose-filled');
      await modal().getByRole('button', { name: 'Send now' }).click();
      const messageId = await sentBatchId();
      await screenshot(local.page, '03-compose-sent');
      await modal().locator('.modal-foot').getByRole('button', { name: 'Close' }).click();
      await modal().waitFor({ state: 'detached' });

      const card = messages().locator('.msg', { hasText: `SMS batch ${messageId}` });
      await card.waitFor();
      await card.locator('.bk-field', { hasText: 'Recipients' }).getByText('3').waitFor();
      await card.getByRole('button', { name: 'Refresh' }).waitFor();
      await card.getByRole('button', { name: 'Cancel' }).waitFor();

      // The simulator panel moves the deliveries on; the tracker's next poll updates the card in place.
      await local.page.getByRole('button', { name: 'Simulator' }).click();
      const panel = local.page.getByRole('complementary', { name: 'Gateway simulator' });
      // A fault can be aimed at any operation the simulator knows, from its one list.
      expect(await panel.getByLabel('Operation').locator('option').allTextContents()).toEqual([
        '(any)',
        ...OPERATIONS,
      ]);
      await panel.getByLabel('Delivered share (%)').fill('100');
      await panel.getByRole('button', { name: 'Advance deliveries' }).click();
      await eventually(() => panel.locator('#sim-result').textContent()).toContain('3 delivered');
      const row = (await local.bot.store.outbox.recent(1))[0]!;
      await local.bot.tracker.pollNow(row.id);
      await card.getByText(/Final: Delivered/).waitFor();
      await eventually(() => card.textContent()).toContain('3 delivered');
      await eventually(() => card.getByRole('button', { name: 'Refresh' }).count()).toBe(0);
      await eventually(() => card.locator('.edited').count()).toBe(1);
      await screenshot(local.page, '04-card-delivered');
    });

    it('shows the bot’s validation errors under the field and sends nothing', async () => {
      const sendsBefore = (await local.bot.store.outbox.recent(100)).length;
      const submitsBefore = await local.bot.control.callCount('Submit');
      await openCompose();
      await modal().getByLabel('Recipients').fill('0532 123 45 67\n12\nhello');
      await modal().getByLabel('Message').fill('Hi');
      await modal().getByRole('button', { name: 'Send now' }).click();
      const field = modal().locator('.bk-input-block', { has: local.page.getByLabel('Recipients') });
      const error = field.getByRole('alert');
      await error.waitFor();
      await eventually(() => error.textContent()).toMatch(/Line 2: “12” — too short/);
      await eventually(() => error.textContent()).toMatch(/Line 3: “hello” — not a phone number/);
      // The modal stays open with what was typed, as in Slack.
      await eventually(() => modal().getByLabel('Recipients').inputValue()).toBe('0532 123 45 67\n12\nhello');
      await screenshot(local.page, '05-validation-error');
      expect((await local.bot.store.outbox.recent(100)).length).toBe(sendsBefore);
      expect(await local.bot.control.callCount('Submit')).toBe(submitsBefore);
    });

    it('inbound SMS: injected in the simulator panel, posted in the channel, answered from its thread', async () => {
      await local.page.getByRole('button', { name: 'Simulator' }).click();
      const panel = local.page.getByRole('complementary', { name: 'Gateway simulator' });
      await panel.getByLabel('From (MSISDN)').fill('+90 532 765 43 21');
      await panel.getByLabel('Text').fill('Is my order *ready*? <!channel>');
      await panel.getByRole('button', { name: 'Inject inbound SMS' }).click();
      await eventually(() => panel.locator('#sim-result').textContent()).toMatch(
        /Inbound SMS \d+ is waiting/,
      );
      // The relay's next Receive poll posts it, exactly as it would into Slack.
      await local.bot.relay.pollOnce();
      // The bot escapes &, < and > but not Slack's formatting: Slack shows *ready* bold, and <!channel> as text.
      const post = messages().locator('.msg', { hasText: 'Is my order ready? <!channel>' });
      await post.waitFor();
      await post.locator('.mk-quote b', { hasText: 'ready' }).waitFor();
      await eventually(() => post.locator('.mk-broadcast').count()).toBe(0);
      await post.getByText('+90 532 765 43 21').first().waitFor();
      await screenshot(local.page, '06-inbound-posted');

      await post.getByRole('button', { name: 'Reply' }).click();
      await modal().getByLabel('Recipients').waitFor();
      await eventually(() => modal().locator('.modal-title').textContent()).toBe('Reply by SMS');
      await eventually(() => modal().getByLabel('Recipients').inputValue()).toBe('+90 532 765 43 21');
      await modal().getByLabel('Message').fill('Yes, it is ready for pickup.');
      await modal().getByRole('button', { name: 'Send now' }).click();
      const batch = `SMS batch ${await sentBatchId()}`;
      await modal().locator('.modal-foot').getByRole('button', { name: 'Close' }).click();

      // The delivery card goes into the SMS's thread, not the channel.
      await post.getByRole('button', { name: /1 reply/ }).click();
      const thread = local.page.getByRole('complementary', { name: 'Thread' });
      await thread.locator('.msg', { hasText: batch }).waitFor();
      await thread.locator('.msg', { hasText: 'Yes, it is ready for pickup.' }).waitFor();
      await eventually(() => messages().locator('.msg', { hasText: batch }).count()).toBe(0);
      await screenshot(local.page, '07-inbound-reply-thread');
    });

    // The router only routes catalogued subcommands: this runs once catalogue.ts lists `digest`.
    it.skipIf(!SUBCOMMAND_NAMES.includes('digest'))(
      'digest preview: /sms digest balance shows the digest only to the user',
      async () => {
        await typeInComposer(local.page, '/sms digest balance');
        const preview = messages().locator('.msg.ephemeral', { hasText: 'Preview' });
        await preview.waitFor();
        await preview.locator('.bk-header').first().waitFor();
        await eventually(() => preview.textContent()).toMatch(/only you can see this/);
        await screenshot(local.page, '08-digest-preview');
      },
    );

    it('cancel from the card: a confirm dialog first, then the card updates and the user is told', async () => {
      await openCompose();
      await modal().getByLabel('Recipients').fill('0532 111 22 33');
      await modal().getByLabel('Message').fill('Meeting moved to 3 pm');
      await modal().getByRole('button', { name: 'Send now' }).click();
      const messageId = await sentBatchId();
      await modal().locator('.modal-foot').getByRole('button', { name: 'Close' }).click();

      const card = messages().locator('.msg', { hasText: `SMS batch ${messageId}` });
      await card.getByRole('button', { name: 'Cancel' }).click();
      const confirm = local.page.getByRole('alertdialog', { name: 'Cancel this batch?' });
      const cancelsBefore = await local.bot.control.callCount('Cancel');
      await confirm.getByText(/not yet delivered will not be sent/).waitFor();
      await screenshot(local.page, '09-cancel-confirm');
      // Keep sending: nothing happens.
      await confirm.getByRole('button', { name: 'Keep sending' }).click();
      await confirm.waitFor({ state: 'detached' });
      expect(await local.bot.control.callCount('Cancel')).toBe(cancelsBefore);

      await card.getByRole('button', { name: 'Cancel' }).click();
      await confirm.getByRole('button', { name: 'Cancel batch' }).click();
      await card.getByText(/Cancelled by @admin/).waitFor();
      await messages()
        .locator('.msg.ephemeral', { hasText: `Batch ${messageId} cancelled` })
        .waitFor();
      expect(await local.bot.control.callCount('Cancel')).toBe(cancelsBefore + 1);
      await screenshot(local.page, '10-cancelled');
    });

    it('another person, and the App Home tab', async () => {
      await local.page.locator('#user-switch').selectOption(SEEDED.users.bob);
      await typeInComposer(local.page, '/sms balance');
      const denial = messages().locator('.msg.ephemeral', { hasText: 'You need the viewer role' });
      await denial.waitFor();

      await local.page.locator('#user-switch').selectOption(SEEDED.users.admin);
      const after = local.bot.workspace.state.journal.seq;
      await local.page.locator('#app-list').getByRole('link', { name: 'smsops' }).click();
      await local.page.getByRole('tab', { name: 'Home', selected: true }).waitFor();
      // app_home_opened goes to the bot; whatever it publishes is rendered here.
      const published = await local.bot.workspace.state
        .waitForCall('views.publish', (c) => c.args.user_id === SEEDED.users.admin, {
          after,
          timeoutMs: 5_000,
        })
        .catch(() => undefined);
      if (published?.status === 200) {
        const view = published.result.view as { blocks: { type: string; text?: { text: string } }[] };
        const header = view.blocks.find((b) => b.type === 'header')?.text?.text;
        if (header) await local.page.locator('.home .bk-header', { hasText: header }).first().waitFor();
      } else {
        await local.page.locator('.home-empty').waitFor();
      }
      await screenshot(local.page, '11-app-home');
    });
  },
);
