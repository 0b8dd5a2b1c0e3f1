import ExcelJS from 'exceljs';
import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SEEDED, type ViewOutput } from '../../workspace/index.js';
import { manifestBotScopes } from '../../workspace/web-api/scopes.js';
import {
  askForRejectedRows,
  channels,
  editScheduled,
  type Harness,
  reviewOfFile,
  startHarness,
  textBlockOf,
  users,
} from '../support/slack-harness.js';

let h: Harness;

beforeAll(async () => {
  h = await startHarness({ sending: { confirmRecipients: 1_000 } });
  await h.store.optOuts.add('905339999999', { source: 'manual', by: users.admin });
});
afterAll(() => h.close());

function upload(filename: string, bytes: Uint8Array): string {
  return h.fake.state.files.addUpload({ filename, bytes: Buffer.from(bytes), uploader: users.admin }).id;
}

const viewText = (view: ViewOutput) => JSON.stringify(view.blocks);

/** Submits the compose modal with a file; resolves with the view that replaced "Reading the file". */
async function submitWithFile(
  view: ViewOutput,
  fileId: string,
  values: Record<string, Record<string, string>>,
) {
  const after = h.fake.state.journal.seq;
  const result = await h.driver.viewSubmission({
    userId: users.admin,
    view,
    values: { ...values, file: { file: [fileId] } },
  });
  expect(result.outcome.kind).toBe('pushed');
  await h.fake.state.waitForCall('views.update', (c) => typeof c.args.external_id === 'string', { after });
  return h.fake.state.views.top(users.admin)!;
}

