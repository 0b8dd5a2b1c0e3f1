import type { CsvError, ParsedCsv } from './csv.js';
import { foldCase } from './fold.js';
import { type CountryCode, normaliseNumber } from './numbers.js';

export interface Envelope {
  /** Gateway form: digits, country code first. */
  to: string;
  message: string;
  /** CSV line the envelope came from. */
  line: number;
}

export interface RenderedEnvelopes {
  /** Empty whenever `missingColumns` is not: a half-filled template must never be sent. */
  envelopes: Envelope[];
  errors: CsvError[];
  /** Placeholders with no such column, in template order. */
  missingColumns: string[];
}

const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;

/** Distinct `{{column}}` names in order of first use; blanks inside the braces are ignored. */
export function templatePlaceholders(template: string): string[] {
  const names = new Set<string>();
  for (const match of String(template).matchAll(PLACEHOLDER)) {
    if (match[1]) names.add(match[1]);
  }
  return [...names];
}

/**
 * One message per CSV row, placeholders filled from that row. A row is left out, with an error
 * naming its line, when its number is unusable, repeats an earlier row's number (the person
 * would get two messages), a placeholder's value is empty, or the message comes out empty.
 */
export function renderEnvelopes(
  template: string,
  csv: Pick<ParsedCsv, 'columns' | 'rows'>,
  defaultCountry: CountryCode,
): RenderedEnvelopes {
  const columnOf = resolveColumns(templatePlaceholders(template), csv.columns);
  const missingColumns = [...columnOf].filter(([, column]) => column === undefined).map(([name]) => name);

  const envelopes: Envelope[] = [];
  const errors: CsvError[] = [];
  const firstLineOf = new Map<string, number>();
  for (const row of csv.rows) {
    const to = numberOf(row.number, defaultCountry);
    if (!to.ok) {
      errors.push({ line: row.line, reason: to.reason });
      continue;
    }
    const first = firstLineOf.get(to.msisdn);
    if (first !== undefined) {
      errors.push({ line: row.line, reason: `same number as line ${first}` });
      continue;
    }
    firstLineOf.set(to.msisdn, row.line);
    const empty = [...columnOf.values()].find(
      (column) => column !== undefined && (row.values[column] ?? '').trim() === '',
    );
    if (empty !== undefined) {
      errors.push({ line: row.line, reason: `column "${empty}" is empty` });
      continue;
    }
    const message = String(template).replace(PLACEHOLDER, (whole, name: string) => {
      const column = columnOf.get(name);
      return column === undefined ? whole : (row.values[column] ?? '');
    });
    if (message.trim() === '') {
      errors.push({ line: row.line, reason: 'the message is empty' });
      continue;
    }
    envelopes.push({ to: to.msisdn, message, line: row.line });
  }
  return { envelopes: missingColumns.length > 0 ? [] : envelopes, errors, missingColumns };
}

function numberOf(raw: string, defaultCountry: CountryCode) {
  if (raw.trim() === '') return { ok: false as const, reason: 'no phone number' };
  const result = normaliseNumber(raw, defaultCountry);
  return result.ok ? result : { ok: false as const, reason: `"${raw.trim()}": ${result.reason}` };
}

// Exact name first; otherwise ignore case, Turkish I's included, so {{Name}} finds "name".
function resolveColumns(placeholders: readonly string[], columns: readonly string[]) {
  const byFolded = new Map<string, string>();
  for (const column of columns) {
    if (column !== '' && !byFolded.has(foldCase(column))) byFolded.set(foldCase(column), column);
  }
  const columnOf = new Map<string, string | undefined>();
  for (const name of placeholders) {
    columnOf.set(name, columns.includes(name) ? name : byFolded.get(foldCase(name)));
  }
  return columnOf;
}
