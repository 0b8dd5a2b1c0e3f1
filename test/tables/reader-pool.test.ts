import { afterEach, describe, expect, it } from 'vitest';
import { TableFileError } from '../../src/tables/table-file.js';
import { type ReaderEvents, type TableReaderLimits, TableReaderPool } from '../../src/tables/worker/pool.js';
import { type FileReading, type ReadRequest, readFileFor } from '../../src/tables/worker/reading.js';
import { packageOf } from './xlsx-fixtures.js';

const utf8 = (text: string) => new Uint8Array(Buffer.from(text, 'utf8'));
const recipients: ReadRequest = { purpose: 'recipients', country: 'TR' };
const personalised: ReadRequest = {
  purpose: 'personalised',
  template: 'Merhaba {{Ad}}, kod {{Kod}}',
  country: 'TR',
};

function personalisedCsv(rows: number): string {
  const lines = ['Telefon;Ad;Kod'];
  for (let i = 0; i < rows; i++) lines.push(`0532${String(1_000_000 + i)};Ayşe ${i};K${i}`);
  // A bad number, a repeat, an empty value: refused by line.
  lines.push('12;Ali;K1', `0532${String(1_000_000)};Veli;K2`, '05329999999;;K3');
  return `${lines.join('\n')}\n`;
}

/** Threads started and not yet ended, as the pool reports them. */
function watched(): { events: ReaderEvents; live: () => number; most: () => number; ended: string[] } {
  let live = 0;
  let most = 0;
  const ended: string[] = [];
  return {
    events: {
      started: () => {
        most = Math.max(most, ++live);
      },
      ended: (reason) => {
        live--;
        ended.push(reason);
      },
    },
    live: () => live,
    most: () => most,
    ended,
  };
}

let pools: TableReaderPool[] = [];
function pool(limits: Partial<TableReaderLimits> = {}, events: ReaderEvents = {}): TableReaderPool {
  const made = new TableReaderPool(limits, events);
  pools.push(made);
  return made;
}
afterEach(async () => {
  await Promise.all(pools.map((p) => p.close()));
  pools = [];
});

function withValuesListed(reading: FileReading): FileReading {
  if (reading.purpose !== 'personalised' || !reading.personalised.addressed) return reading;
  const { addressed } = reading.personalised;
  const values = addressed.pieces.valuesByLine;
  const listed = Array.from({ length: values.length }, (_, i) => values.at(i));
  return {
    ...reading,
    personalised: {
      ...reading.personalised,
      addressed: { ...addressed, pieces: { ...addressed.pieces, valuesByLine: listed as string[] } },
    },
  };
}