describe('compose from an uploaded file', () => {
  it('shows what a Windows-1254 semicolon CSV gave, posts the rejected rows as a file, and sends only the valid numbers', async () => {
    const csv = iconv.encode(
      'Adı;Cep Telefonu\r\nAyşe;0532 111 11 11\r\nÇağrı;5,32E+09\r\nOğuz;5321111112\r\nAli;05321111111\r\nVeli;0533 999 99 99\r\nŞule;12\r\n',
      'win1254',
    );
    const view = await h.openCompose();
    expect(viewText(view)).toContain('file_input');
    const review = await submitWithFile(view, upload('müşteriler.csv', csv), {
      [textBlockOf(view)]: { text: 'Kampanya başladı.' },
    });
    const shown = viewText(review);
    expect(review.callback_id).toBe('confirm_send');
    expect(shown).toContain('Windows-1254, semicolon-separated');
    expect(shown).toContain('Cep Telefonu');
    expect(shown).toMatch(/Rows read\*\\n6/);
    expect(shown).toMatch(/Valid unique recipients\*\\n3/);
    expect(shown).toMatch(/Duplicates merged\*\\n1/);
    expect(shown).toMatch(/Opted-out removed\*\\n1/);
    expect(shown).toMatch(/Rows rejected\*\\n2/);
    expect(shown).toContain('Line 3: “5,32E+09”');
    expect(shown).toContain('Line 7: “12”');

    const after = await askForRejectedRows(h, review);
    const shared = await h.fake.state.waitFor('file', (e) => e.action === 'shared', { after });
    expect(shared.file.name).toBe('müşteriler-rejected.csv');
    // To the user who asked, in their DM with the app: the rows are the file's people, not the channel's business.
    expect(shared.file.channels).toEqual([SEEDED.ims.admin]);
    expect(
      await h.fake.state.waitFor(
        'view',
        (e) => JSON.stringify(e.view.blocks).includes('in your direct messages'),
        { after },
      ),
    ).toBeTruthy();
    const rejected = shared.file.bytes.toString('utf8');
    expect(rejected).toContain('3;"5,32E+09";"the spreadsheet wrote the number as 5,32E+09');
    expect(rejected).toContain('7;"12";');

    const sent = h.fake.state.journal.seq;
    await h.driver.viewSubmission({ userId: users.admin, view: h.fake.state.views.top(users.admin)! });
    await h.fake.state.waitForMessage((m) => m.channel === channels.smsOps && /2 pending$/.test(m.text), {
      after: sent,
    });
    const row = (await h.store.outbox.recent(5)).find((r) => r.text === 'Kampanya başladı.')!;
    // The opted-out number is not among them.
    expect(new Set(row.recipients)).toEqual(new Set(['905321111111', '905321111112']));
  });

  it('personalises from an .xlsx with numbers stored as numbers: columns found and one rendered example', async () => {
    const workbook = new ExcelJS.Workbook();
    const ws = workbook.addWorksheet('Müşteriler');
    ws.addRow(['GSM NO', 'İsim', 'Sipariş']);
    ws.addRow([5322222221, 'Ayşe', 'A-1']);
    ws.addRow([5322222222, 'Ali', 'A-2']);
    ws.addRow([5322222223, '', 'A-3']);
    const bytes = new Uint8Array((await workbook.xlsx.writeBuffer()) as ArrayBuffer);
    const compose = await h.openCompose();
    const view = await h.chooseInCompose(compose, 'mode', 'personalised');
    const review = await submitWithFile(view, upload('siparis.xlsx', bytes), {
      [textBlockOf(view)]: { text: 'Merhaba {{isim}}, siparişiniz {{Sipariş}} hazır.' },
    });
    const shown = viewText(review);
    expect(shown).toContain('Excel sheet “Müşteriler”');
    expect(shown).toContain('Columns found: “GSM NO”, “İsim”, “Sipariş”');
    expect(shown).toContain('Merhaba Ayşe, siparişiniz A-1 hazır.');
    expect(shown).toMatch(/Valid unique recipients\*\\n2/);
    expect(shown).toContain('Line 4: “5322222223” — column \\"İsim\\" is empty');
    const sent = h.fake.state.journal.seq;
    await h.driver.viewSubmission({ userId: users.admin, view: review });
    await h.fake.state.waitForMessage((m) => m.channel === channels.smsOps && /2 pending$/.test(m.text), {
      after: sent,
    });
    // What the gateway got: the messages joined again from the stored draft's template text and values.
    const batch = (await h.control.state()).batches.at(-1)!;
    expect(batch.recipients.map((r) => [r.to, r.text])).toEqual([
      ['905322222221', 'Merhaba Ayşe, siparişiniz A-1 hazır.'],
      ['905322222222', 'Merhaba Ali, siparişiniz A-2 hazır.'],
    ]);
  });

  it('says what is wrong with a file it cannot use, and sends nothing', async () => {
    const before = (await h.store.outbox.recent(50)).length;
    const view = await h.openCompose();
    const review = await submitWithFile(view, upload('scan.pdf', new Uint8Array([0x25, 0x50, 0x44, 0x46])), {
      [textBlockOf(view)]: { text: 'x' },
    });
    expect(review.title.text).toBe('Check the file');
    expect(viewText(review)).toContain('“scan.pdf” is not a file of recipients this app reads');
    const placeholder = await h.openCompose();
    const unknownColumn = await submitWithFile(
      await h.chooseInCompose(placeholder, 'mode', 'personalised'),
      upload('p.csv', Buffer.from('telefon,ad\n05321234567,Ayşe\n')),
      { [textBlockOf(placeholder)]: { text: 'Merhaba {{soyad}}' } },
    );
    expect(viewText(unknownColumn)).toContain('No column for {{soyad}}. “p.csv” has: telefon, ad.');
    expect((await h.store.outbox.recent(50)).length).toBe(before);
  });
});

