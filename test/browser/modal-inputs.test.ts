import type { BlockAction, ViewStateValue } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import { onBlockAction } from '../../src/slack/action-routes.js';
import { SEEDED, type View } from '../../workspace/index.js';
import { eventually, hasChromium, NO_CHROMIUM_REASON, screenshot, useWorkspaceInBrowser } from './support.js';

const plain = (text: string) => ({ type: 'plain_text' as const, text });
const option = (value: string, label = value) => ({ text: plain(label), value });

/** Every input element the bot's modals use, and checkboxes, in one modal of this test's own. */
const kitchenSink: View = {
  type: 'modal',
  callback_id: 'kitchen_sink',
  title: plain('Every input'),
  submit: plain('Save'),
  close: plain('Cancel'),
  blocks: [
    { type: 'section', text: { type: 'mrkdwn', text: '*All the inputs* a modal of the bot may hold.' } },
    {
      type: 'input',
      block_id: 'name',
      label: plain('Name'),
      element: { type: 'plain_text_input', action_id: 'name', placeholder: plain('Your name') },
    },
    {
      type: 'input',
      block_id: 'notes',
      optional: true,
      label: plain('Notes'),
      hint: plain('Anything else.'),
      element: { type: 'plain_text_input', action_id: 'notes', multiline: true, initial_value: 'first' },
    },
    {
      type: 'input',
      block_id: 'colour',
      label: plain('Colour'),
      element: {
        type: 'static_select',
        action_id: 'colour',
        options: [option('red', 'Red'), option('green', 'Green'), option('blue', 'Blue')],
        initial_option: option('green', 'Green'),
      },
    },
    {
      type: 'input',
      block_id: 'size',
      label: plain('Size'),
      element: {
        type: 'radio_buttons',
        action_id: 'size',
        options: [option('s', 'Small'), option('m', 'Medium'), option('l', 'Large')],
      },
    },
    {
      type: 'input',
      block_id: 'extras',
      optional: true,
      dispatch_action: true,
      label: plain('Extras'),
      element: {
        type: 'checkboxes',
        action_id: 'extras',
        options: [option('gift', 'Gift wrap'), option('note', 'Card'), option('fast', 'Express')],
      },
    },
    {
      type: 'input',
      block_id: 'count',
      label: plain('How many'),
      element: {
        type: 'number_input',
        action_id: 'count',
        is_decimal_allowed: false,
        min_value: '1',
        max_value: '10',
      },
    },
  ],
} as View;

/** A short code field whose prefilled value is longer than its max_length, as a bot could send. */
const limited: View = {
  type: 'modal',
  callback_id: 'limited',
  title: plain('Limited'),
  submit: plain('Save'),
  blocks: [
    {
      type: 'input',
      block_id: 'code',
      label: plain('Code'),
      element: { type: 'plain_text_input', action_id: 'code', max_length: 5, initial_value: 'ABCDEFGH' },
    },
  ],
} as View;

/** A modal with a file_input, as the recipients upload of issue 14 will have. */
const withFile: View = {
  type: 'modal',
  callback_id: 'with_file',
  title: plain('Upload'),
  submit: plain('Send'),
  blocks: [
    {
      type: 'input',
      block_id: 'doc',
      label: plain('Recipients file'),
      element: { type: 'file_input', action_id: 'doc', max_files: 1, filetypes: ['csv'] },
    },
  ],
} as View;

const stepTwo: View = {
  type: 'modal',
  callback_id: 'kitchen_sink_2',
  title: plain('Step two'),
  close: plain('Back'),
  blocks: [{ type: 'section', text: { type: 'mrkdwn', text: 'Pushed on top of the first view.' } }],
} as View;

