import type { ViewStateValue } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import { SEEDED, type View } from '../../workspace/index.js';
import { eventually, hasChromium, NO_CHROMIUM_REASON, useWorkspaceInBrowser } from './support.js';

const plain = (text: string) => ({ type: 'plain_text' as const, text });
// 2026-11-24T09:00:00Z: 09:00 for Ada, who is in Europe/London.
const NINE_UTC = Date.parse('2026-11-24T09:00:00Z') / 1000;

const picker: View = {
  type: 'modal',
  callback_id: 'picker_test',
  title: plain('When'),
  submit: plain('Save'),
  blocks: [
    {
      type: 'input',
      block_id: 'schedule_at',
      label: plain('Scheduled time'),
      element: { type: 'datetimepicker', action_id: 'schedule_at', initial_date_time: NINE_UTC },
    },
  ],
} as unknown as View;

describe.skipIf(!hasChromium)(
  `the datetimepicker on the local page${hasChromium ? '' : ` (skipped: ${NO_CHROMIUM_REASON})`}`,
  () => {
    const submissions: Record<string, Record<string, ViewStateValue>>[] = [];
    const local = useWorkspaceInBrowser({
      prepare: (bot) => {
        bot.app.view('picker_test', async ({ ack, view }) => {
          submissions.push(view.state.values);
          await ack();
        });
      },
    });

    it('shows the time in the user’s Slack zone and submits UNIX seconds, as Slack does', async () => {
      local.bot.workspace.state.views.open(SEEDED.users.admin, picker);
      const modal = local.page.getByRole('dialog', { name: 'When' });
      await modal.waitFor();
      expect(await modal.getByLabel('Scheduled time').inputValue()).toBe('2026-11-24T09:00');
      await modal.getByLabel('Scheduled time').fill('2026-11-24T10:30');
      await modal.getByRole('button', { name: 'Save' }).click();
      await eventually(() => submissions.length).toBe(1);
      expect(submissions[0]).toEqual({
        schedule_at: { schedule_at: { type: 'datetimepicker', selected_date_time: NINE_UTC + 90 * 60 } },
      });
    });
  },
);
