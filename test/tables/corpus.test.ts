import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { joinMessage, renderEnvelopes } from '../../src/sms/personalise.js';
import { personalisedTable, recipientsFromTable } from '../../src/tables/file-recipients.js';
import { readTableFile, type Table, TableFileError } from '../../src/tables/table-file.js';
import { TableReaderPool } from '../../src/tables/worker/pool.js';

/**
 * Issue 28: recipient lists written by real writers (openpyxl, xlsxwriter, LibreOffice, Gnumeric, exceljs,
 * SheetJS, and crafted variants of what Power BI, the Open XML SDK and others write), built by
 * scripts/corpus/build.mjs into test/data/corpus/. What each cell must read as comes from openpyxl (or Python's
 * csv module), run here again over the committed files; how a cell is shown is computed below from openpyxl's
 * value and number format, in the Turkish convention (dd.MM.yyyy, HH:mm, 1.087,50), not by the app's code.
 */

const CORPUS = join(import.meta.dirname, '..', 'data', 'corpus');
const SCRIPTS = join(import.meta.dirname, '..', '..', 'scripts', 'corpus');
// Debian's python3-openpyxl belongs to Debian's Python; a python3 from pyenv or a venv on PATH does not have it.
const PYTHON = process.env.PYTHON ?? (existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3');
const run = promisify(execFile);

interface Entry {
  file: string;
  writer: string;
  made: string;
  /** A file taken from a public corpus, not made here. */
  source?: { package: string; path: string; sha256: string; upstream: string; licence: string };
  truth: { reader: 'openpyxl' | 'csv' | 'none'; encoding?: string; delimiter?: string; skipLines?: number };
  expect:
    | { refusal: 'ods' | 'xls' | 'password' }
    // Not a list of recipients: the sheet read and its cells are what is checked.
    | { cellsOnly: true }
    | { mobileColumn: string; recipients: string[]; names?: string[]; lettersOrRefusal?: boolean };
}
interface TruthCell {
  row: number;
  column: number;
  type: 'text' | 'number' | 'date' | 'bool' | 'time' | 'duration';
  value: string | number | boolean;
  format: string;
  builtin: number | null;
}
interface WorkbookTruth {
  reader: 'openpyxl';
  sheets: { name: string; kind: 'worksheet' | 'chartsheet'; state: 'visible' | 'hidden' | 'veryHidden' }[];
  active: string;
  cells: Record<string, TruthCell[]>;
}
interface CsvTruth {
  reader: 'csv';
  records: { line: number; fields: string[] }[];
}

const manifest = JSON.parse(readFileSync(join(CORPUS, 'manifest.json'), 'utf8')) as Entry[];
const committedTruth = (file: string) =>
  JSON.parse(readFileSync(join(CORPUS, `${file}.truth.json`), 'utf8')) as WorkbookTruth | CsvTruth;
const bytesOf = (file: string) => new Uint8Array(readFileSync(join(CORPUS, file)));

// ---- How Excel in a Turkish locale shows a cell: written here from the format codes, independently of src/.

/** ECMA-376 Part 1, 22.4.2.4: `_xHHHH_` in stored text is the character U+HHHH (openpyxl 3.0 leaves it). */
const unescapeOoxml = (text: string) =>
  text.replace(/_x([0-9A-Fa-f]{4})_/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));

/** 1087.5 with `decimals` places as Turkish shows it: 1.087,50. */
function turkishNumber(value: number, decimals: number, grouped: boolean): string {
  const [whole, fraction] = Math.abs(value).toFixed(decimals).split('.') as [string, string?];
  const digits = grouped ? whole.replace(/\B(?=(\d{3})+$)/g, '.') : whole;
  return `${value < 0 ? '-' : ''}${digits}${fraction ? `,${fraction}` : ''}`;
}

interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}
/** openpyxl's naive ISO date-time, rounded to the second as Excel does before it shows one. */
function wallClock(iso: string): WallClock {
  const ms = Math.round(Date.parse(`${iso}Z`) / 1000) * 1000;
  const d = new Date(ms);
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
  };
}
const two = (n: number) => String(n).padStart(2, '0');
const TURKISH_MONTHS = ['Oca', 'Şub', 'Mar', 'Nis', 'May', 'Haz', 'Tem', 'Ağu', 'Eyl', 'Eki', 'Kas', 'Ara'];

/**
 * A custom date code token by token: d dd m mm yy yyyy h hh mm (minutes after h) ss, `\x` and quoted literals.
 * An unescaped `/` is the date separator, which Excel shows as the locale's: `.` in Turkish (LibreOffice saves
 * its en-US short date as the custom code m/d/yyyy, which Turkish Excel shows as 3.15.2024).
 */
function customDate(code: string, t: WallClock): string {
  const tokens = code.match(/\\.|"[^"]*"|yyyy|yy|dd|d|mm|m|hh|h|ss|s|./gi) ?? [];
  let out = '';
  let afterHour = false;
  tokens.forEach((token, i) => {
    const lower = token.toLowerCase();
    const beforeSeconds = tokens
      .slice(i + 1)
      .find((x) => /^[dmyhs]/i.test(x))
      ?.toLowerCase()
      .startsWith('s');
    if (lower === 'yyyy') out += t.year;
    else if (lower === 'yy') out += two(t.year % 100);
    else if (lower === 'dd') out += two(t.day);
    else if (lower === 'd') out += t.day;
    else if (lower === 'mm' || lower === 'm') {
      const minutes = afterHour || beforeSeconds;
      const n = minutes ? t.minute : t.month;
      out += lower === 'mm' ? two(n) : n;
      afterHour = false;
    } else if (lower === 'hh' || lower === 'h') {
      out += lower === 'hh' ? two(t.hour) : t.hour;
      afterHour = true;
    } else if (lower === 'ss' || lower === 's') out += lower === 'ss' ? two(t.second) : t.second;
    else if (token === '/') out += '.';
    else if (token.startsWith('\\')) out += token.slice(1);
    else if (token.startsWith('"')) out += token.slice(1, -1);
    else out += token;
  });
  return out;
}

/** The text a person sees in the cell in Turkish Excel; throws for a format this corpus was not built with. */
function shown(cell: TruthCell): string {
  if (cell.type === 'text') return unescapeOoxml(String(cell.value)).trim();
  if (cell.type === 'date') {
    const t = wallClock(String(cell.value));
    // Built-in 14 and 22 follow the reader's locale: Turkish short date and time.
    if (cell.builtin === 14) return `${two(t.day)}.${two(t.month)}.${t.year}`;
    if (cell.builtin === 22) return `${two(t.day)}.${two(t.month)}.${t.year} ${two(t.hour)}:${two(t.minute)}`;
    if (cell.builtin === null) return customDate(cell.format, t);
    // Built-in 17 (en-US mmm-yy) too: Turkish Excel shows it with its month abbreviation and date separator.
    if (cell.builtin === 17) return `${TURKISH_MONTHS[t.month - 1]}.${two(t.year % 100)}`;
  }
  if (cell.type === 'number' && typeof cell.value === 'number') {
    const value = cell.value;
    if (cell.builtin === 0 && Number.isInteger(value)) return String(value);
    // General shows a fraction with the locale's decimal mark (1087,5), in a column's 11 characters: a longer one
    // rounded to fit (0,021211775).
    if (cell.builtin === 0 && String(value).replace(/\D/g, '').length <= 10)
      return String(value).replace('.', ',');
    if (cell.builtin === 0 && value > 1e-4 && value < 1e10) {
      const wholeDigits = Math.max(1, Math.floor(Math.log10(value)) + 1);
      const text = value.toFixed(10 - wholeDigits);
      return (text.includes('.') ? text.replace(/\.?0+$/, '') : text).replace('.', ',');
    }
    if (cell.builtin === 1) return turkishNumber(value, 0, false);
    if (cell.builtin === 3 || cell.format === '#,##0') return turkishNumber(value, 0, true);
    if (cell.builtin === 4 || cell.format === '#,##0.00') return turkishNumber(value, 2, true);
    if (cell.builtin === 2 || cell.format === '0.00') return turkishNumber(value, 2, false);
  }
  throw new Error(
    `the corpus test does not know how Excel shows ${JSON.stringify(cell)}: teach shown() first`,
  );
}

