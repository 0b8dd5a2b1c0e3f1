import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TableReaderLimits } from '../../src/tables/worker/pool.js';
import type { ViewOutput } from '../../workspace/index.js';
import { type Harness, startHarness, textBlockOf, users } from '../support/slack-harness.js';
import { lyingXlsx } from '../support/zip-bomb.js';

/** The bot, and a promise for the next file a reading thread is handed. */
async function botWatchingReads(limits: Partial<TableReaderLimits> = {}) {
  const waiting: Array<(filename: string) => void> = [];
  const h = await startHarness({
    sending: { confirmRecipients: 1_000, maxRecipients: 400_000 },
    tableReader: {
      limits,
      events: {
        reading: (filename) => {
          for (const w of waiting.splice(0)) w(filename);
        },
      },
    },
  });
  const nextRead = () => new Promise<string>((resolve) => waiting.push(resolve));
  return { h, nextRead };
}

function upload(h: Harness, filename: string, bytes: Uint8Array): string {
  return h.fake.state.files.addUpload({ filename, bytes: Buffer.from(bytes), uploader: users.admin }).id;
}

/**
 * Submits a compose with a file, and once a reading thread has it, `/sms help`: resolves with that command's
 * ack, whether the file's outcome was shown before that ack came back, and the outcome.
 */
async function uploadAndAskForHelp(
  h: Harness,
  nextRead: () => Promise<string>,
  filename: string,
  bytes: Uint8Array,
  mode: 'same' | 'personalised' = 'same',
) {
  const compose = await h.openCompose();
  const view = mode === 'same' ? compose : await h.chooseInCompose(compose, 'mode', 'personalised');
  const after = h.fake.state.journal.seq;
  let shownBeforeHelp = false;
  const outcome = h.fake.state
    .waitForCall('views.update', (c) => typeof c.args.external_id === 'string', { after })
    .then(() => {
      shownBeforeHelp = true;
      return h.fake.state.views.top(users.admin)!;
    });
  const read = nextRead();
  const submitted = await h.driver.viewSubmission({
    userId: users.admin,
    view,
    values: {
      [textBlockOf(view)]: { text: mode === 'same' ? 'Merhaba' : 'Merhaba {{Ad}}' },
      file: { file: [upload(h, filename, bytes)] },
    },
  });
  expect(submitted.outcome.kind).toBe('pushed');
  expect(await read).toBe(filename);
  const help = await h.sms('help');
  const beforeOutcome = !shownBeforeHelp;
  return { help, beforeOutcome, outcome: await outcome };
}

const viewText = (view: ViewOutput) => JSON.stringify(view.blocks);

