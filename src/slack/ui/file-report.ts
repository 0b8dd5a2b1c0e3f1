import type { KnownBlock, ModalView, PlainTextOption } from '@slack/types';
import type { FileReport } from '../compose/draft.js';
import { context, fields, section } from './blocks.js';
import { escapeMrkdwn, formatCount, plural, truncate } from './format.js';

/** The button under a file's report that sends the full list of rejected rows back as a file. */
export const REJECTED_ROWS_ACTION = 'compose_rejected_rows';
const SHOWN_REJECTED = 5;

/** The pickers under a file's report that read the same file again: another sheet, another number column. */
export const FILE_PICK_ACTIONS = {
  sheet: 'compose_file_sheet',
  column: 'compose_file_column',
} as const;

// Slack's limits for a static_select: 100 options, 75 characters of option text, 150 of value.
const MAX_OPTIONS = 100;
const OPTION_TEXT = 75;

/** Where a file was read, and what else it could be read from: what the pickers offer. */
export type FilePlace = Pick<
  FileReport,
  'sheet' | 'sheets' | 'numberColumn' | 'numberColumnIndex' | 'columnChoices'
>;

function option(text: string, value: string): PlainTextOption {
  return { text: { type: 'plain_text', text: truncate(text, OPTION_TEXT) }, value };
}

/**
 * The sheets to offer: all of them up to Slack's 100 options, else the first 99 and the one read. The value is
 * the sheet's place among the visible sheets, not its name (a name may be longer than a value can be).
 */
function sheetOptions(sheets: readonly string[], current: number): PlainTextOption[] {
  const places = sheets.map((_, i) => i);
  const shown =
    places.length <= MAX_OPTIONS
      ? places
      : current < MAX_OPTIONS
        ? places.slice(0, MAX_OPTIONS)
        : [...places.slice(0, MAX_OPTIONS - 1), current];
  return shown.map((i) => option(sheets[i]!, String(i)));
}

const percent = (share: number) => `${Math.round(share * 100)}%`;

/**
 * "Sheet “Liste”", with a picker to read another visible sheet when the workbook has several, and a picker of
 * the number column when more than one column could hold the numbers. Picking reads the file again.
 */
export function filePickerBlocks(place: FilePlace): KnownBlock[] {
  const blocks: KnownBlock[] = [];
  const sheets = place.sheets ?? [];
  const current = place.sheet === undefined ? -1 : sheets.indexOf(place.sheet);
  if (place.sheet !== undefined) {
    blocks.push(
      context(
        `Sheet “${escapeMrkdwn(truncate(place.sheet, 100))}”${sheets.length > 1 ? ` of ${sheets.length} visible sheets: pick another below to read it instead.` : ''}`,
      ),
    );
  }
  if (sheets.length > 1) {
    const options = sheetOptions(sheets, current);
    const initial = options.find((o) => o.value === String(current));
    blocks.push({
      type: 'actions',
      block_id: 'file_sheet',
      elements: [
        {
          type: 'static_select',
          action_id: FILE_PICK_ACTIONS.sheet,
          placeholder: { type: 'plain_text', text: 'Read another sheet' },
          options,
          ...(initial ? { initial_option: initial } : {}),
        },
      ],
    });
  }
  const choices = place.columnChoices.slice(0, MAX_OPTIONS);
  if (choices.length > 1) {
    const others = choices.filter((c) => c.index !== place.numberColumnIndex).map((c) => `“${c.name}”`);
    blocks.push(
      context(
        `Numbers from column “${escapeMrkdwn(truncate(place.numberColumn, 100))}”; ${escapeMrkdwn(truncate(others.join(', '), 300))} could hold them too: pick another below to read the numbers from it.`,
      ),
    );
    const options = choices.map((c) =>
      option(`${truncate(c.name, 50)} — ${percent(c.mobileShare)} mobiles`, String(c.index)),
    );
    const initial = options.find((o) => o.value === String(place.numberColumnIndex));
    blocks.push({
      type: 'actions',
      block_id: 'file_column',
      elements: [
        {
          type: 'static_select',
          action_id: FILE_PICK_ACTIONS.column,
          placeholder: { type: 'plain_text', text: 'Numbers from column' },
          options,
          ...(initial ? { initial_option: initial } : {}),
        },
      ],
    });
  }
  return blocks;
}

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
    ...filePickerBlocks(report),
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
  /** A file read again on a pick: the pickers stay, to read it from another sheet or column. */
  again?: { place: FilePlace; draftKey: string; externalId: string },
): ModalView {
  return {
    type: 'modal',
    ...(again
      ? { external_id: again.externalId, private_metadata: JSON.stringify({ draftKey: again.draftKey }) }
      : {}),
    title: { type: 'plain_text', text: 'Check the file' },
    close: { type: 'plain_text', text: 'Back' },
    blocks: [
      section(`:warning: ${escapeMrkdwn(problems.join('\n\n')).slice(0, 2900)}`),
      // Only another sheet: the stored draft's columns are another reading's, so a column pick could not be checked.
      ...(again ? filePickerBlocks({ ...again.place, columnChoices: [] }) : []),
      context(after),
    ],
  };
}

/**
 * A file's confirmation shown again on a Send that came from a view drawn before the file was read again: what
 * the file gives now, and that nothing was sent.
 */
export function rereadNoticeView(confirmation: ModalView): ModalView {
  return {
    ...confirmation,
    blocks: [
      section(
        ':arrows_counterclockwise: *Nothing was sent:* the file was read again (another sheet or column was picked) after the view you pressed Send on was drawn. This is what it gives now: check it and press the button again.',
      ),
      ...confirmation.blocks,
    ],
  };
}
