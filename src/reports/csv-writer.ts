import { type Column, sendColumns } from './columns.js';
import type { ReportDetail, SendLine } from './send-lines.js';

/** What Excel reads as the start of a formula or DDE call in a CSV (as src/tables/rejected-rows-csv.ts). */
const FORMULA_START = /^[=+\-@\t\r]/;

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * An amount as a Turkish Excel reads it in a `;`-separated file: a decimal comma, no grouping. `1.5` there is read
 * as a date (1 May) or as text, never as 1,5.
 */
const amountFormat = new Intl.NumberFormat('tr-TR', { useGrouping: false, maximumFractionDigits: 10 });

/** A zone-less wall-clock date as `YYYY-MM-DD HH:MM`, which Excel reads as a date in any locale. */
function dateText(d: Date): string {
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
}

/**
 * The Sends sheet as a CSV, for `/sms report … csv`: UTF-8 with a BOM, semicolons, CRLF, as the rejected-rows file.
 * A text cell that would start a formula gets a `'` in front inside its quotes (OWASP CSV injection).
 */
export class CsvReportWriter {
  readonly #columns: Column<SendLine>[];
  readonly #rows: string[][] = [];

  constructor(detail: ReportDetail, timeZone: string) {
    this.#columns = sendColumns(detail, timeZone);
  }

  addSend(line: SendLine): void {
    this.#rows.push(
      this.#columns.map((c) => {
        const value = c.value(line);
        if (value === null) return '';
        if (value instanceof Date) return dateText(value);
        if (typeof value === 'number') return amountFormat.format(value);
        return value;
      }),
    );
  }

  async finish(): Promise<Buffer> {
    const Papa = (await import('papaparse')).default;
    const body = Papa.unparse(
      { fields: this.#columns.map((c) => c.header), data: this.#rows },
      {
        delimiter: ';',
        newline: '\r\n',
        quotes: this.#columns.map((c) => c.kind === 'text'),
        escapeFormulae: FORMULA_START,
      },
    );
    return Buffer.from(`\uFEFF${body}\r\n`, 'utf8');
  }
}
