import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface DumpedCell {
  /** openpyxl's data_type: s (string), n (number), d (date), f (formula), b, e. */
  t: string;
  v: string | number | boolean | null;
  /** The number format. */
  f: string;
}

export interface DumpedSheet {
  name: string;
  rows: DumpedCell[][];
}

/**
 * Opens an .xlsx with openpyxl, an independent reader (Debian's python3-openpyxl: /usr/bin/python3, not the
 * pyenv python3 on PATH, which lacks it), and returns its sheets as openpyxl sees them.
 */
export async function openWithOpenpyxl(bytes: Uint8Array): Promise<DumpedSheet[]> {
  const dir = await mkdtemp(join(tmpdir(), 'smsops-report-'));
  try {
    const file = join(dir, 'report.xlsx');
    await writeFile(file, bytes);
    const { stdout } = await run('/usr/bin/python3', [join(import.meta.dirname, 'dump_xlsx.py'), file], {
      maxBuffer: 256 * 1024 * 1024,
    });
    return (JSON.parse(stdout) as { sheets: DumpedSheet[] }).sheets;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A sheet's rows as plain values, keyed by the header row's texts. */
export function recordsOf(sheet: DumpedSheet): Array<Record<string, DumpedCell>> {
  const [header, ...rows] = sheet.rows;
  const names = (header ?? []).map((c) => String(c.v));
  return rows.map((row) =>
    Object.fromEntries(names.map((n, i) => [n, row[i] ?? { t: 'n', v: null, f: '' }])),
  );
}

/** Every cell of the workbook that holds a formula: there must be none. */
export function formulaCells(sheets: DumpedSheet[]): string[] {
  const found: string[] = [];
  for (const sheet of sheets) {
    for (const [r, row] of sheet.rows.entries()) {
      for (const [c, cell] of row.entries()) {
        const formulaLike = typeof cell.v === 'string' && cell.t !== 's' && cell.v.startsWith('=');
        if (cell.t === 'f' || formulaLike) found.push(`${sheet.name}!R${r + 1}C${c + 1}`);
      }
    }
  }
  return found;
}