/** The sheet issue 28 says to read: the active tab when it is a visible worksheet, else the first visible one. */
function sheetToRead(truth: WorkbookTruth): string {
  const visible = truth.sheets.filter((s) => s.kind === 'worksheet' && s.state === 'visible');
  return visible.some((s) => s.name === truth.active) ? truth.active : visible[0]!.name;
}

/** Cells the reader got wrong, missed or made up, as "A1: got … want …" lines. */
function cellDifferences(table: Table, want: Map<string, string>): string[] {
  const got = new Map<string, string>();
  for (const record of table.records) {
    record.fields.forEach((field, i) => {
      if (field.trim() !== '') got.set(`${columnName(i + 1)}${record.line}`, field);
    });
  }
  const differences: string[] = [];
  for (const [at, text] of want) {
    if (got.get(at) !== text)
      differences.push(`${at}: got ${JSON.stringify(got.get(at))}, want ${JSON.stringify(text)}`);
  }
  for (const [at, text] of got)
    if (!want.has(at)) differences.push(`${at}: got ${JSON.stringify(text)}, want nothing`);
  return differences;
}

function columnName(n: number): string {
  let name = '';
  for (let c = n; c > 0; c = Math.floor((c - 1) / 26)) name = String.fromCharCode(65 + ((c - 1) % 26)) + name;
  return name;
}

/** The file's numbers, read from its mobile column: every row a recipient, none rejected. */
function expectEveryRowSent(table: Table, expected: { mobileColumn: string; recipients: string[] }): void {
  const got = recipientsFromTable(table, 'TR');
  expect({ column: got.numberColumn, rejected: got.rejected, rows: got.rowsRead }).toEqual({
    column: expected.mobileColumn,
    rejected: [],
    rows: expected.recipients.length,
  });
  expect(got.recipients).toEqual(expected.recipients);
}

async function refusalOf(file: string, bytes: Uint8Array): Promise<string> {
  try {
    const table = await readTableFile(file, bytes);
    return `read as ${table.records.length} records, not refused`;
  } catch (error) {
    if (!(error instanceof TableFileError)) return `crashed: ${String(error)}`;
    // The file's own name says nothing of why: the reason must.
    return error.message.split(file).join('<file>');
  }
}

// ---- The truth, read again from the committed files by openpyxl, and the writers run again.

const work = mkdtempSync(join(tmpdir(), 'smsops-corpus-test-'));
let freshTruth: Map<string, unknown>;
let rebuiltTruth: Map<string, unknown>;

async function truthOf(dir: string, entries: Entry[]): Promise<Map<string, unknown>> {
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(entries));
  const out = mkdtempSync(join(work, 'truth-'));
  await run(PYTHON, [join(SCRIPTS, 'truth.py'), dir, out]).catch((error: { stderr?: string }) => {
    throw new Error(
      `scripts/corpus/truth.py failed (needs Debian's python3-openpyxl; PYTHON=${PYTHON}): ${error.stderr ?? error}`,
    );
  });
  const truths = new Map<string, unknown>();
  for (const entry of entries) {
    if (entry.truth.reader === 'none') continue;
    truths.set(entry.file, JSON.parse(readFileSync(join(out, `${entry.file}.truth.json`), 'utf8')));
  }
  return truths;
}

