import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ViewOutput } from '../../workspace/index.js';
import { channels, editScheduled, type Harness, startHarness, users } from '../support/slack-harness.js';

/**
 * The compose modal's submit button says what pressing it does. It said "Review & send" and sent at once any send
 * of CONFIRM_RECIPIENTS (3 here) or fewer: a person who expected a review spent the money. Typing, choosing When
 * and attaching go through the signed block actions the bot answers with views.update, as in Slack.
 */

const START = Date.parse('2026-11-24T06:00:00.000Z');
let clock = START;
const now = () => new Date(clock);

let h: Harness;

beforeAll(async () => {
  h = await startHarness({ now, sending: { confirmRecipients: 3 } });
});
afterAll(() => h.close());
beforeEach(async () => {
  clock = START;
  await h.control.reset();
});

const FOUR = ['0532 100 00 01', '0532 100 00 02', '0532 100 00 03', '0532 100 00 04'];

const labelOf = (view: { submit?: { text?: string } | null }) => view.submit?.text;

/** Sends a block action from the modal with these values and returns the view once the bot has redrawn it. */
async function act(
  view: ViewOutput,
  actionId: string,
  values: Record<string, Record<string, unknown>>,
  extra: Record<string, unknown> = {},
): Promise<ViewOutput> {
  const after = h.fake.state.journal.seq;
  await h.driver.blockAction({
    userId: users.admin,
    view,
    actionId,
    blockId: actionId,
    values: values as never,
    ...extra,
  });
  const call = await h.fake.state.waitForCall('views.update', (c) => c.args.view_id === view.id, { after });
  return h.fake.state.views.get(String(call.args.view_id))!;
}

function typeRecipients(
  view: ViewOutput,
  numbers: string[],
  more: Record<string, Record<string, unknown>> = {},
) {
  const recipients = numbers.join('\n');
  return act(view, 'recipients', { ...more, recipients: { recipients } }, { value: recipients });
}

describe('the compose modal’s submit button', () => {
  it('says Send now up to CONFIRM_RECIPIENTS and Review above, following the recipients as they are typed', async () => {
    const view = await h.openCompose('send');
    expect(labelOf(view)).toBe('Send now');
    const few = await typeRecipients(view, FOUR.slice(0, 3));
    expect(labelOf(few)).toBe('Send now');
    const many = await typeRecipients(few, FOUR);
    expect(labelOf(many)).toBe('Review');
    const fewAgain = await typeRecipients(many, FOUR.slice(0, 2));
    expect(labelOf(fewAgain)).toBe('Send now');

    // What it says is what it does: Review shows the confirmation and sends nothing.
    const reviewed = await h.submitCompose(many, { recipients: FOUR.join('\n'), text: 'Four of you' });
    expect(reviewed.outcome.kind).toBe('pushed');
    expect(await h.control.callCount('Submit')).toBe(0);
  });

  it('says Schedule once Schedule is chosen, and Review when a file is attached', async () => {
    const view = await h.openCompose('send');
    const scheduling = await act(
      view,
      'when',
      { when: { when: { selected_option: { value: 'schedule' } } } },
      {
        selectedOption: { value: 'schedule' },
      },
    );
    expect(labelOf(scheduling)).toBe('Schedule');
    const file = h.fake.state.files.addUpload({
      filename: 'liste.csv',
      bytes: Buffer.from('telefon\n05321234567\n'),
      uploader: users.admin,
    }).id;
    const withFile = await typeRecipients(scheduling, FOUR.slice(0, 1), { file: { file: [file] } });
    expect(labelOf(withFile)).toBe('Review');
  });

  it('keeps its word when the figures fell since it was drawn: a view that said Review is reviewed', async () => {
    const view = await typeRecipients(await h.openCompose('send'), FOUR);
    expect(labelOf(view)).toBe('Review');
    // Pressed before the redraw of a shorter list came back: two numbers, under the threshold.
    const result = await h.submitCompose(view, {
      recipients: FOUR.slice(0, 2).join('\n'),
      text: 'Still two',
    });
    expect(result.outcome.kind).toBe('pushed');
    expect(await h.control.callCount('Submit')).toBe(0);
  });

  it('in the Edit of a scheduled send: Save, or Review above CONFIRM_RECIPIENTS', async () => {
    const open = await h.openCompose('send');
    const at = String(Math.floor((clock + 60 * 60_000) / 1000));
    const saved = await h.submitCompose(open, {
      recipients: FOUR.slice(0, 2).join('\n'),
      text: 'Edit me later',
      when: 'schedule',
      schedule_at: at,
    });
    expect(saved.outcome.kind).toBe('updated');
    const card = await h.fake.state.waitForMessage(
      (m) => m.channel === channels.smsOps && JSON.stringify(m.blocks ?? []).includes('Edit me later'),
    );
    await vi.waitFor(async () => {
      const row = (await h.store.outbox.recent(100)).find((r) => r.text === 'Edit me later');
      expect(row?.messageTs).toBe(card.ts);
    });
    const edit = await editScheduled(h, card);
    expect(labelOf(edit)).toBe('Save');
    const one = await typeRecipients(edit, FOUR.slice(0, 1));
    expect(labelOf(one)).toBe('Save');
    const more = await typeRecipients(one, FOUR);
    expect(labelOf(more)).toBe('Review');
    const now = await act(
      more,
      'when',
      {
        recipients: { recipients: FOUR.join('\n') },
        when: { when: { selected_option: { value: 'now' } } },
      },
      { selectedOption: { value: 'now' } },
    );
    // Send now with four recipients still goes to a review first.
    expect(labelOf(now)).toBe('Review');
  });
});
