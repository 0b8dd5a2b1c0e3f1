/** A row of an uploaded file that was not taken, as the person is shown it. */
export interface RejectedRow {
  line: number;
  input: string;
  reason: string;
}

/**
 * What Excel (and LibreOffice) read as the start of a formula or a DDE call when a CSV is opened (OWASP "CSV
 * injection"): `=`, `+`, `-`, `@`, tab and carriage return. Anchored at the start only, and without `.*$`:
 * papaparse's own default pattern (`/^[=+\-@\t\r].*$/`) misses a cell with a line break in it, which an
 * uploaded cell may well have.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

// Loaded on the first click of the button, not when the bot starts (text files load it the same way).
const loadPapa = async () => (await import('papaparse')).default;

/**
 * The rejected rows as a CSV Excel opens: UTF-8 with a BOM, semicolons (the list separator of a Turkish
 * Excel), CRLF, one row per rejected line. The values came from whoever wrote the uploaded file, so a cell
 * that would start a formula is prefixed with `'` inside its quotes, as OWASP advises: the operator sees
 * `'=HYPERLINK(…)` as text, never a live formula. A number written `+90 532 …` is such a cell too (Excel would
 * take `+905321234567` for a number and drop the `+`, or a formula): it shows as `'+90 532 …`.
 */
export async function rejectedRowsCsv(rows: readonly RejectedRow[]): Promise<Uint8Array> {
  const Papa = await loadPapa();
  const body = Papa.unparse(
    {
      fields: ['Line', 'Value', 'Reason'],
      data: rows.map((r) => [r.line, r.input, r.reason]),
    },
    {
      delimiter: ';',
      newline: '\r\n',
      // Every text cell quoted, so a prefixed cell, a semicolon or a line break in a value stays one cell.
      quotes: [false, true, true],
      escapeFormulae: FORMULA_START,
    },
  );
  return Buffer.from(`\uFEFF${body}\r\n`, 'utf8');
}