beforeAll(async () => {
  // The committed files, read again: the committed truth must be what openpyxl says of them today.
  const copy = mkdtempSync(join(work, 'corpus-'));
  for (const entry of manifest) writeFileSync(join(copy, entry.file), bytesOf(entry.file));
  freshTruth = await truthOf(copy, manifest);
  // The Python writers run again (deterministic in content; the zip's times differ): same truth as committed.
  const rebuilt = mkdtempSync(join(work, 'rebuilt-'));
  const { RECIPIENTS, NOT_RECIPIENTS, HEADER } = await import('../../scripts/corpus/recipients.mjs');
  const spec = join(work, 'spec.json');
  writeFileSync(
    spec,
    JSON.stringify({ recipients: RECIPIENTS, notRecipients: NOT_RECIPIENTS, header: HEADER }),
  );
  await run(PYTHON, [join(SCRIPTS, 'write_openpyxl.py'), spec, rebuilt]);
  await run(PYTHON, [join(SCRIPTS, 'write_xlsxwriter.py'), spec, rebuilt]);
  rebuiltTruth = await truthOf(
    rebuilt,
    manifest.filter((e) => e.writer === 'openpyxl' || e.writer === 'xlsxwriter'),
  );
}, 120_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the corpus and its truth', () => {
  it('holds every kind of file issue 28 names, each with its source, under 3 MB in all', () => {
    const writers = new Set(manifest.map((e) => e.writer.split(',')[0]));
    for (const writer of ['openpyxl', 'xlsxwriter', 'LibreOffice Calc', 'Gnumeric ssconvert', 'exceljs']) {
      expect(writers).toContain(writer);
    }
    expect([...writers].some((w) => w?.startsWith('SheetJS'))).toBe(true);
    const size = manifest.reduce((sum, e) => sum + bytesOf(e.file).length, 0);
    expect(size).toBeLessThan(3 * 1024 * 1024);
    const readme = readFileSync(join(CORPUS, '..', 'README.md'), 'utf8');
    for (const entry of manifest) expect(readme).toContain(entry.file);
  });

  it('holds files Excel made, each the public corpus’s own (by its SHA-256), with its package and licence', () => {
    const published = manifest.filter((e) => e.source);
    expect(published.filter((e) => /Excel/.test(e.writer)).length).toBeGreaterThanOrEqual(5);
    for (const entry of published) {
      const sha256 = createHash('sha256').update(bytesOf(entry.file)).digest('hex');
      expect(sha256, entry.file).toBe(entry.source!.sha256);
      expect(entry.source!.licence, entry.file).toMatch(/GPL-3|MIT/);
    }
  });

  it('has the truth openpyxl and Python’s csv module give of the committed files today', () => {
    for (const [file, truth] of freshTruth) expect(truth, file).toEqual(committedTruth(file));
  });

  it('is what scripts/corpus/ writes again with openpyxl and xlsxwriter', () => {
    expect(rebuiltTruth.size).toBeGreaterThan(10);
    for (const [file, truth] of rebuiltTruth) expect(truth, file).toEqual(committedTruth(file));
  });
});

const refusals = manifest.filter((e) => 'refusal' in e.expect);
const workbooks = manifest.filter((e) => e.truth.reader === 'openpyxl');
const texts = manifest.filter((e) => e.truth.reader === 'csv');

