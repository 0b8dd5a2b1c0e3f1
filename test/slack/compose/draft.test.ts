import ExcelJS from 'exceljs';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import {
  buildDraft,
  type ComposeInput,
  columnsWantedFor,
  type DraftContext,
  storedDraftContext,
} from '../../../src/slack/compose/draft.js';
import { keptForm, keptNumbers, restoredForm } from '../../../src/slack/compose/stored-draft.js';
import { sendingSettingsOf } from '../../../src/slack/deps.js';
import { confirmView } from '../../../src/slack/ui/compose.js';
import { analyzeText } from '../../../src/sms/encoding.js';
import { PackedNumbers } from '../../../src/sms/packed-numbers.js';
import { PackedStrings } from '../../../src/sms/packed-strings.js';
import { renderEnvelopes } from '../../../src/sms/personalise.js';
import { openStore } from '../../../src/store/index.js';
import { personalisedTable } from '../../../src/tables/file-recipients.js';
import { HEAD_RECORDS, readTableFile } from '../../../src/tables/table-file.js';
import { readFileFor } from '../../../src/tables/worker/reading.js';
import { acrossThreads } from '../../support/across-threads.js';

const listOf = (numbers: string[] | PackedNumbers) =>
  numbers instanceof PackedNumbers ? numbers.toArray() : numbers;

const ctx: DraftContext = {
  defaultCountry: 'TR',
  settings: sendingSettingsOf(loadConfig({}).sending),
  optedOut: async () => new Set(),
};

/** A compose of `text` with an uploaded UTF-8 file, as the modal gives it; typed recipients when given. */
async function withUtf8File(
  mode: ComposeInput['mode'],
  name: string,
  content: string,
  text: string,
  recipientsText = '',
): Promise<ComposeInput> {
  const table = await readTableFile(name, new Uint8Array(Buffer.from(content, 'utf8')));
  return {
    sender: 'SMSOPS',
    senderOptions: ['SMSOPS'],
    mode,
    recipientsText,
    csvText: '',
    text,
    encoding: 'auto',
    validity: '',
    file: { name, table },
  };
}

/** The file as UTF-16 with its BOM, which (unlike UTF-8) can hold half of a surrogate pair. */
async function fromFile(csv: string, template: string) {
  const table = await readTableFile('list.csv', new Uint8Array(Buffer.from(`\uFEFF${csv}`, 'utf16le')));
  const input: ComposeInput = {
    sender: 'SMSOPS',
    senderOptions: ['SMSOPS'],
    mode: 'personalised',
    recipientsText: '',
    csvText: '',
    text: template,
    encoding: 'auto',
    validity: '',
    file: { name: 'list.csv', table },
  };
  const result = await buildDraft(input, ctx);
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result;
}

describe('a personalised draft from a file', () => {
  it('rejects the row whose value SMS cannot carry, by line and character, and keeps the others', async () => {
    const { draft, fileReport } = await fromFile(
      'Telefon;Ad\n05321234567;Ali\n05331234567;Ay\u0007şe\n05341234567;Can\n',
      'Merhaba {{Ad}}',
    );
    expect(draft.recipients).toEqual(['905321234567', '905341234567']);
    expect(fileReport?.rejected).toEqual([
      {
        line: 3,
        input: '05331234567',
        reason: 'Character 11 is a control character (U+0007) of the message: SMS cannot carry it',
      },
    ]);
  });

  it('keeps a row whose two values hold the two halves of one emoji: the message carries it whole', async () => {
    const { draft, fileReport } = await fromFile('Telefon;A;B\n05321234567;x\uD83D;\uDE00y\n', '{{A}}{{B}}');
    expect(fileReport?.rejected).toEqual([]);
    expect(draft.envelopes?.[0]?.message).toBe('x😀y');
    expect(draft.encoding).toBe('UCS2');
  });

  it('counts encoding and segments as analyzeText counts each message, short and long', async () => {
    const long = 'ş'.repeat(150);
    const { draft } = await fromFile(
      `Telefon;Ad\n05321234567;Ali\n05331234567;${long}\n05341234567;{[€]}\n`,
      'Sayın {{Ad}}, hoş geldiniz.',
    );
    const analyses = draft.envelopes!.map((e) => analyzeText(e.message, { encoding: draft.encoding }));
    expect(draft.encoding).toBe('TurkishSingleShift');
    expect(draft.segmentsPerMessage).toBe(Math.max(...analyses.map((a) => a.segments)));
    expect(draft.totalSegments).toBe(analyses.reduce((n, a) => n + a.segments, 0));
    expect(draft.segmentsPerMessage).toBeGreaterThan(1);
  });
});

