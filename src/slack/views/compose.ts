import type { AllMiddlewareArgs, SlackViewMiddlewareArgs, ViewSubmitAction } from '@slack/bolt';
import type { View } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import { executeSend, type SendOutcome } from '../../sending/send.js';
import type { RejectedRow } from '../../sms/file-recipients.js';
import { readTableFile, TableFileError } from '../../sms/table-file.js';
import { buildDraft, type ComposeInput, type Draft, type DraftContext } from '../compose/draft.js';
import {
  blockIdOf,
  readComposeInput,
  readMetadata,
  type SlackFile,
  type SlackView,
  uploadedFileOf,
  viewSchema,
} from '../compose/state.js';
import { postCard, updateCard } from '../delivery-cards.js';
import type { SlackDeps } from '../deps.js';
import { userMessageFor } from '../errors.js';
import { downloadSlackFile, FileDownloadError } from '../file-download.js';
import { allowed, denialText, roleOf, sendPolicyOf } from '../permissions.js';
import { confirmView } from '../ui/compose.js';
import { fileProblemView, readingFileView } from '../ui/file-report.js';
import {
  confirmedBelowView,
  draftExpiredView,
  sendingView,
  sendNoticeView,
  sendOutcomeView,
} from '../ui/send-outcome.js';

type ViewArgs = SlackViewMiddlewareArgs<ViewSubmitAction> & AllMiddlewareArgs;

const DRAFT_TTL_MS = 30 * 60_000;

export interface StoredDraft {
  draft: Draft;
  /** From an uploaded file: every rejected row, for the file sent back on request. */
  rejected?: RejectedRow[];
  filename?: string;
  channel: string;
  threadTs?: string;
  /** The compose view's id: the idempotency key of the send, whichever view confirms it. */
  rootViewId: string;
}

function needsConfirmation(deps: SlackDeps, draft: Draft): boolean {
  const { confirmRecipients, confirmCost } = deps.settings.sending;
  return (
    draft.recipients.length > confirmRecipients ||
    (confirmCost !== undefined && draft.estimatedCost > confirmCost)
  );
}

/** After the ack: one send, the card in the channel, the modal updated with the outcome. */
async function send(
  deps: SlackDeps,
  client: WebClient,
  userId: string,
  stored: StoredDraft,
  viewId: string,
): Promise<void> {
  let outcome: SendOutcome;
  try {
    outcome = await executeSend(
      { ...deps, policy: sendPolicyOf(deps) },
      {
        idempotencyKey: `compose:${stored.rootViewId}`,
        slackUser: userId,
        channel: stored.channel,
        threadTs: stored.threadTs,
        plan: stored.draft,
      },
    );
  } catch (error) {
    deps.logger.warn(
      { err: error instanceof Error ? error.message : String(error) },
      'send failed before the gateway',
    );
    await client.views
      .update({ view_id: viewId, view: sendNoticeView(userMessageFor(error)) })
      .catch(() => undefined);
    return;
  }
  const role =
    outcome.kind === 'refused' && outcome.refusal.kind === 'role' ? await roleOf(deps, userId) : undefined;
  await client.views
    .update({
      view_id: viewId,
      view: sendOutcomeView(outcome, deps.settings.simulated, role),
    })
    .catch((error: unknown) => deps.logger.debug({ err: String(error) }, 'result view not shown (closed?)'));
  if (outcome.kind === 'submitted' || outcome.kind === 'unknown') {
    const row = (await deps.store.outbox.get(outcome.row.id)) ?? outcome.row;
    // A send taken for abandoned while its reply was slow already has its card: that one is brought up to date.
    const shown = row.messageTs
      ? updateCard(deps, client, row)
      : postCard(deps, client, row, stored.threadTs);
    await shown.catch((error: unknown) =>
      deps.logger.warn(
        { outboxId: row.id, err: error instanceof Error ? error.message : String(error) },
        'delivery card not posted',
      ),
    );
    if (outcome.kind === 'submitted') deps.nudgeTracker(row.id);
  }
}

async function listMembers(deps: SlackDeps, name: string | undefined): Promise<string[] | undefined> {
  if (!name) return undefined;
  return (await deps.store.recipientLists.get(name))?.members;
}

function draftContext(deps: SlackDeps): DraftContext {
  return {
    defaultCountry: deps.settings.defaultCountry,
    settings: deps.settings.sending,
    optedOut: (numbers) => deps.store.optOuts.hasMany(numbers),
  };
}

/**
 * After the ack of a compose with a file: download it with the bot token, read it, build the draft and show
 * what the file gave (the confirmation), or what stops it. Always a confirmation: a file is never sent unseen.
 */