describe('no upload can hurt the bot: files are read in a thread of their own', () => {
  let h: Harness;
  let nextRead: () => Promise<string>;
  beforeAll(async () => {
    ({ h, nextRead } = await botWatchingReads());
  });
  afterAll(() => h.close());

  it('a zip whose directory lies about its sizes: the person is told, and /sms help is answered while it is read', async () => {
    const bomb = await lyingXlsx(256 * 2 ** 20);
    const { help, beforeOutcome, outcome } = await uploadAndAskForHelp(h, nextRead, 'liste.xlsx', bomb);
    expect(help.status).toBe(200);
    expect(beforeOutcome).toBe(true);
    expect(outcome.title.text).toBe('Check the file');
    // The reader's own refusal, or the thread's memory limit: either says what is wrong with the file.
    expect(viewText(outcome)).toMatch(
      /“liste\.xlsx” (cannot be read as an Excel workbook|unpacks to more than|needs more memory)/,
    );
  });

  it('a CSV of one long line is refused by its columns, and /sms help is answered while it is read', async () => {
    const line = Array.from({ length: 800_000 }, (_, i) => `isim${i}`).join(',');
    const { help, beforeOutcome, outcome } = await uploadAndAskForHelp(
      h,
      nextRead,
      'tek-satir.csv',
      Buffer.from(line),
      'personalised',
    );
    expect(help.status).toBe(200);
    expect(beforeOutcome).toBe(true);
    expect(outcome.title.text).toBe('Check the file');
    expect(viewText(outcome)).toContain(
      '“tek-satir.csv”, line 1 has 800,000 columns: is it one long line? A list has one person per line',
    );
  });

  it('/sms lists import reads its file in a reading thread too, and refuses one long line the same way', async () => {
    const importFile = async (name: string, filename: string, bytes: Buffer) => {
      const after = h.fake.state.journal.seq;
      await h.sms(`lists import ${name}`);
      const opened = await h.fake.state.waitForCall('views.open', () => true, { after });
      const modal = h.fake.state.views.get(String((opened.result as { view: { id: string } }).view.id))!;
      const file = h.fake.state.files.addUpload({ filename, bytes, uploader: users.admin });
      const submitted = h.fake.state.journal.seq;
      const read = nextRead();
      await h.driver.viewSubmission({
        userId: users.admin,
        view: modal,
        values: { file: { file: [file.id] } },
      });
      expect(await read).toBe(filename);
      await h.fake.state.waitForCall(
        'views.update',
        (c) => c.args.view_id === modal.id && !JSON.stringify(c.args.view).includes('Reading'),
        { after: submitted },
      );
      return JSON.stringify(h.fake.state.views.get(modal.id)!.blocks);
    };
    const numbers = Array.from({ length: 30_000 }, (_, i) => `0532${String(2_000_000 + i)}`);
    expect(await importFile('veliler', 'veliler.csv', Buffer.from(`GSM\n${numbers.join('\n')}\n`))).toContain(
      'it now holds 30,000 numbers',
    );
    expect((await h.store.recipientLists.get('veliler'))!.members).toHaveLength(30_000);

    const oneLine = Array.from({ length: 200_000 }, (_, i) => `0532${String(3_000_000 + i)}`).join(';');
    const refused = await importFile('tek', 'tek.csv', Buffer.from(oneLine));
    expect(refused).toContain('“tek.csv”, line 1 has 200,000 columns: is it one long line?');
    expect(await h.store.recipientLists.get('tek')).toBeUndefined();
  });
});

describe('a reading thread that runs out of memory', () => {
  let h: Harness;
  let nextRead: () => Promise<string>;
  beforeAll(async () => {
    // A heap a tenth of a real list's need: a file of 300,000 rows is more than it can hold.
    ({ h, nextRead } = await botWatchingReads({ maxOldGenerationSizeMb: 24, maxYoungGenerationSizeMb: 4 }));
  });
  afterAll(() => h.close());

  it('is ended, the person is told the file needs more memory than a list can, and the bot goes on serving', async () => {
    const rows = ['Telefon;Ad'];
    for (let i = 0; i < 300_000; i++) rows.push(`0532${String(1_000_000 + i)};Ayşe ${i}`);
    const { help, outcome } = await uploadAndAskForHelp(
      h,
      nextRead,
      'buyuk.csv',
      Buffer.from(rows.join('\n')),
      'personalised',
    );
    expect(help.status).toBe(200);
    expect(outcome.title.text).toBe('Check the file');
    expect(viewText(outcome)).toContain(
      '“buyuk.csv” needs more memory than a list of recipients can: reading it took more than 24 MB, so it was stopped.',
    );

    // The next file is read by a fresh thread, and its confirmation shown.
    const small = await uploadAndAskForHelp(
      h,
      nextRead,
      'kucuk.csv',
      Buffer.from('Telefon;Ad\n05321234567;Ayşe\n'),
      'personalised',
    );
    expect(small.help.status).toBe(200);
    expect(small.outcome.callback_id).toBe('confirm_send');
    expect(viewText(small.outcome)).toContain('Merhaba Ayşe');
  });
});
