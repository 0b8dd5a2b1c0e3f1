import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ViewOutput } from '../../workspace/index.js';
import { channels, type Harness, startHarness, textBlockOf, users } from '../support/slack-harness.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness({ sending: { confirmRecipients: 1_000 } });
});
afterAll(() => h.close());

const viewText = (view: ViewOutput) => JSON.stringify(view.blocks);

function upload(filename: string, bytes: Uint8Array): string {
  return h.fake.state.files.addUpload({ filename, bytes: Buffer.from(bytes), uploader: users.admin }).id;
}

/** The confirmation (or problem) that replaced "Reading the file" after the journal position `after`. */
async function reviewAfter(after: number): Promise<ViewOutput> {
  const call = await h.fake.state.waitForCall(
    'views.update',
    (c) =>
      typeof c.args.external_id === 'string' &&
      (c.args.view as { title?: { text?: string } }).title?.text !== 'Reading the file',
    { after },
  );
  expect(call.result.ok, JSON.stringify(call.result)).toBe(true);
  return h.fake.state.views.get(String((call.result as { view?: { id?: string } }).view?.id))!;
}

async function submitFile(filename: string, bytes: Uint8Array, text: string, personalised = false) {
  let view = await h.openCompose();
  if (personalised) view = await h.chooseInCompose(view, 'mode', 'personalised');
  const after = h.fake.state.journal.seq;
  const result = await h.driver.viewSubmission({
    userId: users.admin,
    view,
    values: { [textBlockOf(view)]: { text }, file: { file: [upload(filename, bytes)] } },
  });
  expect(result.outcome.kind).toBe('pushed');
  return reviewAfter(after);
}

/** The admin picks `value` in one of the confirmation's pickers: the view once the file is read again. */
async function pick(review: ViewOutput, actionId: string, blockId: string, value: string) {
  const after = h.fake.state.journal.seq;
  await h.driver.blockAction({
    userId: users.admin,
    view: review,
    actionId,
    blockId,
    selectedOption: { value },
  });
  const next = await reviewAfter(after);
  // "Reading…" was shown in the same view first.
  const reading = h.fake.state
    .calls('views.update')
    .filter((c) => c.seq > after)
    .map((c) => (c.args.view as { title?: { text?: string } }).title?.text);
  expect(reading[0]).toBe('Reading the file');
  expect(next.id).toBe(review.id);
  return next;
}

/** Presses Send on the view on top; resolves with the numbers the gateway got. */
async function sendShown(pending: RegExp): Promise<string[]> {
  const sent = h.fake.state.journal.seq;
  await h.driver.viewSubmission({ userId: users.admin, view: h.fake.state.views.top(users.admin)! });
  await h.fake.state.waitForMessage((m) => m.channel === channels.smsOps && pending.test(m.text), {
    after: sent,
  });
  return (await h.control.state()).batches.at(-1)!.recipients.map((r) => r.to);
}

