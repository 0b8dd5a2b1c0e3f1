import type { KnownBlock, ModalView } from '@slack/types';
import { context, fields, section } from './blocks.js';
import { RECIPIENT_FILE_TYPES } from './compose.js';
import { escapeMrkdwn, formatCount, plural, truncate } from './format.js';

export const LIST_IMPORT_CALLBACK = 'list_import';
export const LIST_IMPORT_FILE = 'file';
/** The most numbers a saved list holds, whatever MAX_RECIPIENTS allows in one send. */
export const LIST_MAX_MEMBERS = 100_000;

export interface ListImportMetadata {
  name: string;
  mode: 'create' | 'append' | 'replace';
}

const plain = (text: string) => ({ type: 'plain_text' as const, text });

const VERB: Record<ListImportMetadata['mode'], string> = {
  create: 'Create',
  append: 'Add to',
  replace: 'Replace',
};

/** `/sms lists import <name> [append|replace]`: a modal with one file input. */
export function listImportView(metadata: ListImportMetadata, max: number): ModalView {
  return {
    type: 'modal',
    callback_id: LIST_IMPORT_CALLBACK,
    title: plain('Import a list'),
    submit: plain('Import'),
    close: plain('Cancel'),
    private_metadata: JSON.stringify(metadata),
    blocks: [
      section(
        `${VERB[metadata.mode]} the list *${escapeMrkdwn(metadata.name)}* from a file${metadata.mode === 'replace' ? ': its numbers are replaced by the file’s' : ''}.`,
      ),
      {
        type: 'input',
        block_id: LIST_IMPORT_FILE,
        label: plain('File of numbers'),
        hint: plain(
          `.csv, .tsv, .txt (one number per line) or .xlsx, up to 10 MB and ${formatCount(max)} numbers. The phone column is found by its name (Telefon, GSM, Cep…) or its content.`,
        ),
        element: {
          type: 'file_input',
          action_id: LIST_IMPORT_FILE,
          max_files: 1,
          filetypes: RECIPIENT_FILE_TYPES,
        },
      } as unknown as KnownBlock,
    ],
  };
}

export interface ListImportResult {
  name: string;
  mode: ListImportMetadata['mode'];
  filename: string;
  rowsRead: number;
  added: number;
  duplicates: number;
  size: number;
  optedOut: number;
  rejected: { line: number; input: string; reason: string }[];
}

/** What the import did, in the modal that asked for it. */
export function listImportedView(r: ListImportResult): ModalView {
  const blocks: KnownBlock[] = [
    section(
      `:white_check_mark: List *${escapeMrkdwn(r.name)}* ${r.mode === 'create' ? 'created' : r.mode === 'append' ? 'extended' : 'replaced'} from “${escapeMrkdwn(truncate(r.filename, 200))}”: it now holds ${plural(r.size, 'number')}.`,
    ),
    fields([
      ['Rows read', formatCount(r.rowsRead)],
      ['Numbers added', formatCount(r.added)],
      ['Duplicates merged', formatCount(r.duplicates)],
      ['Rows rejected', formatCount(r.rejected.length)],
    ]),
  ];
  if (r.rejected.length > 0) {
    const lines = r.rejected
      .slice(0, 5)
      .map(
        (x) =>
          `Line ${x.line}: “${escapeMrkdwn(truncate(x.input, 60))}” — ${escapeMrkdwn(truncate(x.reason, 200))}`,
      );
    blocks.push(
      section(
        `*Rejected:*\n${lines.join('\n')}${r.rejected.length > 5 ? `\n…and ${plural(r.rejected.length - 5, 'more row')}` : ''}`,
      ),
    );
  }
  if (r.optedOut > 0) {
    blocks.push(context(`${plural(r.optedOut, 'number')} of the list opted out: sends leave them out.`));
  }
  return { type: 'modal', title: plain('List imported'), close: plain('Close'), blocks };
}