describe('a personalised draft’s one coding', () => {
  it('is the widest any message needs, and its segments are analyzeText’s in it, whatever the rows mix', async () => {
    const values = fc.constantFrom(
      'Ali',
      'Ayşe',
      'Ğ'.repeat(160),
      'x'.repeat(158),
      // One SMS in GSM-7 (157 characters), two in the Turkish coding (more than 155).
      'x'.repeat(154),
      '{[€]}',
      'Жанна',
      '😀',
      'ı'.repeat(70),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(values, { minLength: 1, maxLength: 6 }), async (names) => {
        const rows = names.map((name, i) => `0532${1_000_000 + i};${name}`).join('\n');
        const { draft } = await fromFile(`Telefon;Ad\n${rows}\n`, 'Hi {{Ad}}');
        const messages = draft.envelopes!.map((e) => e.message);
        const own = messages.map((m) => analyzeText(m).encoding);
        const rank = ['GSM7', 'TurkishSingleShift', 'UCS2'];
        const widest = own.reduce((w, e) => (rank.indexOf(e) > rank.indexOf(w) ? e : w), 'GSM7');
        expect(draft.encoding).toBe(widest);
        const segments = messages.map((m) => analyzeText(m, { encoding: draft.encoding }).segments);
        expect(draft.totalSegments).toBe(segments.reduce((n, x) => n + x, 0));
        expect(draft.segmentsPerMessage).toBe(Math.max(...segments));
      }),
      { numRuns: 150 },
    );
  });
});

describe('a personalised draft with opted-out numbers', () => {
  it('leaves their rows out of the recipients and the messages alike, and counts them', async () => {
    const input = await withUtf8File(
      'personalised',
      'list.csv',
      'Telefon;Ad\n05321234567;Ali\n05331234567;Ayşe\n05341234567;Can\n',
      'Merhaba {{Ad}}',
    );
    const result = await buildDraft(input, {
      ...ctx,
      optedOut: async (numbers) => new Set(listOf(numbers).filter((n) => n === '905331234567')),
    });
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    expect(result.draft.recipients).toEqual(['905321234567', '905341234567']);
    expect(result.draft.envelopes).toEqual([
      { to: '905321234567', message: 'Merhaba Ali' },
      { to: '905341234567', message: 'Merhaba Can' },
    ]);
    expect(result.fileReport?.optedOut).toBe(1);
    expect(result.draft.totalSegments).toBe(2);
  });
});

describe('a same-text draft from a file with opted-out numbers', () => {
  const optedOut = async (numbers: string[] | PackedNumbers) =>
    new Set(listOf(numbers).filter((n) => n === '905331234567' || n === '905351234567'));
  const draftOf = async (recipientsText: string) => {
    const input = await withUtf8File(
      'same',
      'list.txt',
      '05321234567\n05331234567\n05341234567\n',
      'Merhaba',
      recipientsText,
    );
    const result = await buildDraft(input, { ...ctx, optedOut });
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    return result;
  };

  it('counts as the file’s only the opted-out numbers that came from the file', async () => {
    const fileOnly = await draftOf('');
    expect(fileOnly.draft.recipients).toEqual(['905321234567', '905341234567']);
    expect(fileOnly.fileReport?.optedOut).toBe(1);
    // A typed number opted out too, and one typed number the file has: still one of the file's.
    const withTyped = await draftOf('05351234567\n05321234567');
    expect(withTyped.draft.recipients.sort()).toEqual(['905321234567', '905341234567']);
    expect(withTyped.fileReport?.optedOut).toBe(1);
  });
});