describe.skipIf(!hasChromium)(
  `modal inputs in a real browser${hasChromium ? '' : ` (skipped: ${NO_CHROMIUM_REASON})`}`,
  () => {
    const submissions: Record<string, Record<string, ViewStateValue>>[] = [];
    const actions: BlockAction['actions'] = [];
    const uploaded: { file: Record<string, string>; bytes: string }[] = [];

    const local = useWorkspaceInBrowser({
      prepare: (bot) => {
        let answers = 0;
        bot.app.view('kitchen_sink', async ({ ack, view }) => {
          submissions.push(view.state.values);
          answers += 1;
          if (answers === 1)
            await ack({ response_action: 'errors', errors: { notes: 'Say a little more.' } });
          else await ack({ response_action: 'push', view: stepTwo });
        });
        bot.app.view('with_file', async ({ ack, view }) => {
          await ack();
          // What the bot does with it: the file object, then its bytes with the bot token.
          const file = (view.state.values.doc!.doc as unknown as { files: Record<string, string>[] })
            .files[0]!;
          const download = await fetch(file.url_private_download!, {
            headers: { authorization: `Bearer ${bot.workspace.botToken}` },
          });
          uploaded.push({ file, bytes: await download.text() });
        });
        bot.app.view('limited', async ({ ack, view }) => {
          submissions.push(view.state.values);
          await ack();
        });
        // Through the bot's own router: a second app.action listener would see the router's ack of an id it
        // has no route for, and ack again.
        onBlockAction(bot.app, 'extras', async ({ ack, body }) => {
          actions.push(...(body as BlockAction).actions);
          await ack();
        });
      },
    });

    it('renders and submits text, multi-line text, select, radio, checkboxes and number inputs as Slack does', async () => {
      local.bot.workspace.state.views.open(SEEDED.users.admin, kitchenSink);
      const modal = local.page.getByRole('dialog', { name: 'Every input' });
      await modal.waitFor();
      await modal.locator('b', { hasText: 'All the inputs' }).waitFor();
      expect(await modal.getByLabel('Notes').inputValue()).toBe('first');
      expect(await modal.getByLabel('Colour').inputValue()).toBe('green');

      // Slack checks required fields and number bounds itself, before the app sees anything.
      await modal.getByRole('button', { name: 'Save' }).click();
      const nameField = modal.locator('.bk-input-block', { has: local.page.getByLabel('Name') });
      await nameField.getByRole('alert').getByText('Please complete this required field.').waitFor();
      await modal
        .locator('.bk-input-block', { has: local.page.getByRole('radiogroup') })
        .getByText('Please complete this required field.')
        .waitFor();

      await modal.getByLabel('Name').fill('Ada');
      await eventually(() => nameField.getByRole('alert').count()).toBe(0);
      await modal.getByLabel('Notes').fill('two\nlines');
      await modal.getByLabel('Colour').selectOption('blue');
      await modal.getByRole('radio', { name: 'Medium' }).check();
      // dispatch_action on the checkboxes: a block_actions per change, with what is ticked now.
      await modal.getByRole('checkbox', { name: 'Card' }).check();
      await eventually(() => actions.length).toBe(1);
      expect(actions[0]).toMatchObject({
        type: 'checkboxes',
        action_id: 'extras',
        block_id: 'extras',
        selected_options: [{ value: 'note', text: { text: 'Card' } }],
      });
      await modal.getByLabel('How many').fill('42');
      await modal.getByRole('button', { name: 'Save' }).click();
      await modal.getByText('Please enter a number between 1 and 10.').waitFor();
      expect(submissions).toHaveLength(0);

      await modal.getByLabel('How many').fill('7');
      await modal.getByRole('button', { name: 'Save' }).click();
      // The app answers response_action: errors; the message shows under the field it names.
      const notesField = modal.locator('.bk-input-block', { has: local.page.getByLabel('Notes') });
      await notesField.getByRole('alert').getByText('Say a little more.').waitFor();
      expect(submissions[0]).toEqual({
        name: { name: { type: 'plain_text_input', value: 'Ada' } },
        notes: { notes: { type: 'plain_text_input', value: 'two\nlines' } },
        colour: { colour: { type: 'static_select', selected_option: option('blue', 'Blue') } },
        size: { size: { type: 'radio_buttons', selected_option: option('m', 'Medium') } },
        extras: { extras: { type: 'checkboxes', selected_options: [option('note', 'Card')] } },
        count: { count: { type: 'number_input', value: '7' } },
      });
      await screenshot(local.page, '12-modal-inputs-errors');

      // response_action: push stacks a view with a Back button; Back shows the first view, values intact.
      await modal.getByRole('button', { name: 'Save' }).click();
      const pushed = local.page.getByRole('dialog', { name: 'Step two' });
      await pushed.getByText('Pushed on top of the first view.').waitFor();
      await screenshot(local.page, '13-modal-pushed');
      await pushed.locator('.modal-foot').getByRole('button', { name: 'Back' }).click();
      await modal.waitFor();
      expect(await modal.getByLabel('Name').inputValue()).toBe('Ada');
      expect(await modal.getByRole('radio', { name: 'Medium' }).isChecked()).toBe(true);
      await modal.locator('.modal-foot').getByRole('button', { name: 'Cancel' }).click();
      await modal.waitFor({ state: 'detached' });
      expect(local.bot.workspace.state.views.stack(SEEDED.users.admin)).toEqual([]);
    });

    it('takes no more than max_length: typing stops there, and a longer prefilled value is held back with an error', async () => {
      const before = submissions.length;
      local.bot.workspace.state.views.open(SEEDED.users.admin, limited);
      const modal = local.page.getByRole('dialog', { name: 'Limited' });
      await modal.waitFor();
      await modal.getByRole('button', { name: 'Save' }).click();
      await modal
        .getByRole('alert')
        .getByText(/no more than 5 characters/)
        .waitFor();
      expect(submissions).toHaveLength(before);
      await modal.getByLabel('Code').fill('');
      await modal.getByLabel('Code').pressSequentially('1234567');
      expect(await modal.getByLabel('Code').inputValue()).toBe('12345');
      await modal.getByRole('button', { name: 'Save' }).click();
      await modal.waitFor({ state: 'detached' });
      expect(submissions.at(-1)).toEqual({ code: { code: { type: 'plain_text_input', value: '12345' } } });
    });

    it('uploads a file through a file_input; the submission carries Slack’s file object, readable with the bot token', async () => {
      local.bot.workspace.state.views.open(SEEDED.users.admin, withFile);
      const modal = local.page.getByRole('dialog', { name: 'Upload' });
      await modal.waitFor();
      await modal.getByRole('button', { name: 'Send' }).click();
      await modal.getByRole('alert').getByText('Please complete this required field.').waitFor();
      await modal.getByLabel('Recipients file').setInputFiles({
        name: 'list.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from('msisdn\n905321234567\n'),
      });
      await modal.getByText('list.csv').waitFor();
      await modal.getByRole('button', { name: 'Send' }).click();
      await modal.waitFor({ state: 'detached' });
      await eventually(() => uploaded.length).toBe(1);
      expect(uploaded[0]!.file).toMatchObject({
        name: 'list.csv',
        mimetype: 'text/csv',
        filetype: 'csv',
        size: 20,
      });
      expect(uploaded[0]!.bytes).toBe('msisdn\n905321234567\n');
    });
  },
);