describe('uploaded files read in a thread of their own', () => {
  it('gives what reading in this thread gives, long lists and all (chunked across)', async () => {
    const csv = personalisedCsv(60_000);
    const readers = pool();
    const inThread = await readers.read('p.csv', utf8(csv), personalised);
    // The message values stay packed on this side (src/sms/packed-strings.ts): the same values, read by index.
    expect(withValuesListed(inThread)).toEqual(
      withValuesListed(await readFileFor('p.csv', utf8(csv), personalised)),
    );
    if (inThread.purpose !== 'personalised') throw new Error('wrong purpose');
    expect(inThread.personalised.addressed!.rows.to).toHaveLength(60_000);
    expect(inThread.personalised.rejected.map((r) => r.line)).toEqual([60_002, 60_004]);
    expect(inThread.personalised.duplicates).toBe(1);

    const numbers = await readers.read('n.csv', utf8(csv), recipients);
    if (numbers.purpose !== 'recipients') throw new Error('wrong purpose');
    expect(numbers.recipients.recipients).toHaveLength(60_001);
    expect(numbers.recipients.recipients[0]).toBe('905321000000');
    // The same thread read both: it is kept between reads.
    expect(readers.size).toBe(1);
  });

  it('reads a personalised file whose template has no placeholder: one message for every row', async () => {
    const csv = personalisedCsv(100);
    const plain: ReadRequest = { purpose: 'personalised', template: 'Toplantı yarın 10:00', country: 'TR' };
    const inThread = await pool().read('p.csv', utf8(csv), plain);
    expect(withValuesListed(inThread)).toEqual(
      withValuesListed(await readFileFor('p.csv', utf8(csv), plain)),
    );
    if (inThread.purpose !== 'personalised') throw new Error('wrong purpose');
    expect(inThread.personalised.addressed!.rows.to).toHaveLength(101);
    expect(inThread.personalised.addressed!.pieces.literals).toEqual(['Toplantı yarın 10:00']);
  });

  it('refuses a CSV of one long line by its columns, while this thread goes on', async () => {
    const fields = Array.from({ length: 800_000 }, (_, i) => `isim${i}`);
    const readers = pool();
    let turns = 0;
    let reading = true;
    const ticking = (async () => {
      while (reading) {
        await new Promise((resolve) => setImmediate(resolve));
        turns++;
      }
    })();
    const refused = await readers
      .read('tek-satir.csv', utf8(fields.join(',')), personalised)
      .catch((error: unknown) => error);
    reading = false;
    await ticking;
    expect(refused).toBeInstanceOf(TableFileError);
    expect((refused as Error).message).toBe(
      '“tek-satir.csv”, line 1 has 800,000 columns: is it one long line? A list has one person per line (at most 1,000 columns): save it with one row per person and upload it again.',
    );
    // The event loop here turned while the thread read: nothing of the read ran on it.
    expect(turns).toBeGreaterThan(10);
  });

  it('ends a thread that runs out of memory, says so, and reads the next file', async () => {
    const w = watched();
    const readers = pool({ maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 4 }, w.events);
    const refused = await readers
      .read('buyuk.csv', utf8(personalisedCsv(300_000)), personalised)
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(TableFileError);
    expect((refused as Error).message).toMatch(
      /^“buyuk\.csv” needs more memory than a list of recipients can: reading it took more than 16 MB, so it was stopped\./,
    );
    const small = await readers.read('kucuk.csv', utf8(personalisedCsv(3)), personalised);
    expect(small.purpose === 'personalised' && small.personalised.addressed!.rows.to).toHaveLength(3);
    expect(w.ended).toContain('memory');
  });

  it('ends a read that takes longer than its time', async () => {
    const readers = pool({ timeoutMs: 1 });
    await expect(readers.read('yavas.csv', utf8(personalisedCsv(50_000)), personalised)).rejects.toThrow(
      '“yavas.csv” took longer than 0.001 s to read, so it was stopped.',
    );
    // Ended with its read: no thread is left reading it.
    await until(() => readers.size === 0);
  });

  it('reads at most `concurrency` files at once, the rest in turn', async () => {
    const w = watched();
    const readers = pool({ concurrency: 2 }, w.events);
    const csv = utf8(personalisedCsv(2_000));
    const all = await Promise.all(
      Array.from({ length: 6 }, () => readers.read('x.csv', csv.slice(), recipients)),
    );
    expect(all.every((r) => r.purpose === 'recipients' && r.recipients.recipients.length === 2_001)).toBe(
      true,
    );
    expect(w.most()).toBe(2);
  });

  it('refuses reads beyond the queue rather than holding them', async () => {
    const readers = pool({ concurrency: 1, maxQueued: 1 });
    const csv = utf8(personalisedCsv(2_000));
    const results = await Promise.allSettled(
      [1, 2, 3].map(() => readers.read('x.csv', csv.slice(), recipients)),
    );
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected']);
    expect(String((results[2] as PromiseRejectedResult).reason.message)).toContain(
      'files are being read already',
    );
  });

  it('refuses at once the bytes an earlier read took to its thread, rather than never answering', async () => {
    const readers = pool({ concurrency: 1 });
    const bytes = utf8(personalisedCsv(10));
    // A read moves its bytes: the second of two reads queued with one array finds them gone when its turn comes.
    const busy = readers.read('busy.csv', utf8(personalisedCsv(20_000)), personalised);
    const [first, second] = await Promise.allSettled([
      readers.read('a.csv', bytes, recipients),
      readers.read('a.csv', bytes, recipients),
    ]);
    await busy;
    expect(first.status).toBe('fulfilled');
    expect(second.status === 'rejected' && String(second.reason.message)).toContain(
      '“a.csv” was not read: its bytes were given to an earlier read',
    );
    // Asked again afterwards: refused before any thread is asked.
    await expect(readers.read('a.csv', bytes, recipients)).rejects.toThrow('Pass each read its own copy');
    const next = await readers.read('b.csv', utf8(personalisedCsv(10)), recipients);
    expect(next.purpose === 'recipients' && next.recipients.recipients).toContain('905321000000');
  }, 15_000);

  it("gives a thread's heap back once it idles after a large read, and says whether there was enough to", async () => {
    const released: boolean[] = [];
    const readers = pool({}, { released: (collected) => released.push(collected) });
    await readers.read('small.csv', utf8('Telefon\n05321234567\n'), recipients);
    await until(() => released.length === 1);
    // A fresh thread after a two-line file: too little garbage for a full collection's milliseconds.
    expect(released).toEqual([false]);
    // ~60 MB allocated by the read, most of it garbage once the answer is out.
    await readers.read('p.csv', utf8(personalisedCsv(120_000)), personalised);
    await until(() => released.length === 2);
    expect(released).toEqual([false, true]);
    expect(readers.size).toBe(1);
  });

  it('ends a thread left large by its read, and every thread at close, a read in flight told why', async () => {
    const w = watched();
    const readers = pool({ recycleAboveMb: 1 }, w.events);
    await readers.read('a.csv', utf8(personalisedCsv(20_000)), personalised);
    await until(() => w.ended.length === 1);
    expect(w.ended).toEqual(['recycled']);

    const inFlight = readers
      .read('b.csv', utf8(personalisedCsv(200_000)), personalised)
      .catch((e: Error) => e);
    await until(() => w.live() === 1);
    await readers.close();
    expect(((await inFlight) as Error).message).toContain('“b.csv” was not read: the app is restarting.');
    expect(readers.size).toBe(0);
    await expect(readers.read('c.csv', utf8('x'), recipients)).rejects.toThrow('the app is restarting');
  });
});