describe('a same-text draft of a file’s numbers as the reading thread sends them (packed)', () => {
  const lines = Array.from({ length: 3_000 }, (_, i) => `0532${String(1_000_000 + i * 7)}`);
  const content = `Telefon\n${lines.join('\n')}\n${lines[5]}\nyanlış\n`;
  const opted = ['905321000000', '905321000700', '905321020993'];

  it('is the draft the same file makes read here, and stays one string into the drafts store and back', async () => {
    // The opt-outs as the bot looks them up: in a store.
    const store = await openStore('sqlite::memory:');
    for (const n of opted) await store.optOuts.add(n, { source: 'manual' });
    const stored = storedDraftContext('TR', ctx.settings, store.optOuts);
    const here = await withUtf8File('same', 'liste.csv', content, 'Kampanya');
    const reading = acrossThreads(
      await readFileFor('liste.csv', new Uint8Array(Buffer.from(content)), {
        purpose: 'recipients',
        country: 'TR',
      }),
    );
    const made = vi.spyOn(PackedNumbers.prototype, 'toArray');
    try {
      const packed = await buildDraft({ ...here, file: { name: 'liste.csv', reading } }, stored);
      if (!packed.ok) throw new Error(JSON.stringify(packed.errors));
      // The confirmation and the stored form, as the bot makes them, read no number one by one.
      const view = confirmView(packed.draft, 'draft:V1', false, undefined, packed.fileReport);
      const toKeep = { draft: packed.draft, channel: 'C1', rootViewId: 'V1' };
      const expires = new Date(Date.now() + 60_000);
      await store.drafts.put('draft:V1', 'U1', keptForm(toKeep) as never, expires, keptNumbers(toKeep));
      expect(made).not.toHaveBeenCalled();
      const read = await buildDraft(here, stored);
      if (!read.ok) throw new Error(JSON.stringify(read.errors));
      const { recipients, ...rest } = read.draft;
      expect(packed.draft).toMatchObject(rest);
      expect(packed.fileReport).toEqual(read.fileReport);
      expect(read.fileReport?.optedOut).toBe(3);
      expect(JSON.stringify(view)).toContain('2,997');
      const found = await store.drafts.get('draft:V1', new Date());
      // The JSON has no numbers: they are beside it, one string.
      expect(JSON.stringify(found?.payload)).not.toContain(recipients[0]);
      expect(found?.numbers?.split(',')).toEqual(recipients);
      const restored = restoredForm(found?.payload as unknown as typeof toKeep, found?.numbers);
      expect(restored?.draft.recipients).toEqual(recipients);
      expect(restored?.draft.totalSegments).toBe(read.draft.totalSegments);
      // Read at last (the send), the numbers are the same list.
      expect(packed.draft.recipients).toEqual(recipients);
    } finally {
      made.mockRestore();
      await store.close();
    }
  });

  it('gives nothing for a stored form with its numbers twice, or none, so nothing is sent from it', () => {
    const twice = { draft: { recipients: ['905321234567'] } } as unknown as Parameters<
      typeof restoredForm
    >[0];
    expect(restoredForm(twice, '905321234567')).toBeUndefined();
    expect(restoredForm({ draft: {} } as unknown as Parameters<typeof restoredForm>[0])).toBeUndefined();
    expect(restoredForm(twice)?.draft.recipients).toEqual(['905321234567']);
  });
});

describe('a draft from a spreadsheet read for the columns it uses', () => {
  it('is the draft from the whole sheet: the same recipients, messages, rejections and rows shown', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Liste');
    sheet.addRow(['Not', 'Ad', 'Cep Telefonu', 'Şehir']);
    const phones = (i: number) =>
      [5321000000 + i, `0533 ${1000000 + i}`, '5,32E+09', 'yok', undefined, 5321000000 + (i % 7)][i % 6];
    for (let i = 0; i < HEAD_RECORDS * 3; i++) {
      // Rows without a number, or without a name, past the first records too: they are shown as they are.
      sheet.addRow([
        `not ${i}`,
        i % 11 === 0 ? undefined : `Ayşe ${i}`,
        phones(i),
        i % 13 === 0 ? '' : 'Kadıköy',
      ]);
    }
    const bytes = new Uint8Array((await workbook.xlsx.writeBuffer()) as ArrayBuffer);
    for (const [mode, text] of [
      ['same', 'Kampanya başladı.'],
      ['personalised', 'Merhaba {{Ad}}, {{Şehir}} mağazası açıldı.'],
    ] as const) {
      const input: ComposeInput = {
        sender: 'SMSOPS',
        senderOptions: ['SMSOPS'],
        mode,
        recipientsText: '',
        csvText: '',
        text,
        encoding: 'auto',
        validity: '',
      };
      const whole = await readTableFile('list.xlsx', bytes);
      let asked = false;
      const wanted = columnsWantedFor(input, 'TR');
      const part = await readTableFile('list.xlsx', bytes, {
        columnsWanted: (head) => {
          asked = true;
          return wanted(head);
        },
      });
      expect(asked).toBe(true);
      // Read for fewer columns: the notes are not in the rows past the first records.
      expect(part.records.at(-1)?.fields[0]).toBe('');
      expect(whole.records.at(-1)?.fields[0]).not.toBe('');
      const fromWhole = await buildDraft({ ...input, file: { name: 'list.xlsx', table: whole } }, ctx);
      const fromPart = await buildDraft({ ...input, file: { name: 'list.xlsx', table: part } }, ctx);
      expect(fromPart.ok && fromPart.fileReport?.rejected.length).toBeGreaterThan(HEAD_RECORDS);
      expect(fromPart).toEqual(fromWhole);
      if (fromPart.ok && fromWhole.ok) expect(fromPart.draft.envelopes).toEqual(fromWhole.draft.envelopes);
    }
  });
});