describe('workbooks as openpyxl reads them', () => {
  describe.each(workbooks.map((e) => [`${e.file} (${e.writer}: ${e.made})`, e] as const))(
    '%s',
    (_, entry) => {
      const truth = () => committedTruth(entry.file) as WorkbookTruth;
      const expected = entry.expect as { mobileColumn: string; recipients: string[] };
      const recipientList = 'mobileColumn' in entry.expect;

      it('reads the sheet a person sees and names the other visible worksheets', async () => {
        const table = await readTableFile(entry.file, bytesOf(entry.file));
        expect(table.sheet).toBe(sheetToRead(truth()));
        expect(table.sheets).toEqual(
          truth()
            .sheets.filter((s) => s.kind === 'worksheet' && s.state === 'visible')
            .map((s) => s.name),
        );
      });

      it('gives every cell as Turkish Excel shows it, and nothing else', async () => {
        const table = await readTableFile(entry.file, bytesOf(entry.file));
        const cells = truth().cells[sheetToRead(truth())] ?? [];
        const want = new Map(cells.map((c) => [`${columnName(c.column)}${c.row}`, shown(c)] as const));
        expect(cellDifferences(table, want)).toEqual([]);
      });

      // Only a list of recipients has a mobile column, and a header to find by it.
      if (recipientList) {
        it(`sends to the “${expected.mobileColumn}” column, every row a recipient`, async () => {
          const table = await readTableFile(entry.file, bytesOf(entry.file));
          expectEveryRowSent(table, expected);
        });

        it('finds the header for a personalised send, and the mobile column in it', async () => {
          const table = await readTableFile(entry.file, bytesOf(entry.file));
          const personalised = personalisedTable(table, 'TR');
          expect(personalised.errors).toEqual([]);
          expect(personalised.numberColumn).toBe(expected.mobileColumn);
          expect(personalised.rows).toHaveLength(expected.recipients.length);
          // The header is the row with the mobile column's name; each of its cells names a column.
          const cells = truth().cells[sheetToRead(truth())] ?? [];
          const headerRow = cells.find((c) => c.value === expected.mobileColumn)?.row;
          const header = cells.filter((c) => c.row === headerRow);
          expect(header.length).toBeGreaterThan(1);
          for (const cell of header) expect(personalised.columns).toContain(shown(cell));
        });
      }
    },
  );
});

describe('CSV files as Python’s csv module reads them', () => {
  describe.each(texts.map((e) => [`${e.file} (${e.writer}: ${e.made})`, e] as const))('%s', (_, entry) => {
    const truth = () => committedTruth(entry.file) as CsvTruth;
    const expected = entry.expect as {
      mobileColumn: string;
      recipients: string[];
      lettersOrRefusal?: boolean;
    };

    async function read(): Promise<Table | TableFileError> {
      try {
        return await readTableFile(entry.file, bytesOf(entry.file));
      } catch (error) {
        if (error instanceof TableFileError && expected.lettersOrRefusal) return error;
        throw error;
      }
    }

    it(
      expected.lettersOrRefusal
        ? 'gives the right letters, or refuses the file saying to save it as UTF-8'
        : 'gives every field with the right letters',
      async () => {
        const table = await read();
        if (table instanceof TableFileError) {
          expect(table.message).toMatch(/UTF-8/);
          return;
        }
        const got = new Map(table.records.map((r) => [r.line, r.fields] as const));
        for (const record of truth().records) {
          const fields = [...(got.get(record.line) ?? [])];
          while (fields.length > record.fields.length && fields.at(-1) === '') fields.pop();
          expect(fields, `line ${record.line}`).toEqual(record.fields.map((f) => f.trim()));
        }
      },
    );

    it(`sends to the “${expected.mobileColumn}” column, every row a recipient`, async () => {
      const table = await read();
      if (table instanceof TableFileError) return expect(table.message).toMatch(/UTF-8/);
      expectEveryRowSent(table, expected);
      const personalised = personalisedTable(table, 'TR');
      expect(personalised.errors).toEqual([]);
      expect(personalised.numberColumn).toBe(expected.mobileColumn);
    });
  });
});

describe('files refused with the real reason', () => {
  const reasons = {
    ods: /OpenDocument|\bods\b|LibreOffice|OpenOffice/i,
    xls: /\bxls\b|97-2003|Excel 97|older Excel/i,
    password: /password|parola|şifre/i,
  };
  it.each(refusals.map((e) => [`${e.file} (${e.made})`, e] as const))('%s', async (_, entry) => {
    const kind = (entry.expect as { refusal: keyof typeof reasons }).refusal;
    const message = await refusalOf(entry.file, bytesOf(entry.file));
    expect(message).toMatch(reasons[kind]);
    if (kind === 'password') expect(message).toMatch(/without/i);
    else expect(message).toMatch(/\.xlsx|CSV/);
  });
});

// ---- What a send becomes: the SMS texts, on the main thread and through the reading threads the compose uses.