async function reviewUpload(
  deps: SlackDeps,
  client: WebClient,
  userId: string,
  view: SlackView,
  input: ComposeInput,
  file: SlackFile,
  externalId: string,
): Promise<void> {
  const show = (next: View) =>
    client.views
      .update({ external_id: externalId, view: next })
      .catch((error: unknown) =>
        deps.logger.debug({ err: String(error) }, 'file review not shown (closed?)'),
      );
  try {
    const bytes = await downloadSlackFile(file, client.token);
    const table = await readTableFile(file.name, bytes);
    const metadata = readMetadata(view);
    const result = await buildDraft(
      { ...input, listMembers: await listMembers(deps, input.listName), file: { name: file.name, table } },
      draftContext(deps),
    );
    if (!result.ok) {
      await show(fileProblemView(Object.values(result.errors)));
      return;
    }
    const stored: StoredDraft = {
      draft: result.draft,
      channel: metadata.channel,
      threadTs: metadata.threadTs,
      rootViewId: view.id,
      rejected: result.fileReport?.rejected,
      filename: file.name,
    };
    const draftKey = `draft:${view.id}`;
    await deps.store.drafts.put(
      draftKey,
      userId,
      stored as unknown as Parameters<typeof deps.store.drafts.put>[2],
      new Date(deps.now().getTime() + DRAFT_TTL_MS),
    );
    await show(confirmView(result.draft, draftKey, deps.settings.simulated, result.fileReport, externalId));
  } catch (error) {
    if (error instanceof TableFileError || error instanceof FileDownloadError) {
      await show(fileProblemView([error.message]));
      return;
    }
    deps.logger.warn(
      { err: error instanceof Error ? error.message : String(error) },
      'uploaded file not read',
    );
    await show(fileProblemView([userMessageFor(error)]));
  }
}

export function composeSubmissionHandler(deps: SlackDeps) {
  return async function handleComposeSubmission({ ack, body, client }: ViewArgs): Promise<void> {
    const view: SlackView = viewSchema.parse(body.view);
    const userId = body.user.id;
    if (!(await allowed(deps, userId, 'sender'))) {
      await ack({
        response_action: 'update',
        view: sendNoticeView(denialText('sender', await roleOf(deps, userId))),
      });
      return;
    }
    const metadata = readMetadata(view);
    const input = readComposeInput(view);
    const file = uploadedFileOf(view);
    if (file) {
      // Downloading and reading a file of 100,000 rows can take longer than Slack's 3 seconds: a view saying
      // so is pushed at once and replaced by the confirmation, or by what is wrong.
      const externalId = `compose-file:${view.id}:${deps.now().getTime()}`;
      await ack({ response_action: 'push', view: readingFileView(file.name, externalId) });
      await reviewUpload(deps, client, userId, view, { ...input, listMembers: undefined }, file, externalId);
      return;
    }
    const result = await buildDraft(
      { ...input, listMembers: await listMembers(deps, input.listName) },
      draftContext(deps),
    );
    if (!result.ok) {
      const errors = Object.fromEntries(
        Object.entries(result.errors).map(([field, message]) => [blockIdOf(view, field), message]),
      );
      await ack({ response_action: 'errors', errors });
      return;
    }
    const stored: StoredDraft = {
      draft: result.draft,
      channel: metadata.channel,
      threadTs: metadata.threadTs,
      rootViewId: view.id,
    };
    if (needsConfirmation(deps, result.draft)) {
      const draftKey = `draft:${view.id}`;
      await deps.store.drafts.put(
        draftKey,
        userId,
        stored as unknown as Parameters<typeof deps.store.drafts.put>[2],
        new Date(deps.now().getTime() + DRAFT_TTL_MS),
      );
      await ack({
        response_action: 'push',
        view: confirmView(result.draft, draftKey, deps.settings.simulated),
      });
      return;
    }
    await ack({ response_action: 'update', view: sendingView(result.draft, deps.settings.simulated) });
    await send(deps, client, userId, stored, view.id);
  };
}

export function confirmSubmissionHandler(deps: SlackDeps) {
  return async function handleConfirmSubmission({ ack, body, client }: ViewArgs): Promise<void> {
    const view = viewSchema.parse(body.view);
    const userId = body.user.id;
    const { draftKey } = JSON.parse(view.private_metadata || '{}') as { draftKey?: string };
    const found = draftKey ? await deps.store.drafts.get(draftKey, deps.now()) : undefined;
    if (!found || found.owner !== userId) {
      await ack({
        response_action: 'update',
        view: draftExpiredView(),
      });
      return;
    }
    // The role, opt-outs and limits are checked by the send path itself, at the moment of sending,
    // so that a confirm refused there leaves a failed outbox row and an audit entry behind.
    const stored = found.payload as unknown as StoredDraft;
    await ack({ response_action: 'update', view: sendingView(stored.draft, deps.settings.simulated) });
    await send(deps, client, userId, stored, view.id);
    // The compose view below is left as it was; submitting it again finds the same key and sends nothing.
    await client.views
      .update({
        view_id: stored.rootViewId,
        view: confirmedBelowView(),
      })
      .catch(() => undefined);
  };
}