describe('a personalised draft’s messages', () => {
  it('are joined when first read, the same as rendering the table, and are in every copy of the draft', async () => {
    const csv = 'Telefon;Ad;Kod\n05321234567;Ayşe;A1\n05331234567;Ali;B2\n05321234567;Tekrar;C3\n';
    const template = 'Merhaba {{Ad}}, kodunuz {{Kod}}.';
    const { draft } = await fromFile(csv, template);
    const table = await readTableFile('list.csv', new Uint8Array(Buffer.from(`\uFEFF${csv}`, 'utf16le')));
    const rendered = renderEnvelopes(template, personalisedTable(table, 'TR'), 'TR').envelopes;
    const expected = rendered.map(({ to, message }) => ({ to, message }));
    expect(draft.firstMessage).toBe('Merhaba Ayşe, kodunuz A1.');
    expect(JSON.parse(JSON.stringify(draft)).envelopes).toEqual(expected);
    expect({ ...draft }.envelopes).toEqual(expected);
    expect(draft.envelopes).toBe(draft.envelopes);
  });
});

describe('a personalised draft as the drafts store keeps it', () => {
  it('stores the template’s text and the values, a fraction of the messages, and joins the same messages again', async () => {
    const rows = Array.from({ length: 300 }, (_, i) => `0532${1_000_000 + i};Ayşe ${i};#${i}`);
    const result = await fromFile(
      `Telefon;Ad;Sipariş\n${rows.join('\n')}\n05321000005;Tekrar;#x\n`,
      'Merhaba {{Ad}}, {{Sipariş}} numaralı siparişiniz hazır. {{Ad}}, Kadıköy mağazasından alabilirsiniz.',
    );
    const stored = { draft: result.draft, compact: result.compact, channel: 'C1', rootViewId: 'V1' };
    const kept = JSON.parse(JSON.stringify(keptForm(stored)));
    expect(kept.draft.envelopes).toBeUndefined();
    expect(JSON.stringify(kept).length).toBeLessThan(JSON.stringify(stored.draft.envelopes).length / 2);
    const restored = restoredForm(kept);
    expect(restored?.draft.envelopes).toEqual(
      result.draft.envelopes!.map(({ to, message }) => ({ to, message })),
    );
    expect(restored?.draft.recipients).toHaveLength(300);
  });

  it('keeps a file’s values packed from the reading thread into the store and back: the same messages, less JSON', async () => {
    const rows = Array.from({ length: 2_000 }, (_, i) =>
      i % 97 === 5
        ? `yanlış;Ayşe ${i};#${i}`
        : `0532${1_000_000 + i};Ayşe Çağrı ${i};${i % 50 === 0 ? '' : `#${i}`}`,
    );
    const content = `Telefon;Ad;Sipariş\n${rows.join('\n')}\n05321000007;Tekrar;#x\n`;
    const template = 'Merhaba {{Ad}}, {{Sipariş}} hazır. {{Ad}}, iyi günler.';
    // Opted-out rows in the middle of the file: the values kept skip them.
    const store = await openStore('sqlite::memory:');
    for (const n of ['905321000301', '905321000302', '905321001999'])
      await store.optOuts.add(n, { source: 'manual' });
    const context = storedDraftContext('TR', ctx.settings, store.optOuts);
    const here = await withUtf8File('personalised', 'liste.csv', content, template);
    const onMain = await buildDraft(here, context);
    const reading = acrossThreads(
      await readFileFor('liste.csv', new Uint8Array(Buffer.from(content)), {
        purpose: 'personalised',
        template,
        country: 'TR',
      }),
    );
    const joined = vi.spyOn(PackedStrings.prototype, 'at');
    try {
      const packed = await buildDraft({ ...here, file: { name: 'liste.csv', reading } }, context);
      if (!packed.ok || !onMain.ok) throw new Error('refused');
      expect(packed.compact?.values).toBeInstanceOf(PackedStrings);
      const kept = JSON.stringify(keptForm({ draft: packed.draft, compact: packed.compact }));
      // The confirmation's example message is the only one joined before the send.
      expect(joined.mock.calls.length).toBeLessThanOrEqual(3);
      // Read in this thread or in a reading thread, the file's values are kept packed, the same either way, and
      // take less JSON than the messages they make.
      expect(onMain.compact?.values).toBeInstanceOf(PackedStrings);
      expect(kept).toBe(JSON.stringify(keptForm({ draft: onMain.draft, compact: onMain.compact })));
      expect(kept.length).toBeLessThan(JSON.stringify(onMain.draft.envelopes).length);
      const restored = restoredForm(JSON.parse(kept));
      expect(restored?.draft.envelopes).toEqual(onMain.draft.envelopes);
      expect(restored?.draft.envelopes).toHaveLength(2_000 - 21 - 40 - 3);
      expect(packed.fileReport).toEqual(onMain.fileReport);
    } finally {
      joined.mockRestore();
      await store.close();
    }
  });

  it('gives nothing for a stored form that does not add up, so nothing is sent from it', async () => {
    const result = await fromFile('Telefon;Ad\n05321234567;Ali\n', 'Merhaba {{Ad}}');
    const kept = JSON.parse(JSON.stringify(keptForm({ draft: result.draft, compact: result.compact })));
    // As a draft stored before its values were kept packed (a list of strings): restored, or with one value
    // missing, nothing.
    const listed = PackedStrings.fromJSON(kept.compact.values)!;
    kept.compact.values = Array.from({ length: listed.length }, (_, i) => listed.at(i));
    expect(restoredForm(structuredClone(kept))?.draft.envelopes).toEqual(result.draft.envelopes);
    kept.compact.values.pop();
    expect(restoredForm(kept)).toBeUndefined();
    const reading = acrossThreads(
      await readFileFor(
        'liste.csv',
        new Uint8Array(Buffer.from('Telefon;Ad\n05321234567;Ali\n05331234567;Veli\n')),
        {
          purpose: 'personalised',
          template: 'Merhaba {{Ad}}',
          country: 'TR',
        },
      ),
    );
    const packed = await buildDraft(
      {
        ...(await withUtf8File('personalised', 'liste.csv', 'Telefon\n', 'Merhaba {{Ad}}')),
        file: { name: 'liste.csv', reading },
      },
      ctx,
    );
    if (!packed.ok) throw new Error('refused');
    const keptPacked = JSON.parse(JSON.stringify(keptForm({ draft: packed.draft, compact: packed.compact })));
    expect(restoredForm(structuredClone(keptPacked))?.draft.envelopes).toHaveLength(2);
    // One value fewer than the recipients need, or a text shorter than its ends say: nothing.
    expect(
      restoredForm({
        ...keptPacked,
        compact: { ...keptPacked.compact, values: { ...keptPacked.compact.values, text: 'Ali' } },
      }),
    ).toBeUndefined();
    keptPacked.draft.recipients.push('905341234567');
    expect(restoredForm(keptPacked)).toBeUndefined();
  });
});

describe('a personalised draft from a pasted table', () => {
  const pasted = (csvText: string): ComposeInput => ({
    sender: 'SMSOPS',
    senderOptions: ['SMSOPS'],
    mode: 'personalised',
    recipientsText: '',
    csvText,
    text: 'Merhaba {{ad}}',
    encoding: 'auto',
    validity: '',
  });

  it("reads Excel's sep= first line, and says why when it names a separator that cannot be read", async () => {
    const read = await buildDraft(pasted('sep=;\ntelefon;ad\n05321234567;Ali, Veli\n'), ctx);
    expect(read.ok && read.draft.firstMessage).toBe('Merhaba Ali, Veli');
    const refused = await buildDraft(pasted('sep=|\ntelefon|ad\n05321234567|Ali\n'), ctx);
    expect(refused).toEqual({
      ok: false,
      errors: {
        csv: expect.stringContaining(
          'Line 1: it says the separator is “|”: use commas, semicolons or tabs between the values',
        ),
      },
    });
    // A table with nothing in it is still asked for, not told about by line.
    expect(await buildDraft(pasted(',,\n\n'), ctx)).toEqual({
      ok: false,
      errors: { csv: expect.stringContaining('Paste CSV with a header row') },
    });
  });
});
