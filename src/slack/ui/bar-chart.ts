import { textBar } from './lookup-common.js';

/** One row of a text bar chart: a short label, the value the bar is scaled on, and what is written after it. */
export interface BarRow {
  label: string;
  value: number;
  shown: string;
}

/** Cells of a bar: with a 6-character label and a 7-digit value a line stays under 30 characters, which
 *  fits a phone's code block without wrapping. */
export const BAR_CELLS = 12;

/**
 * A bar chart as a code block: fixed width is the one layout that keeps bars aligned on desktop and
 * mobile. Empty cells are spaces so the values after the bars line up.
 */
export function textBarChart(rows: readonly BarRow[], cells = BAR_CELLS): string {
  if (rows.length === 0) return '';
  const max = Math.max(0, ...rows.map((r) => r.value));
  const labelWidth = Math.max(...rows.map((r) => r.label.length));
  const shownWidth = Math.max(...rows.map((r) => r.shown.length));
  const lines = rows.map(
    (r) =>
      `${r.label.padEnd(labelWidth)} ${textBar(r.value, max, cells).padEnd(cells, ' ')} ${r.shown.padStart(shownWidth)}`,
  );
  return `\`\`\`\n${lines.join('\n')}\n\`\`\``;
}
