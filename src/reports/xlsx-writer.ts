import { PassThrough } from 'node:stream';
import type ExcelJS from 'exceljs';
import type { BuiltReport } from './build.js';
import { type CellKind, type CellValue, type Column, sendColumns } from './columns.js';
import { NO_KEYWORD } from './inbound.js';
import { dayCell, wallClock } from './period.js';
import type { ReportDetail, SendLine } from './send-lines.js';
import type { Totals } from './summary.js';

/** Loaded with the first report, not when the bot starts (the build keeps exceljs out of the main bundle). */
const loadExcel = async () => (await import('exceljs')).default;

const NUMBER_FORMATS: Record<CellKind, string | undefined> = {
  datetime: 'dd.mm.yyyy hh:mm',
  date: 'dd.mm.yyyy',
  money: '#,##0.00##',
  int: '#,##0',
  text: undefined,
};

/** What the top of the Summary sheet says about the report itself. */
export interface ReportHeading {
  title: string;
  lines: string[];
}

/**
 * A report as an .xlsx, written by exceljs' streaming writer: each Sends row is committed as it comes, so a month
 * of sends never sits in memory as a workbook. Every text goes in as a string value (a shared string, `t="s"`):
 * exceljs makes a formula only of a `{ formula }` value, so a text that begins with `=`, `+`, `-` or `@` stays
 * text when Excel, LibreOffice or Google Sheets opens the file.
 */
export class XlsxReportWriter {
  readonly #columns: Column<SendLine>[];
  readonly #chunks: Buffer[] = [];
  readonly #stream = new PassThrough();
  #book: ExcelJS.stream.xlsx.WorkbookWriter | undefined;
  #sends: ExcelJS.Worksheet | undefined;
  #summary: ExcelJS.Worksheet | undefined;
  #inbound: ExcelJS.Worksheet | undefined;

  constructor(detail: ReportDetail, timeZone: string) {
    this.#columns = sendColumns(detail, timeZone);
    this.#stream.on('data', (chunk: Buffer) => this.#chunks.push(chunk));
  }

  async open(): Promise<void> {
    const Excel = await loadExcel();
    const book = new Excel.stream.xlsx.WorkbookWriter({
      stream: this.#stream,
      useSharedStrings: true,
      useStyles: true,
    });
    book.creator = 'smsops';
    // The order the tabs show in: added before any row is written.
    this.#sends = book.addWorksheet('Sends', { views: [{ state: 'frozen', ySplit: 1 }] });
    this.#summary = book.addWorksheet('Summary');
    this.#inbound = book.addWorksheet('Inbound');
    this.#sends.columns = this.#columns.map((c) => ({ width: c.width }));
    const header = this.#sends.addRow(this.#columns.map((c) => c.header));
    header.font = { bold: true };
    header.commit();
    this.#book = book;
  }

