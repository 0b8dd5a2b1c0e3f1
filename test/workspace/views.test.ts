import { describe, expect, it } from 'vitest';
import { SEEDED, TRIGGER_LIFETIME_MS, type View } from '../../workspace/index.js';
import { clientFor, fakeSlack, manualClock, slackError } from './helpers.js';

const { users } = SEEDED;

function modal(title = 'Send SMS', extra: Partial<View> = {}): View {
  return {
    type: 'modal',
    callback_id: 'send_sms',
    title: { type: 'plain_text', text: title },
    submit: { type: 'plain_text', text: 'Send' },
    private_metadata: 'C0SMSOPS',
    blocks: [
      {
        type: 'input',
        block_id: 'to',
        label: { type: 'plain_text', text: 'To' },
        element: { type: 'plain_text_input', action_id: 'number' },
      },
    ],
    ...extra,
  } as View;
}

/** The modal with its one text input given these properties. */
function withTextInput(element: Record<string, unknown>): View {
  const view = modal() as unknown as { blocks: { element: Record<string, unknown> }[] };
  view.blocks[0]!.element = { ...view.blocks[0]!.element, ...element };
  return view as unknown as View;
}

describe('text inputs: max_length and min_length as Slack takes them', () => {
  it('refuses max_length above 3,000 (or below 1) and min_length above max_length', async () => {
    const fake = await fakeSlack();
    const client = clientFor(fake);
    for (const [element, pointer] of [
      [{ max_length: 3001 }, '/view/blocks/0/element/max_length'],
      [{ max_length: 0 }, '/view/blocks/0/element/max_length'],
      [{ min_length: 3001 }, '/view/blocks/0/element/min_length'],
      [{ max_length: 10, min_length: 11 }, '/view/blocks/0/element/min_length'],
    ] as const) {
      const refusal = await slackError(
        client.views.open({ trigger_id: fake.issueTriggerId(users.alice), view: withTextInput(element) }),
      );
      expect(refusal.error).toBe('invalid_arguments');
      expect(refusal.messages.join('\n')).toContain(`[json-pointer:${pointer}]`);
    }
  });

  it('takes a max_length of 3,000 and an initial_value of any length, for which Slack documents no limit', async () => {
    const fake = await fakeSlack();
    const view = withTextInput({ max_length: 3000, initial_value: 'x'.repeat(5000) });
    const opened = await clientFor(fake).views.open({ trigger_id: fake.issueTriggerId(users.alice), view });
    expect(opened.ok).toBe(true);
  });
});

