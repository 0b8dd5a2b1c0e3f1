import type { AllMiddlewareArgs, BlockAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import type { KnownBlock, ModalView } from '@slack/types';
import { rejectedRowsCsv } from '../../tables/rejected-rows-csv.js';
import { viewSchema } from '../compose/state.js';
import type { SlackDeps } from '../deps.js';
import { slackRefusalOf, userMessageFor } from '../errors.js';
import { shareFile } from '../file-upload.js';
import { context } from '../ui/blocks.js';
import type { StoredDraft } from '../views/compose.js';

type ActionArgs = SlackActionMiddlewareArgs<BlockAction> & AllMiddlewareArgs;

/**
 * "Send me the rejected rows as a file" under a file's report: every rejected row (line, value, reason) as a CSV
 * Excel opens, sent to the user who asked, in their direct messages with the app (conversations.open, scope
 * im:write; files.getUploadURLExternal + files.completeUploadExternal). Not in the channel: the rows are the
 * uploaded file's people (numbers, names, whatever the columns hold), and the channel may be far wider than
 * whoever may see them. The confirmation then says where the file is, instead of the button.
 */
export function rejectedRowsHandler(deps: SlackDeps) {
  return async function handleRejectedRows({ ack, body, action, client }: ActionArgs): Promise<void> {
    await ack();
    const view = viewSchema.parse(body.view);
    const say = async (text: string) => {
      const blocks = (view.blocks as unknown as KnownBlock[]).map((b) =>
        b.block_id === 'rejected_rows' ? { ...context(text), block_id: 'rejected_rows' } : b,
      );
      const modal = body.view as unknown as ModalView;
      await client.views
        .update({
          view_id: view.id,
          view: {
            type: 'modal',
            callback_id: modal.callback_id,
            title: modal.title,
            submit: modal.submit,
            close: modal.close,
            private_metadata: modal.private_metadata,
            blocks,
          },
        })
        .catch((error: unknown) => deps.logger.debug({ err: String(error) }, 'rejected-rows note not shown'));
    };
    let found: Awaited<ReturnType<typeof deps.store.drafts.get>>;
    try {
      found = await deps.store.drafts.get((action as { value?: string }).value ?? '', deps.now());
    } catch (error) {
      // A button in a modal has nowhere else to answer: Bolt's error handler could not tell the user.
      deps.logger.warn(
        { err: error instanceof Error ? error.message : String(error) },
        'rejected rows not read',
      );
      await say(userMessageFor(error));
      return;
    }
    if (!found || found.owner !== body.user.id) {
      await say(':warning: This review has expired: submit the form again to see the rejected rows.');
      return;
    }
    const stored = found.payload as unknown as StoredDraft;
    const rows = stored.rejected ?? [];
    const base = (stored.filename ?? 'recipients').replace(/\.[^.]+$/, '');
    try {
      const dm = await client.conversations.open({ users: body.user.id });
      const channelId = dm.channel?.id;
      if (!channelId) throw new Error('conversations.open gave no channel');
      await shareFile(client, {
        bytes: await rejectedRowsCsv(rows),
        filename: `${base}-rejected.csv`,
        title: `Rejected rows of ${stored.filename ?? 'the file'} (${rows.length})`,
        altText: `${rows.length} rejected rows`,
        channelId,
      });
      await say(
        `:page_facing_up: The ${rows.length} rejected rows are sent to you as a file, in your direct messages with this app.`,
      );
    } catch (error) {
      deps.logger.warn(
        { err: error instanceof Error ? error.message : String(error) },
        'rejected rows not posted',
      );
      await say(
        slackRefusalOf(error) === 'missing_scope'
          ? ':warning: This app may not send you direct messages yet (its Slack app lacks the `im:write` permission): an admin must update it from the current manifest and reinstall it.'
          : ':warning: Slack did not take the file of rejected rows. Try the button again later.',
      );
    }
  };
}
