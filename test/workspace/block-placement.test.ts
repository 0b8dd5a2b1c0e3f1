import { describe, expect, it } from 'vitest';
import { SEEDED, type View } from '../../workspace/index.js';
import { clientFor, fakeSlack, slackError } from './helpers.js';

const { users, channels } = SEEDED;
const plain = (text: string) => ({ type: 'plain_text' as const, text });
const fileInput = { type: 'file_input', action_id: 'file', filetypes: ['csv'], max_files: 1 };
const fileBlock = { type: 'input', block_id: 'upload', label: plain('File'), element: fileInput };

function modalWith(blocks: unknown[]): View {
  return { type: 'modal', title: plain('Import'), submit: plain('Import'), blocks } as unknown as View;
}

/**
 * Where Slack takes an element (docs.slack.dev/reference/block-kit/block-elements, the "Blocks" column; the file
 * input element's page: input blocks in modals, and the files:read scope).
 */
describe('Block Kit elements only in the blocks and surfaces Slack documents for them', () => {
  it('refuses a file_input in a message, even in an input block, with invalid_blocks', async () => {
    const fake = await fakeSlack();
    const refused = await slackError(
      clientFor(fake).chat.postMessage({
        channel: channels.smsOps,
        text: 'upload',
        blocks: [fileBlock] as never[],
      }),
    );
    expect(refused).toEqual({
      error: 'invalid_blocks',
      messages: ['[ERROR] unsupported type: file_input [json-pointer:/blocks/0/element/type]'],
    });
    expect(fake.state.messages.history(channels.smsOps)).toEqual([]);
  });

  it('refuses a file_input outside an input block in a modal, and with dispatch_action', async () => {
    const fake = await fakeSlack();
    const client = clientFor(fake);
    const asAccessory = { type: 'section', text: plain('Pick a file'), accessory: fileInput };
    expect(
      await slackError(
        client.views.open({ trigger_id: fake.issueTriggerId(users.alice), view: modalWith([asAccessory]) }),
      ),
    ).toEqual({
      error: 'invalid_arguments',
      messages: ['[ERROR] unsupported type: file_input [json-pointer:/view/blocks/0/accessory/type]'],
    });
    const dispatching = { ...fileBlock, dispatch_action: true };
    expect(
      (
        await slackError(
          client.views.open({ trigger_id: fake.issueTriggerId(users.alice), view: modalWith([dispatching]) }),
        )
      ).messages,
    ).toEqual(['[ERROR] unsupported type: file_input [json-pointer:/view/blocks/0/element/type]']);
    // In an input block of a modal it is what Slack documents, and opens.
    await expect(
      client.views.open({ trigger_id: fake.issueTriggerId(users.alice), view: modalWith([fileBlock]) }),
    ).resolves.toMatchObject({ ok: true });
  });

  it('refuses pickers outside the blocks Slack documents for them', async () => {
    const fake = await fakeSlack();
    const client = clientFor(fake);
    const datetime = { type: 'datetimepicker', action_id: 'when' };
    const textInput = { type: 'plain_text_input', action_id: 'text' };
    const usersPicker = { type: 'users_select', action_id: 'who', placeholder: plain('Someone') };
    const refused = await slackError(
      client.chat.postMessage({
        channel: channels.smsOps,
        text: 'pickers',
        blocks: [
          { type: 'section', text: plain('When?'), accessory: datetime },
          { type: 'actions', elements: [textInput] },
          { type: 'context', elements: [usersPicker] },
        ] as never[],
      }),
    );
    expect(refused).toEqual({
      error: 'invalid_blocks',
      messages: [
        '[ERROR] unsupported type: datetimepicker [json-pointer:/blocks/0/accessory/type]',
        '[ERROR] unsupported type: plain_text_input [json-pointer:/blocks/1/elements/0/type]',
        '[ERROR] unsupported type: users_select [json-pointer:/blocks/2/elements/0/type]',
      ],
    });
    // The same pickers where Slack takes them.
    await expect(
      client.chat.postMessage({
        channel: channels.smsOps,
        text: 'pickers',
        blocks: [
          { type: 'section', text: plain('Who?'), accessory: usersPicker },
          { type: 'actions', elements: [datetime] },
        ] as never[],
      }),
    ).resolves.toMatchObject({ ok: true });
  });

  it('opens a view with a file_input only with files:read', async () => {
    const without = await fakeSlack({ scopes: ['commands', 'chat:write'] });
    const refused = await clientFor(without)
      .views.open({ trigger_id: without.issueTriggerId(users.alice), view: modalWith([fileBlock]) })
      .catch((error: { data?: Record<string, unknown> }) => error.data);
    expect(refused).toMatchObject({ ok: false, error: 'missing_scope', needed: 'files:read' });
    const textOnly = {
      type: 'input',
      label: plain('Numbers'),
      element: { type: 'plain_text_input', action_id: 'n' },
    };
    await expect(
      clientFor(without).views.open({
        trigger_id: without.issueTriggerId(users.alice),
        view: modalWith([textOnly]),
      }),
    ).resolves.toMatchObject({ ok: true });
  });
});