describe('views and trigger_ids', () => {
  it('opens a modal for the trigger’s user, then pushes and updates within the stack', async () => {
    const fake = await fakeSlack();
    const client = clientFor(fake);
    const opened = await client.views.open({ trigger_id: fake.issueTriggerId(users.alice), view: modal() });
    const root = opened.view!;
    expect(root).toMatchObject({ type: 'modal', callback_id: 'send_sms', private_metadata: 'C0SMSOPS' });
    expect(root.root_view_id).toBe(root.id);
    const pushed = await client.views.push({
      trigger_id: fake.issueTriggerId(users.alice),
      view: modal('Confirm'),
    });
    expect(pushed.view).toMatchObject({ root_view_id: root.id, previous_view_id: root.id });
    const updated = await client.views.update({ view_id: root.id!, hash: root.hash!, view: modal('Edited') });
    expect(updated.view!.title).toMatchObject({ text: 'Edited' });
    expect(updated.view!.hash).not.toBe(root.hash);
    expect(fake.state.views.stack(users.alice).map((v) => v.title.text)).toEqual(['Edited', 'Confirm']);
    expect(fake.state.views.stack(users.bob)).toEqual([]);
  });

  it('refuses an update with a stale hash (hash_conflict) or an unknown view (not_found)', async () => {
    const fake = await fakeSlack();
    const client = clientFor(fake);
    const { view } = await client.views.open({ trigger_id: fake.issueTriggerId(users.bob), view: modal() });
    await client.views.update({ view_id: view!.id!, view: modal('Newer') });
    const stale = await slackError(
      client.views.update({ view_id: view!.id!, hash: view!.hash!, view: modal('Late') }),
    );
    expect(stale.error).toBe('hash_conflict');
    expect((await slackError(client.views.update({ view_id: 'V0NOPE', view: modal() }))).error).toBe(
      'not_found',
    );
  });

  it('stops at three stacked views (push_limit_reached)', async () => {
    const fake = await fakeSlack();
    const client = clientFor(fake);
    await client.views.open({ trigger_id: fake.issueTriggerId(users.bob), view: modal() });
    await client.views.push({ trigger_id: fake.issueTriggerId(users.bob), view: modal('2') });
    await client.views.push({ trigger_id: fake.issueTriggerId(users.bob), view: modal('3') });
    const refusal = await slackError(
      client.views.push({ trigger_id: fake.issueTriggerId(users.bob), view: modal('4') }),
    );
    expect(refusal.error).toBe('push_limit_reached');
  });

  it('expires a trigger_id 3 s after it was issued', async () => {
    const clock = manualClock();
    const fake = await fakeSlack({ clock: clock.now });
    const client = clientFor(fake);
    const late = fake.issueTriggerId(users.alice);
    clock.advance(TRIGGER_LIFETIME_MS + 1);
    expect((await slackError(client.views.open({ trigger_id: late, view: modal() }))).error).toBe(
      'expired_trigger_id',
    );
    const justInTime = fake.issueTriggerId(users.alice);
    clock.advance(TRIGGER_LIFETIME_MS);
    await expect(client.views.open({ trigger_id: justInTime, view: modal() })).resolves.toMatchObject({
      ok: true,
    });
  });

  it('spends a trigger_id once (exchanged_trigger_id) and knows no made-up ones (invalid_trigger_id)', async () => {
    const fake = await fakeSlack();
    const client = clientFor(fake);
    const trigger = fake.issueTriggerId(users.alice);
    await client.views.open({ trigger_id: trigger, view: modal() });
    expect((await slackError(client.views.open({ trigger_id: trigger, view: modal() }))).error).toBe(
      'exchanged_trigger_id',
    );
    expect((await slackError(client.views.open({ trigger_id: '1.2.abc', view: modal() }))).error).toBe(
      'invalid_trigger_id',
    );
  });

  it.each([
    { name: 'title over 24', view: modal('t'.repeat(25)), pointer: '/view/title/text' },
    {
      name: 'private_metadata over 3000',
      view: modal('ok', { private_metadata: 'm'.repeat(3001) }),
      pointer: '/view/private_metadata',
    },
    {
      name: 'callback_id over 255',
      view: modal('ok', { callback_id: 'c'.repeat(256) }),
      pointer: '/view/callback_id',
    },
    {
      name: 'more than 100 blocks',
      view: modal('ok', { blocks: Array.from({ length: 101 }, () => ({ type: 'divider' as const })) }),
      pointer: '/view/blocks',
    },
    { name: 'input without submit', view: modal('ok', { submit: undefined }), pointer: '/view/submit' },
    {
      name: 'a bad block inside',
      view: modal('ok', {
        blocks: [{ type: 'header', text: { type: 'plain_text', text: 'h'.repeat(151) } }],
      }),
      pointer: '/view/blocks/0/text/text',
    },
  ])(
    'refuses a modal with $name (invalid_arguments) without spending the trigger',
    async ({ view, pointer }) => {
      const fake = await fakeSlack();
      const client = clientFor(fake);
      const trigger = fake.issueTriggerId(users.alice);
      const refusal = await slackError(client.views.open({ trigger_id: trigger, view }));
      expect(refusal.error).toBe('invalid_arguments');
      expect(refusal.messages.join('\n')).toContain(`[json-pointer:${pointer}]`);
      await expect(client.views.open({ trigger_id: trigger, view: modal() })).resolves.toMatchObject({
        ok: true,
      });
    },
  );

  it('accepts 100 blocks in a modal and publishes Home tabs per user', async () => {
    const fake = await fakeSlack();
    const client = clientFor(fake);
    const hundred = Array.from({ length: 100 }, () => ({ type: 'divider' as const }));
    await expect(
      client.views.open({
        trigger_id: fake.issueTriggerId(users.bob),
        view: modal('ok', { blocks: hundred }),
      }),
    ).resolves.toBeTruthy();
    const first = await client.views.publish({
      user_id: users.alice,
      view: { type: 'home', blocks: hundred },
    });
    const second = await client.views.publish({
      user_id: users.alice,
      hash: first.view!.hash!,
      view: { type: 'home', blocks: [{ type: 'divider' }] },
    });
    expect(second.view!.id).toBe(first.view!.id);
    expect(fake.state.views.home(users.alice)!.blocks).toHaveLength(1);
    expect(fake.state.views.home(users.bob)).toBeUndefined();
    const wrongKind = await slackError(client.views.publish({ user_id: users.bob, view: modal() }));
    expect(wrongKind.error).toBe('invalid_arguments');
  });
});
