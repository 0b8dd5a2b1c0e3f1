import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { BuiltReport } from '../../src/reports/build.js';
import { inboundSummaryOf } from '../../src/reports/inbound.js';
import type { SendLine } from '../../src/reports/send-lines.js';
import { SummaryBuilder } from '../../src/reports/summary.js';
import { XlsxReportWriter } from '../../src/reports/xlsx-writer.js';
import { type DumpedSheet, formulaCells, openWithOpenpyxl, recordsOf } from './open-xlsx.js';

/** What an outsider may write in an SMS or an inbound reply, and what Excel would run or mangle. */
const HOSTILE = [
  '=1+1',
  '+90 532 123 45 67',
  '-2+3',
  '@SUM(A1)',
  '=HYPERLINK("http://x.test","click")',
  'tab\tinside',
  'bell\u0007gone',
  'Türkçe ğüşiöç 😀',
];

function line(text: string, i: number): SendLine {
  return {
    outboxId: i + 1,
    madeAt: new Date(Date.UTC(2026, 4, 1, 21, 30 + i)),
    personId: 'U1',
    person: '=cmd|calc',
    origin: 'modal',
    campaign: '',
    senderName: '-SENDER',
    mode: 'same text',
    text,
    recipientCount: 1,
    numbers: '905321110000',
    segments: 1,
    estimatedCost: 0.0125,
    messageId: String(9_007_199_254_740_993n),
    delivery: { delivered: 1, undelivered: 0, pending: 0, source: 'gateway now' },
    outcome: 'sent',
    note: '',
  };
}

async function workbook(): Promise<Buffer> {
  const zone = 'Europe/Istanbul';
  const writer = new XlsxReportWriter('full', zone);
  await writer.open();
  const summary = new SummaryBuilder(zone);
  HOSTILE.forEach((text, i) => {
    const l = line(text, i);
    summary.add(l);
    writer.addSend(l);
  });
  const range = { from: new Date('2026-04-30T21:00:00Z'), to: new Date('2026-05-31T21:00:00Z') };
  const inbound = inboundSummaryOf(
    [
      {
        id: 1,
        received: new Date('2026-05-02T08:00:00Z'),
        network: 0,
        msisdn: '905551112233',
        recipient: '4609',
        keyword: '@KW',
        text: '=2*3',
        price: 0,
        xser: '',
      },
    ],
    range,
    zone,
    true,
  );
  const report: BuiltReport = { sends: HOSTILE.length, summary: summary.result(), inbound, unread: [] };
  return writer.finish(report, { title: '=title', lines: ['+line'] }, zone);
}

/** The texts of the Sends sheet as the reader gives them. */
const textsOf = (sheet: DumpedSheet) => recordsOf(sheet).map((r) => r['Text or template']!.v);
const expected = HOSTILE.map((t) => t.replace('\u0007', ''));

describe('the .xlsx writer', () => {
  it('writes every text as a text cell (never a formula), times as dates in the zone, the MessageId exact', async () => {
    const sheets = await openWithOpenpyxl(await workbook());
    expect(formulaCells(sheets)).toEqual([]);
    const rows = recordsOf(sheets[0]!);
    expect(textsOf(sheets[0]!)).toEqual(expected);
    for (const r of rows) {
      expect(r['Text or template']!.t).toBe('s');
      expect(r['Sent by']).toMatchObject({ t: 's', v: '=cmd|calc' });
    }
    expect(rows[0]!['Time (Europe/Istanbul)']).toEqual({
      t: 'd',
      v: '2026-05-02T00:30:00',
      f: 'dd.mm.yyyy hh:mm',
    });
    expect(rows[0]!.MessageId).toMatchObject({ t: 's', v: '9007199254740993' });
    expect(rows[0]!['Estimated cost']).toMatchObject({ t: 'n', v: 0.0125 });
    const inbound = sheets[2]!.rows.flat();
    expect(inbound.find((c) => c.v === '=2*3')?.t).toBe('s');
    expect(inbound.find((c) => c.v === '@KW')?.t).toBe('s');
  });

  const soffice = ['/usr/bin/soffice', '/usr/local/bin/soffice'].find((p) => existsSync(p));
  const work = mkdtempSync(join(tmpdir(), 'smsops-report-lo-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it.skipIf(!soffice)(
    'opens in LibreOffice and comes back with the same texts, still no formula',
    async () => {
      const input = join(work, 'in', 'report.xlsx');
      execFileSync('mkdir', ['-p', join(work, 'in'), join(work, 'out')]);
      writeFileSync(input, await workbook());
      // LibreOffice opens the file, recalculates what it takes for formulas, and saves it again.
      execFileSync(
        soffice!,
        [
          `-env:UserInstallation=file://${join(work, 'profile')}`,
          '--headless',
          '--convert-to',
          'xlsx',
          '--outdir',
          join(work, 'out'),
          input,
        ],
        { stdio: 'ignore', timeout: 90_000 },
      );
      const sheets = await openWithOpenpyxl(readFileSync(join(work, 'out', 'report.xlsx')));
      expect(sheets.map((s) => s.name)).toEqual(['Sends', 'Summary', 'Inbound']);
      expect(formulaCells(sheets)).toEqual([]);
      expect(textsOf(sheets[0]!)).toEqual(expected);
      expect(recordsOf(sheets[0]!)[0]!['Time (Europe/Istanbul)']!.v).toBe('2026-05-02T00:30:00');
    },
    120_000,
  );
});
