import type { BlockActionArgs } from '../action-routes.js';
import type { FilePick } from '../compose/stored-draft.js';
import type { SlackDeps } from '../deps.js';
import { userMessageFor } from '../errors.js';
import { allowed, denialText, roleOf } from '../permissions.js';
import { FILE_PICK_ACTIONS } from '../ui/file-report.js';
import { draftExpiredView, sendNoticeView } from '../ui/send-outcome.js';
import { readUploadAgain, type StoredDraft } from '../views/compose.js';

/** What the picked option asks, checked against what the confirmation offered; undefined for anything else. */
function pickOf(actionId: string, value: string | undefined, stored: StoredDraft): FilePick | undefined {
  const report = stored.report;
  if (!report || value === undefined || !/^\d{1,6}$/.test(value)) return undefined;
  const place = Number(value);
  if (actionId === FILE_PICK_ACTIONS.sheet) {
    // The sheet already read is read again too: after a failed pick, it is the way back to the kept draft's.
    const sheet = report.sheets?.[place];
    // Another sheet has other columns: its number column is found afresh.
    return sheet === undefined ? undefined : { sheet };
  }
  if (!report.columnChoices.some((c) => c.index === place)) return undefined;
  return { ...(report.sheet === undefined ? {} : { sheet: report.sheet }), phoneColumn: place };
}

/**
 * "Read another sheet" and "Numbers from column" in a file's confirmation: the same file read again from the
 * sheet or column picked, in the same view, its draft kept in place of the one shown so far. Only the person who
 * submitted the file, and only while they may send.
 */
export function filePickHandler(deps: SlackDeps) {
  return async function handleFilePick({ ack, body, action, client }: BlockActionArgs): Promise<void> {
    await ack();
    const view = body.view;
    if (!view) return;
    const userId = body.user.id;
    const say = (text: string) =>
      client.views
        .update({ view_id: view.id, view: sendNoticeView(text) })
        .catch((error: unknown) => deps.logger.debug({ err: String(error) }, 'file pick answer not shown'));
    try {
      if (!(await allowed(deps, userId, 'sender'))) {
        await say(denialText('sender', await roleOf(deps, userId)));
        return;
      }
      const { draftKey } = JSON.parse(view.private_metadata || '{}') as { draftKey?: string };
      const found = draftKey ? await deps.store.drafts.get(draftKey, deps.now()) : undefined;
      const stored = found && found.owner === userId ? (found.payload as unknown as StoredDraft) : undefined;
      if (!stored?.upload || !stored.report) {
        await client.views.update({ view_id: view.id, view: draftExpiredView() }).catch(() => undefined);
        return;
      }
      const value = (action as { selected_option?: { value?: string } }).selected_option?.value;
      const pick = pickOf(action.action_id, value, stored);
      // An option the confirmation did not offer: nothing to read.
      if (!pick) return;
      await readUploadAgain(
        deps,
        client,
        userId,
        { ...stored, upload: stored.upload, report: stored.report },
        pick,
      );
    } catch (error) {
      // A pick in a modal has nowhere else to answer: Bolt's error handler could not tell the person.
      deps.logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'file pick failed');
      await say(userMessageFor(error));
    }
  };
}
