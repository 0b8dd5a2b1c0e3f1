import type { KnownBlock, ModalView } from '@slack/types';
import type { FileReport } from '../compose/draft.js';
import { context, fields, section } from './blocks.js';
import { escapeMrkdwn, formatCount, plural, truncate } from './format.js';

/** The button under a file's report that sends the full list of rejected rows back as a file. */
export const REJECTED_ROWS_ACTION = 'compose_rejected_rows';
const SHOWN_REJECTED = 5;

/** What an uploaded file gave, before anything is sent: counts, the first rejected rows, the columns. */
export function fileReportBlocks(report: FileReport, draftKey: string): KnownBlock[] {
  const blocks: KnownBlock[] = [
    section(
      `*From “${escapeMrkdwn(truncate(report.filename, 200))}”* (${escapeMrkdwn(report.readAs)}; numbers from “${escapeMrkdwn(truncate(report.numberColumn, 100))}”)`,
    ),
    fields([
      ['Rows read', formatCount(report.rowsRead)],
      ['Valid unique recipients', formatCount(report.valid)],
      ['Duplicates merged', formatCount(report.duplicates)],
      ['Opted-out removed', formatCount(report.optedOut)],
      ['Rows rejected', formatCount(report.rejected.length)],
    ]),
  ];
  if (report.columns) {
    blocks.push(
      context(
        `Columns found: ${report.columns.map((c) => `“${escapeMrkdwn(truncate(c, 60))}”`).join(', ')}`.slice(
          0,
          2900,
        ),
      ),
    );
  }
  if (report.rejected.length > 0) {
    const lines = report.rejected
      .slice(0, SHOWN_REJECTED)
      .map(
        (r) =>
          `Line ${r.line}: “${escapeMrkdwn(truncate(r.input, 60))}” — ${escapeMrkdwn(truncate(r.reason, 200))}`,
      );
    const more = report.rejected.length - lines.length;
    blocks.push(
      section(
        `*Rejected, not sent:*\n${lines.join('\n')}${more > 0 ? `\n…and ${plural(more, 'more row')}` : ''}`.slice(
          0,
          2900,
        ),
      ),
    );
    blocks.push({
      type: 'actions',
      block_id: 'rejected_rows',
      elements: [
        {
          type: 'button',
          action_id: REJECTED_ROWS_ACTION,
          text: { type: 'plain_text', text: 'Send me the rejected rows as a file' },
          value: draftKey,
        },
      ],
    });
  }
  return blocks;
}

/** The pushed view while a file is downloaded and read; replaced by the confirmation or by what is wrong. */
export function readingFileView(filename: string, externalId: string): ModalView {
  return {
    type: 'modal',
    external_id: externalId,
    title: { type: 'plain_text', text: 'Reading the file' },
    close: { type: 'plain_text', text: 'Back' },
    blocks: [section(`:hourglass_flowing_sand: Reading “${escapeMrkdwn(truncate(filename, 200))}”…`)],
  };
}

/** A file that gave nothing to send, or could not be read: what is wrong and what to do; Back returns to the form. */
export function fileProblemView(
  problems: readonly string[],
  after = 'Nothing was sent. Press *Back* to return to the form, fix the file or the fields, and submit again.',
): ModalView {
  return {
    type: 'modal',
    title: { type: 'plain_text', text: 'Check the file' },
    close: { type: 'plain_text', text: 'Back' },
    blocks: [section(`:warning: ${escapeMrkdwn(problems.join('\n\n')).slice(0, 2900)}`), context(after)],
  };
}
