import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ViewOutput } from '../../workspace/index.js';
import { type Harness, startHarness, textBlockOf, users } from '../support/slack-harness.js';

const BIG = 100_000;
let h: Harness;

beforeAll(async () => {
  // A send to the whole list needs MAX_RECIPIENTS of 100,000 (the default of issue 14's campaigns).
  h = await startHarness({ sending: { maxRecipients: BIG } });
});
afterAll(() => h.close());

const numbers = (from: number, count: number) =>
  Array.from({ length: count }, (_, i) => `0532${String(1_000_000 + from + i)}`);

/** `/sms lists import …`, then the file submitted in the modal it opened; resolves with the modal's last view. */
async function importFile(command: string, filename: string, text: string): Promise<ViewOutput> {
  const after = h.fake.state.journal.seq;
  await h.sms(command);
  const opened = await h.fake.state.waitForCall('views.open', () => true, { after });
  const modal = h.fake.state.views.get(String((opened.result as { view: { id: string } }).view.id))!;
  expect(modal.callback_id).toBe('list_import');
  const file = h.fake.state.files.addUpload({ filename, bytes: Buffer.from(text), uploader: users.admin });
  const submitted = h.fake.state.journal.seq;
  await h.driver.viewSubmission({ userId: users.admin, view: modal, values: { file: { file: [file.id] } } });
  await h.fake.state.waitForCall(
    'views.update',
    (c) => c.args.view_id === modal.id && !JSON.stringify(c.args.view).includes('Reading'),
    { after: submitted },
  );
  return h.fake.state.views.get(modal.id)!;
}

describe('/sms lists import', () => {
  it('imports 100,000 numbers from a file, and the composer offers the list without a giant view', async () => {
    const csv = `Telefon\n${numbers(0, BIG).join('\n')}\nabc\n`;
    const done = await importFile('lists import musteriler', 'musteriler.csv', csv);
    const shown = JSON.stringify(done.blocks);
    expect(shown).toContain('it now holds 100,000 numbers');
    expect(shown).toContain('Line 100002: “abc”');
    expect((await h.store.recipientLists.get('musteriler'))!.members).toHaveLength(BIG);

    const compose = await h.openCompose();
    expect(JSON.stringify(compose.blocks)).toContain('musteriler (100,000)');
    // Only the name and the size go into the view: it stays far below Slack's limits.
    expect(JSON.stringify(compose).length).toBeLessThan(20_000);
    const result = await h.driver.viewSubmission({
      userId: users.admin,
      view: compose,
      values: { list: { list: 'musteriler' }, [textBlockOf(compose)]: { text: 'Merhaba' } },
    });
    expect(result.outcome.kind).toBe('pushed');
    const confirm = (result.outcome as { view: ViewOutput }).view;
    expect(confirm.callback_id).toBe('confirm_send');
    expect(JSON.stringify(confirm.blocks)).toContain('100,000');
    expect(JSON.stringify(confirm).length).toBeLessThan(20_000);
  });

  it('appends to a list or replaces it, and asks which when the list exists', async () => {
    await h.store.recipientLists.create({ name: 'surucu', owner: users.admin, members: ['905330000001'] });
    h.mark();
    await h.sms('lists import surucu');
    await h.ephemeral(users.admin, /List \*surucu\* exists: `\/sms lists import surucu append`/);

    const appended = await importFile(
      'lists import surucu append',
      'ek.txt',
      '0533 000 00 02\n05330000001\n',
    );
    expect(JSON.stringify(appended.blocks)).toContain('it now holds 2 numbers');
    expect((await h.store.recipientLists.get('surucu'))!.members).toEqual(['905330000001', '905330000002']);

    const replaced = await importFile('lists import surucu replace', 'yeni.csv', 'gsm;ad\n05330000009;Ali\n');
    expect(JSON.stringify(replaced.blocks)).toContain('replaced');
    expect((await h.store.recipientLists.get('surucu'))!.members).toEqual(['905330000009']);

    const refused = await importFile('lists import surucu append', 'bos.csv', 'gsm\nxyz\n');
    expect(JSON.stringify(refused.blocks)).toContain('gave no valid number');
    expect((await h.store.recipientLists.get('surucu'))!.members).toEqual(['905330000009']);
  });
});