describe('a personalised row no SMS send can carry', () => {
  it('is refused by its line as too long, not made into a message', async () => {
    // 'Merhaba , kod ' is 14 characters: with a 1,515-character name and 'K2' the message is 1,531, one too many.
    const csv = [
      'Telefon;Ad;Kod',
      '05321000001;Ayşe;K1',
      `05321000002;${'a'.repeat(1_515)};K2`,
      `05321000003;${'ş'.repeat(30_000)};K3`,
      `05321000004;${'b'.repeat(1_514)};K4`,
    ].join('\n');
    const read = await pool().read('uzun.csv', utf8(csv), personalised);
    if (read.purpose !== 'personalised') throw new Error('wrong purpose');
    expect([...read.personalised.addressed!.rows.lines]).toEqual([2, 5]);
    expect(read.personalised.rejected).toEqual([
      {
        line: 3,
        input: '05321000002',
        reason:
          'message too long: at least 1,531 characters, and no SMS send carries more than 1,530 (10 parts of 153)',
      },
      {
        line: 4,
        input: '05321000003',
        reason:
          'message too long: at least 30,016 characters, and no SMS send carries more than 1,530 (10 parts of 153)',
      },
    ]);
    const values = read.personalised.addressed!.pieces.valuesByLine;
    const long = Array.from({ length: values.length }, (_, i) => values.at(i)).filter(
      (v) => v && v.length > 2_000,
    );
    expect(long).toEqual([]);
  });
});

/**
 * Issue 28's review bomb: a 218 kB workbook whose zip sizes are honest but whose shared strings inflate to
 * ~190 MB (999 strings of 99,500 'ş'), each row's name one of them.
 */
async function sharedStringsBomb(): Promise<Uint8Array> {
  const long = 'ş'.repeat(99_500);
  const strings = ['<si><t>Tel</t></si>', ...Array.from({ length: 999 }, () => `<si><t>${long}</t></si>`)];
  let data = '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="inlineStr"><is><t>Ad</t></is></c></row>';
  for (let r = 2; r < 900; r++) {
    data += `<row r="${r}"><c r="A${r}" t="inlineStr"><is><t>0532${1_000_000 + r}</t></is></c><c r="B${r}" t="s"><v>${r}</v></c></row>`;
  }
  return packageOf({
    sheets: [{ name: 'S', data }],
    sharedStrings: `<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">${strings.join('')}</sst>`,
  });
}

describe('a workbook whose text inflates past any list', () => {
  it('is refused by its shared strings, two at once, memory and this thread unharmed', async () => {
    const bomb = await sharedStringsBomb();
    const readers = pool();
    const mib = () => process.memoryUsage().rss / 2 ** 20;
    const idle = mib();
    let peak = idle;
    let stall = 0;
    let last = performance.now();
    const sampling = setInterval(() => {
      const now = performance.now();
      stall = Math.max(stall, now - last - 10);
      last = now;
      peak = Math.max(peak, mib());
    }, 10);
    const named = { purpose: 'personalised', template: 'Merhaba {{Ad}}', country: 'TR' } as const;
    const results = [
      ...(await Promise.allSettled([
        readers.read('a.xlsx', bomb.slice(), recipients),
        readers.read('b.xlsx', bomb.slice(), recipients),
      ])),
      ...(await Promise.allSettled([
        readers.read('c.xlsx', bomb.slice(), named),
        readers.read('d.xlsx', bomb.slice(), named),
      ])),
    ];
    clearInterval(sampling);
    expect(results.map((r) => (r.status === 'rejected' ? (r.reason as Error).message : r.status))).toEqual(
      ['a', 'b', 'c', 'd'].map(
        (name) =>
          `“${name}.xlsx” holds more than 32 MB of text in its cells: it is not a list of recipients (a list of 100,000 people holds a few MB).`,
      ),
    );
    expect(peak - idle).toBeLessThan(300);
    expect(stall).toBeLessThan(1_000);
  });
});

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}
