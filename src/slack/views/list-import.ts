import type { AllMiddlewareArgs, SlackViewMiddlewareArgs, ViewSubmitAction } from '@slack/bolt';
import * as z from 'zod';
import { TableFileError } from '../../tables/table-file.js';
import { uploadedFileOf, viewSchema } from '../compose/state.js';
import type { SlackDeps } from '../deps.js';
import { userMessageFor } from '../errors.js';
import { downloadSlackFile, FileDownloadError } from '../file-download.js';
import { allowed, roleOf } from '../permissions.js';
import { loadingView } from '../ui/compose.js';
import { fileProblemView } from '../ui/file-report.js';
import { formatCount } from '../ui/format.js';
import { LIST_IMPORT_FILE, LIST_MAX_MEMBERS, listImportedView } from '../ui/list-import.js';

type ViewArgs = SlackViewMiddlewareArgs<ViewSubmitAction> & AllMiddlewareArgs;

const AFTER = 'The list is unchanged. Fix the file and run the import again.';

const metadataSchema = z.object({ name: z.string(), mode: z.enum(['create', 'append', 'replace']) });

/**
 * The list import modal submitted: acked at once with "Reading…", then the file downloaded with the bot token,
 * read, and the list created, extended or replaced, audited. The modal ends showing what the file gave.
 */
export function listImportSubmissionHandler(deps: SlackDeps) {
  return async function handleListImport({ ack, body, client }: ViewArgs): Promise<void> {
    const view = viewSchema.parse(body.view);
    const file = uploadedFileOf({
      ...view,
      state: { values: { file: view.state.values[LIST_IMPORT_FILE] ?? {} } },
    });
    if (!file) {
      await ack({ response_action: 'errors', errors: { [LIST_IMPORT_FILE]: 'Upload a file of numbers.' } });
      return;
    }
    const metadata = metadataSchema.parse(JSON.parse(view.private_metadata || '{}'));
    await ack({
      response_action: 'update',
      view: loadingView('Import a list', `:hourglass_flowing_sand: Reading “${file.name}”…`),
    });
    const show = (next: Parameters<typeof client.views.update>[0]['view']) =>
      client.views.update({ view_id: view.id, view: next }).catch(() => undefined);
    try {
      const userId = body.user.id;
      if (!(await allowed(deps, userId, 'sender')))
        throw new TableFileError('Only senders and admins may import lists.');
      const country = deps.settings.defaultCountry;
      // Read in a thread of its own, as the composer's files are (src/tables/worker/pool.ts).
      const reading = await deps.tableReader.read(file.name, await downloadSlackFile(file, client), {
        purpose: 'recipients',
        country,
      });
      if (reading.purpose !== 'recipients') throw new Error('a list import read for another purpose');
      const got = reading.recipients;
      const { store } = deps;
      const existing = await store.recipientLists.get(metadata.name);
      if (existing && metadata.mode === 'create') {
        throw new TableFileError(`A list ${metadata.name} exists now: import again with append or replace.`);
      }
      if (existing && existing.owner !== userId && (await roleOf(deps, userId)) !== 'admin') {
        throw new TableFileError(
          `List ${metadata.name} belongs to someone else: only its owner or an admin may change it.`,
        );
      }
      const before = metadata.mode === 'append' && existing ? existing.members : [];
      const members = [...new Set([...before, ...got.recipients])];
      if (got.recipients.length === 0) {
        const first = got.rejected[0];
        throw new TableFileError(
          `“${file.name}” gave no valid number${first ? ` (line ${first.line}: ${first.reason})` : ''}. The list is unchanged.`,
        );
      }
      if (members.length > LIST_MAX_MEMBERS) {
        throw new TableFileError(
          `That makes ${formatCount(members.length)} numbers; a list holds at most ${formatCount(LIST_MAX_MEMBERS)}. The list is unchanged.`,
        );
      }
      const now = deps.now();
      if (existing) await store.recipientLists.update(existing.name, { members }, now);
      else await store.recipientLists.create({ name: metadata.name, owner: userId, members, at: now });
      await store.audit.append({
        actor: userId,
        action: existing ? 'list_import' : 'list_create',
        target: metadata.name,
        details: {
          size: members.length,
          file: file.name,
          mode: metadata.mode,
          rejected: got.rejected.length,
        },
        at: now,
      });
      const optedOut = await store.optOuts.hasMany(members);
      await show(
        listImportedView({
          name: metadata.name,
          mode: existing ? metadata.mode : 'create',
          filename: file.name,
          rowsRead: got.rowsRead,
          added: members.length - before.length,
          duplicates: got.duplicates,
          size: members.length,
          optedOut: optedOut.size,
          rejected: got.rejected,
        }),
      );
    } catch (error) {
      if (error instanceof TableFileError || error instanceof FileDownloadError) {
        await show(fileProblemView([error.message], AFTER));
        return;
      }
      deps.logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'list import failed');
      await show(fileProblemView([userMessageFor(error)], AFTER));
    }
  };
}