  addSend(line: SendLine): void {
    if (!this.#sends) throw new Error('XlsxReportWriter.open() first');
    writeRow(
      this.#sends,
      this.#columns.map((c) => [c.value(line), c.kind] as const),
    );
  }

  async finish(report: BuiltReport, heading: ReportHeading, timeZone: string): Promise<Buffer> {
    const book = this.#book;
    if (!book || !this.#sends || !this.#summary || !this.#inbound)
      throw new Error('XlsxReportWriter.open() first');
    this.#sends.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: this.#columns.length } };
    this.#sends.commit();
    writeSummary(this.#summary, report, heading);
    this.#summary.commit();
    writeInbound(this.#inbound, report, timeZone);
    this.#inbound.commit();
    const ended = new Promise<void>((resolve, reject) => {
      this.#stream.on('end', resolve);
      this.#stream.on('error', reject);
    });
    await book.commit();
    this.#stream.end();
    await ended;
    return Buffer.concat(this.#chunks);
  }
}

type Cell = readonly [CellValue, CellKind];

/** One row, each cell with its kind's number format; a text is always a string value, never a formula. */
function writeRow(sheet: ExcelJS.Worksheet, cells: readonly Cell[], bold = false): void {
  const row = sheet.addRow(
    cells.map(([value, kind]) => (kind === 'text' && value !== null ? String(value) : value)),
  );
  cells.forEach(([, kind], i) => {
    const format = NUMBER_FORMATS[kind];
    if (format) row.getCell(i + 1).numFmt = format;
  });
  if (bold) row.font = { bold: true };
  row.commit();
}

const text = (value: string): Cell => [value, 'text'];
const int = (value: number): Cell => [value, 'int'];
const money = (value: number | undefined): Cell => [value ?? null, 'money'];

const TOTALS_HEADERS = [
  'Sends',
  'Recipients',
  'Segments',
  'Estimated cost',
  'Delivered',
  'Undelivered',
  'Not sent',
];

function totalsCells(t: Totals): Cell[] {
  return [
    int(t.sends),
    int(t.recipients),
    int(t.segments),
    money(t.estimatedCost),
    int(t.delivered),
    int(t.undelivered),
    int(t.notSent),
  ];
}

function heading(sheet: ExcelJS.Worksheet, title: string): void {
  writeRow(sheet, [text(title)], true);
}

function writeSummary(sheet: ExcelJS.Worksheet, report: BuiltReport, head: ReportHeading): void {
  const { summary } = report;
  sheet.columns = [{ width: 22 }, ...Array.from({ length: 9 }, () => ({ width: 15 }))];
  writeRow(sheet, [text(head.title)], true);
  for (const line of head.lines) writeRow(sheet, [text(line)]);
  writeRow(sheet, []);

  heading(sheet, 'Per day');
  const spendHeader = summary.spendRead ? 'Spend (balance log)' : 'Spend (balance log not read)';
  writeRow(
    sheet,
    ['Day', ...TOTALS_HEADERS, spendHeader, 'Spend − estimated'].map((h) => text(h)),
    true,
  );
  const diff = (spend: number | undefined, estimated: number) =>
    spend === undefined ? undefined : Math.round((spend - estimated) * 10_000) / 10_000;
  for (const [day, t] of summary.byDay) {
    writeRow(sheet, [
      [dayCell(day), 'date'],
      ...totalsCells(t),
      money(t.spend),
      money(diff(t.spend, t.estimatedCost)),
    ]);
  }
  const total = summary.total;
  writeRow(
    sheet,
    [text('Total'), ...totalsCells(total), money(total.spend), money(diff(total.spend, total.estimatedCost))],
    true,
  );
  writeRow(sheet, []);

  heading(sheet, 'Per sender name');
  writeRow(
    sheet,
    ['Sender name', ...TOTALS_HEADERS].map((h) => text(h)),
    true,
  );
  for (const [name, t] of summary.bySenderName) writeRow(sheet, [text(name), ...totalsCells(t)]);
  writeRow(sheet, []);

  heading(sheet, 'Per person');
  writeRow(
    sheet,
    ['Person', ...TOTALS_HEADERS].map((h) => text(h)),
    true,
  );
  for (const [name, t] of summary.byPerson) writeRow(sheet, [text(name), ...totalsCells(t)]);
}

function writeInbound(sheet: ExcelJS.Worksheet, report: BuiltReport, timeZone: string): void {
  sheet.columns = [{ width: 22 }, { width: 16 }, { width: 14 }, { width: 14 }, { width: 60 }];
  const inbound = report.inbound;
  if (!inbound) {
    writeRow(sheet, [text('A report of one send has no inbound SMS: ask /sms report for a period.')]);
    return;
  }
  if (!inbound.read) {
    writeRow(sheet, [text('The gateway did not answer Receive: inbound SMS could not be counted.')]);
    return;
  }
  heading(sheet, 'Per day');
  writeRow(sheet, [text('Day'), text('Inbound SMS')], true);
  for (const [day, n] of inbound.byDay) writeRow(sheet, [[dayCell(day), 'date'], int(n)]);
  writeRow(sheet, [text('Total'), int(inbound.total)], true);
  writeRow(sheet, []);
  heading(sheet, 'Per keyword');
  writeRow(sheet, [text('Keyword'), text('Inbound SMS')], true);
  for (const [keyword, n] of inbound.byKeyword) writeRow(sheet, [text(keyword), int(n)]);
  if (!inbound.details) return;
  writeRow(sheet, []);
  heading(sheet, 'Messages (personal data: numbers and texts)');
  writeRow(
    sheet,
    [`Time (${timeZone})`, 'Number', 'To', 'Keyword', 'Text'].map((h) => text(h)),
    true,
  );
  for (const m of inbound.details) {
    writeRow(sheet, [
      [wallClock(m.received, timeZone), 'datetime'],
      text(m.msisdn),
      text(m.recipient),
      text(m.keyword || NO_KEYWORD),
      text(m.text),
    ]);
  }
}