describe('a file’s draft the store cannot keep', () => {
  it('replaces the confirmation with why, keeps no draft, and sends nothing', async () => {
    const before = (await h.store.outbox.recent(50)).length;
    const put = vi
      .spyOn(h.store.drafts, 'put')
      .mockRejectedValueOnce(new Error('SQLITE_FULL: database or disk is full'));
    try {
      const view = await h.openCompose();
      const after = h.fake.state.journal.seq;
      await h.driver.viewSubmission({
        userId: users.admin,
        view,
        values: {
          [textBlockOf(view)]: { text: 'Kampanya başladı.' },
          file: { file: [upload('liste.csv', Buffer.from('Telefon\n05321234567\n'))] },
        },
      });
      // The confirmation is shown first, then replaced once the store has refused the draft.
      const confirmation = await h.fake.state.waitForCall(
        'views.update',
        (c) => (c.args.view as { callback_id?: string })?.callback_id === 'confirm_send',
        { after },
      );
      await h.fake.state.waitForCall(
        'views.update',
        (c) => JSON.stringify(c.args.view).includes('Something went wrong on our side'),
        { after: confirmation.seq },
      );
      const top = h.fake.state.views.top(users.admin)!;
      expect(top.title.text).toBe('Check the file');
      expect(viewText(top)).not.toContain('SQLITE_FULL');
      expect(put).toHaveBeenCalledTimes(1);
      expect(await h.store.drafts.get(`draft:${view.id}`, new Date())).toBeUndefined();
      expect((await h.store.outbox.recent(50)).length).toBe(before);
    } finally {
      put.mockRestore();
    }
  });
});

describe('a scheduled send made from a file', () => {
  const inAnHour = () => String(Math.floor((Date.now() + 3_600_000) / 1000));

  /** Schedules a send from `filename` in `mode` and resolves with its card. */
  async function scheduledFrom(filename: string, csv: string, text: string, mode: 'same' | 'personalised') {
    const compose = await h.openCompose();
    const view = mode === 'personalised' ? await h.chooseInCompose(compose, 'mode', 'personalised') : compose;
    const review = await submitWithFile(view, upload(filename, Buffer.from(csv)), {
      [textBlockOf(view)]: { text },
      when: { when: 'schedule' },
      schedule_at: { schedule_at: inAnHour() },
    });
    expect(review.callback_id).toBe('confirm_send');
    const after = h.fake.state.journal.seq;
    await h.driver.viewSubmission({ userId: users.admin, view: review });
    return h.fake.state.waitForMessage(
      (m) => m.channel === channels.smsOps && JSON.stringify(m.blocks).includes(text.slice(0, 20)),
      { after },
    );
  }

  it('personalised: not reopened for Edit without its table; the author is told what to do instead', async () => {
    const card = await scheduledFrom(
      'kampanya.csv',
      'Telefon;Ad\n0532 111 11 21;Ayşe\n0532 111 11 22;Ali\n',
      'Merhaba {{Ad}}, planned from a file',
      'personalised',
    );
    h.mark();
    const opened = h.fake.state.calls('views.open').length;
    await h.driver.blockAction({ userId: users.admin, message: card, actionId: 'scheduled_edit' });
    await h.ephemeral(
      users.admin,
      /made from “kampanya\.csv” \(2 recipients\), which the compose modal cannot reopen/,
    );
    expect(h.fake.state.calls('views.open')).toHaveLength(opened);
  });

  it('same text, a few numbers: reopened for Edit with the numbers typed in', async () => {
    const card = await scheduledFrom(
      'few.txt',
      '0532 111 11 31\n0532 111 11 32\n',
      'A few numbers from a file',
      'same',
    );
    const form = await editScheduled(h, card);
    expect(JSON.stringify(form.blocks)).toMatch(/532 111 11 31/);
  });
});

describe('the rejected rows, on an app installed before im:write', () => {
  let old: Harness;
  beforeAll(async () => {
    old = await startHarness({ fakeSlack: { scopes: manifestBotScopes().filter((s) => s !== 'im:write') } });
  });
  afterAll(() => old.close());

  it('says what an admin must do, and shares the rows nowhere', async () => {
    const file = { filename: 'list.csv', bytes: Buffer.from('Telefon\n0532 111 11 11\n12\n') };
    const review = await reviewOfFile(old, file, 'Merhaba');
    expect(review.callback_id).toBe('confirm_send');
    const clicked = await askForRejectedRows(old, review);
    await old.fake.state.waitFor(
      'view',
      (e) => JSON.stringify(e.view.blocks).includes('lacks the `im:write` permission'),
      {
        after: clicked,
      },
    );
    expect(
      old.fake.state.journal.entries('file').filter((e) => e.seq > clicked && e.value.action === 'shared'),
    ).toEqual([]);
  });
});
