import { wallClock } from './period.js';
import type { ReportDetail, SendLine } from './send-lines.js';

/** How a column's cells are written: a real date, an amount, a whole number, or text (never a formula). */
export type CellKind = 'datetime' | 'date' | 'money' | 'int' | 'text';

export type CellValue = string | number | Date | null;

export interface Column<T> {
  header: string;
  kind: CellKind;
  width: number;
  value: (row: T) => CellValue;
}

/** The Sends sheet's columns; the text and the numbers only at the full level. */
export function sendColumns(detail: ReportDetail, timeZone: string): Column<SendLine>[] {
  const columns: Array<Column<SendLine> & { full?: true }> = [
    {
      header: `Time (${timeZone})`,
      kind: 'datetime',
      width: 17,
      value: (l) => wallClock(l.madeAt, timeZone),
    },
    { header: 'Sent by', kind: 'text', width: 20, value: (l) => l.person },
    { header: 'Slack user id', kind: 'text', width: 13, value: (l) => l.personId },
    { header: 'From', kind: 'text', width: 20, value: (l) => l.origin },
    { header: 'Campaign', kind: 'text', width: 26, value: (l) => l.campaign },
    { header: 'Sender name', kind: 'text', width: 14, value: (l) => l.senderName },
    { header: 'Mode', kind: 'text', width: 12, value: (l) => l.mode },
    { header: 'Text or template', kind: 'text', width: 50, value: (l) => l.text ?? '', full: true },
    { header: 'Recipients', kind: 'int', width: 11, value: (l) => l.recipientCount },
    { header: 'Numbers', kind: 'text', width: 30, value: (l) => l.numbers ?? '', full: true },
    { header: 'Segments', kind: 'int', width: 10, value: (l) => l.segments },
    { header: 'Estimated cost', kind: 'money', width: 14, value: (l) => l.estimatedCost },
    // Text: a 64-bit id keeps every digit, where Excel keeps 15.
    { header: 'MessageId', kind: 'text', width: 14, value: (l) => l.messageId },
    { header: 'Delivered', kind: 'int', width: 10, value: (l) => l.delivery.delivered },
    { header: 'Undelivered', kind: 'int', width: 12, value: (l) => l.delivery.undelivered },
    { header: 'Pending', kind: 'int', width: 9, value: (l) => l.delivery.pending },
    { header: 'Delivery figures', kind: 'text', width: 14, value: (l) => l.delivery.source },
    { header: 'State', kind: 'text', width: 10, value: (l) => l.outcome },
    { header: 'Note', kind: 'text', width: 40, value: (l) => l.note },
  ];
  return columns.filter((c) => detail === 'full' || !c.full);
}