const FULL_TEMPLATE = 'Sayın {{Ad Soyad}}, randevunuz {{Randevu}} {{Saat}}, borcunuz {{Tutar}} TL.';
const SHORT_TEMPLATE = 'Sayın {{Adı Soyadı}}, borcunuz {{Borç}} TL.';

/** The header's cells by name and the data rows' cells by column, as the truth has them (shown as Excel shows). */
function truthTable(entry: Entry): { header: string[]; rows: string[][] } {
  const mobile = (entry.expect as { mobileColumn: string }).mobileColumn;
  const truth = committedTruth(entry.file);
  if (truth.reader === 'csv') {
    const at = truth.records.findIndex((r) => r.fields.some((f) => f.trim() === mobile));
    return {
      header: truth.records[at]!.fields.map((f) => f.trim()),
      rows: truth.records.slice(at + 1).map((r) => r.fields.map((f) => f.trim())),
    };
  }
  const cells = truth.cells[sheetToRead(truth)] ?? [];
  const headerRow = cells.find((c) => c.value === mobile)!.row;
  const grid = new Map<number, string[]>();
  for (const cell of cells) {
    if (cell.row < headerRow) continue;
    const row = grid.get(cell.row) ?? [];
    row[cell.column - 1] = shown(cell);
    grid.set(cell.row, row);
  }
  const [header, ...rows] = [...grid.entries()].sort(([a], [b]) => a - b).map(([, row]) => row);
  return { header: header!, rows };
}

/** The texts the people of the file must get, filled in from the truth, in row order. */
function expectedMessages(entry: Entry, template: string): string[] {
  const { header, rows } = truthTable(entry);
  return rows.map((row) =>
    template.replace(/\{\{([^}]+)\}\}/g, (_, name: string) => row[header.indexOf(name)] ?? `<no ${name}>`),
  );
}

const sendable = manifest.filter(
  (e) => 'mobileColumn' in e.expect && !(e.expect as { lettersOrRefusal?: boolean }).lettersOrRefusal,
);

describe('the SMS each person gets', () => {
  let pool: TableReaderPool;
  beforeAll(() => {
    // A read that never answers fails with the pool's own reason, well before the test's 30 s.
    pool = new TableReaderPool({ timeoutMs: 10_000 });
  });
  afterAll(() => pool.close());

  describe.each(sendable.map((e) => [`${e.file} (${e.writer})`, e] as const))('%s', (_, entry) => {
    const expected = entry.expect as { mobileColumn: string; recipients: string[] };
    const template = expected.mobileColumn === 'Mobil No' ? SHORT_TEMPLATE : FULL_TEMPLATE;

    it('reads the dates, times and amounts as the sheet shows them into each message', async () => {
      const table = await readTableFile(entry.file, bytesOf(entry.file));
      const rendered = renderEnvelopes(template, personalisedTable(table, 'TR'), 'TR');
      expect(rendered.envelopes.map((e) => e.to)).toEqual(expected.recipients);
      expect(rendered.envelopes.map((e) => e.message)).toEqual(expectedMessages(entry, template));
    });

    it('gives the same recipients and messages through the reading threads', async () => {
      // A read takes the bytes (they are moved to the thread): each read gets its own copy, read from the file.
      const numbers = await pool.read(entry.file, bytesOf(entry.file), {
        purpose: 'recipients',
        country: 'TR',
      });
      expect(numbers.purpose === 'recipients' && numbers.recipients.recipients).toEqual(expected.recipients);
      const reading = await pool.read(entry.file, bytesOf(entry.file), {
        purpose: 'personalised',
        template,
        country: 'TR',
      });
      const addressed = reading.purpose === 'personalised' ? reading.personalised.addressed : undefined;
      expect(addressed?.rows.to).toEqual(expected.recipients);
      const { literals, valuesByLine } = addressed!.pieces;
      const messages = [...addressed!.rows.lines].map((line) =>
        joinMessage(literals, valuesByLine, line * (literals.length - 1)),
      );
      expect(messages).toEqual(expectedMessages(entry, template));
    });
  });
});
