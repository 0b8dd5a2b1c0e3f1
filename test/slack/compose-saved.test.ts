import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channels, type Harness, startHarness, users } from '../support/slack-harness.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
  await h.store.recipientLists.create({
    name: 'drivers',
    owner: users.admin,
    members: ['905331111111', '905332222222'],
  });
  await h.store.templates.create({
    name: 'ready',
    owner: users.admin,
    content: 'Your order is ready for pickup.',
  });
});
afterAll(() => h.close());

describe('saved lists and templates in the composer', () => {
  it('a template fills the text, and a list adds its numbers to those typed', async () => {
    const view = await h.openCompose();
    expect(JSON.stringify(view.blocks)).toContain('drivers (2)');

    const filled = await h.chooseInCompose(view, 'template', 'ready');
    const textBlock = (filled.blocks as { block_id?: string; element?: { initial_value?: string } }[]).find(
      (b) => b.block_id?.startsWith('text'),
    )!;
    // A new block id makes Slack show the template instead of what was typed before.
    expect(textBlock.block_id).toBe('text_1');
    expect(textBlock.element?.initial_value).toBe('Your order is ready for pickup.');

    const start = h.fake.state.journal.seq;
    const result = await h.driver.viewSubmission({
      userId: users.admin,
      view: filled,
      values: { recipients: { recipients: '0532 123 45 67\n0533 111 11 11' }, list: { list: 'drivers' } },
    });
    expect(result.outcome.kind).toBe('updated');
    await h.fake.state.waitForMessage((m) => m.channel === channels.smsOps && /3 pending$/.test(m.text), {
      after: start,
    });
    const row = (await h.store.outbox.recent(5)).find((r) => r.text === 'Your order is ready for pickup.')!;
    expect(new Set(row.recipients)).toEqual(new Set(['905321234567', '905331111111', '905332222222']));
  });

  it('personalised mode sends each row its own text through SubmitMulti', async () => {
    const view = await h.openCompose();
    const after = h.fake.state.journal.seq;
    const personal = await h.chooseInCompose(view, 'mode', 'personalised');
    const textBlock = (personal.blocks as { block_id?: string }[]).find((b) =>
      b.block_id?.startsWith('text'),
    )!.block_id!;
    const before = await h.control.callCount('SubmitMulti');
    await h.driver.viewSubmission({
      userId: users.admin,
      view: personal,
      values: {
        csv: { csv: 'number,name\n0532 123 45 67,Ayşe\n0533 123 45 67,Ali' },
        [textBlock]: { text: 'Merhaba {{name}}, siparişiniz hazır.' },
      },
    });
    await h.fake.state.waitForMessage((m) => m.channel === channels.smsOps && /2 pending$/.test(m.text), {
      after,
    });
    expect(await h.control.callCount('SubmitMulti')).toBe(before + 1);
    const state = (await (await fetch(`${h.control.sim.url}/_sim/state`)).json()) as {
      batches: { recipients: { to?: string; msisdn?: string; message?: string; text?: string }[] }[];
    };
    const texts = JSON.stringify(state.batches.at(-1));
    expect(texts).toContain('Merhaba Ayşe, siparişiniz hazır.');
    expect(texts).toContain('Merhaba Ali, siparişiniz hazır.');
  });
});
