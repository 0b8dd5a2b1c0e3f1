import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { STATUS_CODES } from '../../src/simulator/codes.js';

describe('simulator README', () => {
  it('lists every status code of the table constant, with its meaning', () => {
    const readme = readFileSync(new URL('../../src/simulator/README.md', import.meta.url), 'utf8');
    const table = readme.split('<!-- status-table:start -->')[1]!.split('<!-- status-table:end -->')[0]!;
    // Cells are compared trimmed: a markdown formatter may pad the columns.
    const rows = table
      .split('\n')
      .map((line) => line.split('|').map((cell) => cell.trim()))
      .filter((cells) => /^\d{3}$/.test(cells[1] ?? ''));
    expect(rows).toHaveLength(Object.keys(STATUS_CODES).length);
    for (const [name, { code, meaning }] of Object.entries(STATUS_CODES)) {
      const row = rows.find((cells) => cells[1] === String(code) && cells[2] === name);
      expect(row, `${code} ${name}`).toBeDefined();
      expect(row![4]).toBe(meaning);
    }
  });
});
