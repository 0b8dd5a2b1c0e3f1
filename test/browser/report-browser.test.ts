import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { executeSend } from '../../src/sending/send.js';
import { sendPolicyOf } from '../../src/slack/permissions.js';
import { SEEDED } from '../../workspace/index.js';
import { formulaCells, openWithOpenpyxl, recordsOf } from '../reports/open-xlsx.js';
import {
  hasChromium,
  NO_CHROMIUM_REASON,
  screenshot,
  typeInComposer,
  useWorkspaceInBrowser,
} from './support.js';

describe.skipIf(!hasChromium)(
  `/sms report in the local workspace${hasChromium ? '' : ` (skipped: ${NO_CHROMIUM_REASON})`}`,
  () => {
    const local = useWorkspaceInBrowser();

    it('asks for a report from the composer, finds it in the DM with the app with its progress message, and downloads the .xlsx', async () => {
      const sent = await executeSend(
        { ...local.bot.deps, policy: sendPolicyOf(local.bot.deps) },
        {
          idempotencyKey: 'compose:browser-report',
          slackUser: local.bot.workspace.localUserId,
          channel: SEEDED.channels.smsOps,
          plan: {
            sender: 'SMSOPS',
            recipients: ['905321230099'],
            text: '=SUM(1,2) is not a formula',
            encoding: 'GSM7',
            dataCoding: 'Default',
            validityMinutes: 60,
            totalSegments: 1,
            estimatedCost: 0.05,
          },
        },
      );
      expect(sent.kind).toBe('submitted');
      // Today where the bot reads report dates (REPORT_TIMEZONE): the UTC date is yesterday there after 21:00 UTC.
      const today = new Intl.DateTimeFormat('en-CA', {
        timeZone: local.bot.deps.settings.reportTimeZone,
      }).format(new Date());
      await typeInComposer(local.page, `/sms report ${today} ${today}`);

      // Texts and numbers: the channel is told, and the file goes to the asker's DM with the app.
      await local.page
        .locator('#main .messages .msg', { hasText: 'it is sent to them alone, in their direct messages' })
        .waitFor();
      await local.page.locator('#dm-list li').click();
      const messages = local.page.locator('#main .messages');
      await messages.locator('.msg', { hasText: 'is ready: 1 send' }).waitFor();
      const link = messages.locator('a.file', { hasText: 'SMS report' });
      await link.waitFor();
      await screenshot(local.page, 'report-shared');
      // Opened in the same tab, the workbook (not a type a browser shows) comes as a download.
      await link.evaluate((a) => a.removeAttribute('target'));
      const [download] = await Promise.all([local.page.waitForEvent('download'), link.click()]);
      // The local workspace serves a file under its id (Slack's url_private_download names it): the type is what counts.
      expect(download.suggestedFilename()).toMatch(/\.xlsx$/);
      expect(await link.textContent()).toContain(`SMS report: ${today}`);
      const bytes = await readFile((await download.path())!);

      const sheets = await openWithOpenpyxl(bytes);
      expect(formulaCells(sheets)).toEqual([]);
      const [row] = recordsOf(sheets[0]!);
      expect(row!['Text or template']!.v).toBe('=SUM(1,2) is not a formula');
      expect(row!.MessageId!.v).toBe(String((sent as { messageId: number }).messageId));
    });
  },
);