describe('picking where an uploaded file is read from, in its confirmation', () => {
  it('reads the active sheet, names it, and reads and sends the other sheet once it is picked', async () => {
    const workbook = new ExcelJS.Workbook();
    const old = workbook.addWorksheet('Eski');
    old.addRow(['Cep']);
    for (const n of ['05441000001', '05441000002', '05441000003']) old.addRow([n]);
    const list = workbook.addWorksheet('Liste');
    list.addRow(['Cep']);
    for (const n of ['05442000001', '05442000002']) list.addRow([n]);
    workbook.views = [{ activeTab: 1 } as ExcelJS.WorkbookView];
    const bytes = new Uint8Array((await workbook.xlsx.writeBuffer()) as ArrayBuffer);

    const review = await submitFile('iki-sayfa.xlsx', bytes, 'Sayfa testi.');
    expect(review.callback_id).toBe('confirm_send');
    expect(viewText(review)).toContain('Sheet “Liste” of 2 visible sheets');
    expect(viewText(review)).toMatch(/Valid unique recipients\*\\n2/);

    const other = await pick(review, 'compose_file_sheet', 'file_sheet', '0');
    expect(other.callback_id).toBe('confirm_send');
    expect(viewText(other)).toContain('Sheet “Eski” of 2 visible sheets');
    expect(viewText(other)).toMatch(/Valid unique recipients\*\\n3/);
    expect(other.submit?.text).toBe('Send 3 messages');

    expect(await sendShown(/3 pending$/)).toEqual(['905441000001', '905441000002', '905441000003']);
  });

  it('never sends a reading the pressed view does not show: Send on a view drawn before the pick shows the new one', async () => {
    const workbook = new ExcelJS.Workbook();
    const first = workbook.addWorksheet('Ocak');
    first.addRow(['GSM']);
    first.addRow(['05443000001']);
    const second = workbook.addWorksheet('Şubat');
    second.addRow(['GSM']);
    for (const n of ['05444000001', '05444000002']) second.addRow([n]);
    const bytes = new Uint8Array((await workbook.xlsx.writeBuffer()) as ArrayBuffer);
    const review = await submitFile('aylar.xlsx', bytes, 'Eski görünüm testi.');
    expect(viewText(review)).toContain('Sheet “Ocak” of 2 visible sheets');
    const drawnBefore = structuredClone(review);
    await pick(review, 'compose_file_sheet', 'file_sheet', '1');

    // The person's Slack still shows the view from before the pick when they press Send.
    const { id, hash, state, ...shape } = drawnBefore as ViewOutput & { hash?: unknown; state?: unknown };
    void hash;
    void state;
    h.fake.state.views.update({ viewId: id }, shape as never);
    const batches = (await h.control.state()).batches.length;
    const stale = await h.driver.viewSubmission({ userId: users.admin, view: drawnBefore });
    expect(stale.outcome.kind).toBe('updated');
    const shown = viewText(h.fake.state.views.top(users.admin)!);
    expect(shown).toContain('Nothing was sent');
    expect(shown).toContain('Sheet “Şubat” of 2 visible sheets');
    expect((await h.control.state()).batches.length).toBe(batches);

    expect(await sendShown(/2 pending$/)).toEqual(['905444000001', '905444000002']);
  });

  it('offers at most 100 sheets, the one read among them, within what Slack takes', async () => {
    const workbook = new ExcelJS.Workbook();
    for (let i = 1; i <= 105; i++) {
      const sheet = workbook.addWorksheet(`Şube ${i} ${'x'.repeat(20)}`);
      sheet.addRow(['Cep']);
      sheet.addRow([`0545${String(i).padStart(7, '0')}`]);
    }
    workbook.views = [{ activeTab: 102 } as ExcelJS.WorkbookView];
    const bytes = new Uint8Array((await workbook.xlsx.writeBuffer()) as ArrayBuffer);
    const review = await submitFile('subeler.xlsx', bytes, 'Şube testi.');
    expect(review.callback_id).toBe('confirm_send');
    const select = (review.blocks as { block_id?: string; elements?: unknown[] }[]).find(
      (b) => b.block_id === 'file_sheet',
    )!.elements![0] as { options: { value: string }[]; initial_option: { value: string } };
    expect(select.options).toHaveLength(100);
    expect(select.initial_option.value).toBe('102');
    expect(select.options.at(-1)!.value).toBe('102');
    const other = await pick(review, 'compose_file_sheet', 'file_sheet', '4');
    expect(viewText(other)).toContain(`Sheet “Şube 5 ${'x'.repeat(20)}” of 105 visible sheets`);
  });

  it('after a sheet that gives nothing, says why and keeps the sheet picker to go back', async () => {
    const workbook = new ExcelJS.Workbook();
    const list = workbook.addWorksheet('Liste');
    list.addRow(['Cep']);
    list.addRow(['05446000001']);
    const notes = workbook.addWorksheet('Notlar');
    notes.addRow(['Bu dosya Mart listesidir.']);
    const bytes = new Uint8Array((await workbook.xlsx.writeBuffer()) as ArrayBuffer);
    const review = await submitFile('notlu.xlsx', bytes, 'Geri dönüş testi.');
    const problem = await pick(review, 'compose_file_sheet', 'file_sheet', '1');
    expect(problem.title.text).toBe('Check the file');
    expect(viewText(problem)).toContain('Sheet “Notlar” of 2 visible sheets');
    expect(viewText(problem)).not.toContain('compose_file_column');

    const back = await pick(problem, 'compose_file_sheet', 'file_sheet', '0');
    expect(back.callback_id).toBe('confirm_send');
    expect(viewText(back)).toContain('Sheet “Liste” of 2 visible sheets');
    expect(await sendShown(/1 pending$/)).toEqual(['905446000001']);
  });

  it('offers close number columns with their share of mobiles, and sends to the column picked', async () => {
    const csv = [
      'Ad;Cep Telefonu;Telefon',
      'Ayşe;0532 300 00 01;0533 400 00 01',
      'Ali;0532 300 00 02;0533 400 00 02',
      'Veli;0532 300 00 03;0533 400 00 03',
    ].join('\r\n');
    const review = await submitFile('iki-cep.csv', new TextEncoder().encode(csv), 'Sütun testi.');
    const shown = viewText(review);
    expect(shown).toContain('Numbers from column “Cep Telefonu”');
    expect(shown).toContain('Telefon — 100% mobiles');

    const other = await pick(review, 'compose_file_column', 'file_column', '2');
    expect(viewText(other)).toContain('numbers from “Telefon”');
    expect(viewText(other)).toMatch(/Valid unique recipients\*\\n3/);

    expect(await sendShown(/3 pending$/)).toEqual(['905334000001', '905334000002', '905334000003']);
  });

  it('counts only the rows under the header of a personalised table with a title above it', async () => {
    const csv = ['Mart listesi;;', 'Ad;Telefon;Kod', 'Ayşe;0532 500 00 01;A1', 'Ali;0532 500 00 02;A2'].join(
      '\r\n',
    );
    const review = await submitFile(
      'baslikli.csv',
      new TextEncoder().encode(csv),
      'Merhaba {{Ad}}, kodunuz {{Kod}}.',
      true,
    );
    expect(review.callback_id).toBe('confirm_send');
    expect(viewText(review)).toMatch(/Rows read\*\\n2/);
  });
});
