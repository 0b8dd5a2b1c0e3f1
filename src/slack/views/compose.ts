import { randomUUID } from 'node:crypto';
import type { AllMiddlewareArgs, SlackViewMiddlewareArgs, ViewSubmitAction } from '@slack/bolt';
import type { ModalView, View } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import type { SendRequest } from '../../sending/send.js';
import type { RejectedRow } from '../../tables/file-recipients.js';
import { TableFileError } from '../../tables/table-file.js';
import type { FileReading } from '../../tables/worker/reading.js';
import { within } from '../../within.js';
import {
  buildDraft,
  type CompactEnvelopes,
  type ComposeInput,
  type Draft,
  type DraftContext,
  type FileReport,
  readRequestFor,
  recipientCount,
  storedDraftContext,
} from '../compose/draft.js';
import { readScheduleChoice, type ScheduleChoice } from '../compose/schedule-input.js';
import {
  blockIdOf,
  readComposeInput,
  readMetadata,
  type SlackFile,
  type SlackView,
  uploadedFileOf,
  viewSchema,
} from '../compose/state.js';
import {
  type FilePick,
  keptForm,
  keptNumbers,
  restoredForm,
  type StoredUpload,
} from '../compose/stored-draft.js';
import { needsReview, promisedReview } from '../compose/submit-label.js';
import type { SlackDeps } from '../deps.js';
import { userMessageFor } from '../errors.js';
import { downloadSlackFile, FileDownloadError } from '../file-download.js';
import { allowed, denialText, roleOf } from '../permissions.js';
import { sendAndShow } from '../send-flow.js';
import { confirmView } from '../ui/compose.js';
import { type FilePlace, fileProblemView, readingFileView, rereadNoticeView } from '../ui/file-report.js';
import { draftExpiredView, sendingView, sendNoticeView, sendOutcomeView } from '../ui/send-outcome.js';
import { inputOf, type StoredSchedule, saveSchedule, scheduleOfChoice } from './schedule.js';

type ViewArgs = SlackViewMiddlewareArgs<ViewSubmitAction> & AllMiddlewareArgs;

const DRAFT_TTL_MS = 30 * 60_000;

export interface StoredDraft {
  draft: Draft;
  /** A personalised draft's messages as the template's text and each envelope's values (stored-draft.ts). */
  compact?: CompactEnvelopes;
  /** From an uploaded file: every rejected row, for the file sent back on request. */
  rejected?: RejectedRow[];
  filename?: string;
  channel: string;
  threadTs?: string;
  /** The compose view's id: the idempotency key of the send, whichever view confirms it. */
  rootViewId: string;
  /** Set when the user chose Schedule (or is editing a scheduled send). */
  schedule?: StoredSchedule;
  /** From an uploaded file: what reads it again when the person picks another sheet or number column. */
  upload?: StoredUpload;
  /** From an uploaded file: its report as the confirmation showed it, without the rejected rows (in `rejected`). */
  report?: Omit<FileReport, 'rejected'>;
}

/** What the confirmation says of a send larger than one gateway call: its chunks and their pace. */
function campaignPace(deps: SlackDeps) {
  return {
    chunkSize: deps.settings.sending.submitChunkSize,
    intervalMs: deps.settings.sending.chunkIntervalMs,
  };
}

function needsConfirmation(deps: SlackDeps, draft: Draft): boolean {
  return needsReview(deps.settings.sending, {
    recipients: recipientCount(draft),
    cost: draft.estimatedCost,
  });
}

/** After the ack: the send (one gateway call, or a campaign: sendAndShow decides), its card, the modal updated. */
async function send(
  deps: SlackDeps,
  client: WebClient,
  userId: string,
  stored: StoredDraft,
  viewId: string,
): Promise<void> {
  const request: SendRequest = {
    idempotencyKey: `compose:${stored.rootViewId}`,
    slackUser: userId,
    channel: stored.channel,
    threadTs: stored.threadTs,
    plan: stored.draft,
  };
  try {
    await sendAndShow(deps, client, request, async (outcome) => {
      const role =
        outcome.kind === 'refused' && outcome.refusal.kind === 'role'
          ? await roleOf(deps, userId)
          : undefined;
      await client.views
        .update({
          view_id: viewId,
          view: sendOutcomeView(outcome, deps.settings.simulated, role, {
            channel: stored.channel,
            ...(stored.threadTs ? { threadTs: stored.threadTs } : {}),
          }),
        })
        .catch((error: unknown) =>
          deps.logger.debug({ err: String(error) }, 'result view not shown (closed?)'),
        );
    });
  } catch (error) {
    await showFailure(deps, client, viewId, error, 'send failed before the gateway');
  }
}

/** After the ack: a send to be made later is saved (or an edit applied), its card posted or updated. */
async function sendOrSchedule(
  deps: SlackDeps,
  client: WebClient,
  userId: string,
  stored: StoredDraft,
  viewId: string,
): Promise<void> {
  if (!stored.schedule) return send(deps, client, userId, stored, viewId);
  try {
    await saveSchedule(deps, client, userId, stored, viewId);
  } catch (error) {
    await showFailure(deps, client, viewId, error, 'scheduled send not saved');
  }
}

/** What the modal shows while the send goes, or while a scheduled one is saved. */
function waitingView(deps: SlackDeps, stored: StoredDraft) {
  return stored.schedule && !stored.schedule.sendNow
    ? sendNoticeView(':hourglass_flowing_sand: Saving the scheduled send…')
    : sendingView(stored.draft, deps.settings.simulated);
}

/** What is kept of the user's choice of when: a time, an edit of a scheduled send, or nothing (send now). */
function storedScheduleOf(
  deps: SlackDeps,
  when: ScheduleChoice,
  metadata: ReturnType<typeof readMetadata>,
  input: Omit<ComposeInput, 'listMembers'>,
  fileName?: string,
): { schedule?: StoredSchedule } {
  if (metadata.editing && when.kind === 'now') {
    // Saving an edit with Send now: the edit is applied at once and the send goes through its claim.
    return {
      schedule: {
        dueAt: deps.now().toISOString(),
        timeZone: metadata.tz ?? deps.settings.reportTimeZone,
        editing: metadata.editing,
        sendNow: true,
        input: inputOf(input, fileName),
      },
    };
  }
  return scheduleOfChoice(when, metadata.editing, input, fileName);
}

async function listMembers(deps: SlackDeps, name: string | undefined): Promise<string[] | undefined> {
  if (!name) return undefined;
  return (await deps.store.recipientLists.get(name))?.members;
}

/** Keeps a draft, then builds its confirmation: a typed compose answers its submission with that view. */
async function keepForConfirmation(deps: SlackDeps, userId: string, stored: StoredDraft): Promise<ModalView> {
  await keepDraft(deps, userId, stored);
  return confirmationOf(deps, stored);
}

/** The key the draft is kept under until its confirmation is answered: one per compose modal. */
function draftKeyOf(stored: Pick<StoredDraft, 'rootViewId'>): string {
  return `draft:${stored.rootViewId}`;
}

/** Keeps a draft for its confirmation: keyed by the compose view, never in private_metadata. */
async function keepDraft(deps: SlackDeps, userId: string, stored: StoredDraft): Promise<void> {
  await deps.store.drafts.put(
    draftKeyOf(stored),
    userId,
    keptForm(stored) as unknown as Parameters<typeof deps.store.drafts.put>[2],
    new Date(deps.now().getTime() + DRAFT_TTL_MS),
    keptNumbers(stored),
  );
}

/** The confirmation that names a kept draft: the time when it is scheduled, what a file gave, the campaign's pace. */
function confirmationOf(
  deps: SlackDeps,
  stored: StoredDraft,
  file?: { report: FileReport | undefined; externalId: string },
): ModalView {
  const schedule = stored.schedule && !stored.schedule.sendNow ? stored.schedule : undefined;
  const view = confirmView(
    stored.draft,
    draftKeyOf(stored),
    deps.settings.simulated,
    schedule ? { dueAt: new Date(schedule.dueAt), timeZone: schedule.timeZone } : undefined,
    file?.report,
    file?.externalId,
    campaignPace(deps),
  );
  // Which reading of the file the view shows: Send sends the kept draft only when it is that reading.
  if (!stored.upload) return view;
  return {
    ...view,
    private_metadata: JSON.stringify({ draftKey: draftKeyOf(stored), reading: stored.upload.reading }),
  };
}

/** Logs what stopped the work after the ack, and tells the user in the modal. */
async function showFailure(
  deps: SlackDeps,
  client: WebClient,
  viewId: string,
  error: unknown,
  what: string,
): Promise<void> {
  deps.logger.warn({ err: error instanceof Error ? error.message : String(error) }, what);
  await client.views
    .update({ view_id: viewId, view: sendNoticeView(userMessageFor(error)) })
    .catch(() => undefined);
}

function draftContext(deps: SlackDeps): DraftContext {
  return storedDraftContext(deps.settings.defaultCountry, deps.settings.sending, deps.store.optOuts);
}

/** An uploaded file to read for a compose: where it came from, the form, and where to read it from. */
interface UploadReview {
  origin: Pick<StoredDraft, 'rootViewId' | 'channel' | 'threadTs'>;
  input: Omit<ComposeInput, 'listMembers' | 'file'>;
  file: StoredUpload['file'];
  externalId: string;
  when: { schedule?: StoredSchedule };
  pick: FilePick;
  /**
   * Set when the person picked another sheet or column in a confirmation: where the file was read from before,
   * for the pickers to stay should this reading fail.
   */
  again?: { place: FilePlace };
}

/** Where a reading came from and what else it offers: what the pickers show. */
function placeOfReading(reading: FileReading): FilePlace {
  const got = reading.purpose === 'recipients' ? reading.recipients : reading.personalised;
  return {
    ...(reading.meta.sheet === undefined ? {} : { sheet: reading.meta.sheet }),
    ...(reading.meta.sheets === undefined ? {} : { sheets: reading.meta.sheets }),
    numberColumn: got.numberColumn,
    numberColumnIndex: got.numberColumnIndex,
    columnChoices: got.columnChoices,
  };
}

/**
 * A turn of the event loop. The steps after a file's reading (the draft, its confirmation, the stored draft)
 * are a few milliseconds each; chained by awaits of promises already settled, they ran as one block of
 * 10-15 ms, and a command's ack that came meanwhile waited for all of it (bench/uploads.ts, 2026-11-27).
 */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A Slack file object as kept with a draft: what downloads it again, nothing more. */
function fileToKeep(file: SlackFile): StoredUpload['file'] {
  return {
    id: file.id,
    name: file.name,
    ...(file.size === undefined ? {} : { size: file.size }),
    ...(file.url_private === undefined ? {} : { url_private: file.url_private }),
    ...(file.url_private_download === undefined ? {} : { url_private_download: file.url_private_download }),
  };
}

/**
 * After the ack of a compose with a file, or of a pick in its confirmation: download it with the bot token, read
 * it, build the draft and show what the file gave (the confirmation), or what stops it. Always a confirmation: a
 * file is never sent unseen.
 */
async function reviewUpload(
  deps: SlackDeps,
  client: WebClient,
  userId: string,
  review: UploadReview,
): Promise<void> {
  const { input, file, externalId, pick, again } = review;
  const draftKey = draftKeyOf(review.origin);
  const show = (next: View) =>
    client.views
      .update({ external_id: externalId, view: next })
      .catch((error: unknown) =>
        deps.logger.debug({ err: String(error) }, 'file review not shown (closed?)'),
      );
  // After a pick, the pickers stay under what went wrong, to read the file from elsewhere again.
  const problem = (problems: string[], place = again?.place) =>
    show(fileProblemView(problems, undefined, again && place ? { place, draftKey, externalId } : undefined));
  try {
    const bytes = await downloadSlackFile(file, client);
    // Read and made into numbers or messages in a thread of its own, under memory and time limits (pool.ts).
    const reading = await deps.tableReader.read(file.name, bytes, {
      ...readRequestFor(input, deps.settings.defaultCountry),
      ...pick,
    });
    await nextTurn();
    const result = await buildDraft(
      { ...input, listMembers: await listMembers(deps, input.listName), file: { name: file.name, reading } },
      draftContext(deps),
    );
    if (!result.ok) {
      await problem(Object.values(result.errors), placeOfReading(reading));
      return;
    }
    await nextTurn();
    const { rejected, ...report } = result.fileReport ?? { rejected: undefined };
    const stored: StoredDraft = {
      draft: result.draft,
      ...review.origin,
      rejected,
      filename: file.name,
      ...(result.compact ? { compact: result.compact } : {}),
      ...review.when,
      upload: { file, input, externalId, pick, reading: randomUUID() },
      ...(result.fileReport ? { report: report as Omit<FileReport, 'rejected'> } : {}),
    };
    const confirmation = confirmationOf(deps, stored, { report: result.fileReport, externalId });
    if (again) {
      // A confirmation is on screen with Send on it: the new draft is kept first, so that Send on the view that
      // shows it finds it (a Send on the view before finds another reading, and sends nothing: see confirm).
      try {
        await keepDraft(deps, userId, stored);
      } catch (error) {
        deps.logger.warn(
          { err: error instanceof Error ? error.message : String(error) },
          'file draft not kept',
        );
        await problem([userMessageFor(error)]);
        return;
      }
      await show(confirmation);
      return;
    }
    // The confirmation is asked of Slack first and the draft kept while Slack shows it: a 100,000-row draft is
    // megabytes of JSON (40–90 ms on SQLite, more to PostgreSQL), and nobody can press Send on a view before they
    // see it. Should the store refuse it, the confirmation is replaced by why, and Send finds no draft (nothing
    // is sent without one).
    const shown = show(confirmation);
    try {
      // One turn of the event loop first, for the request to reach the socket: SQLite writes synchronously.
      await nextTurn();
      await keepDraft(deps, userId, stored);
    } catch (error) {
      await shown;
      deps.logger.warn(
        { err: error instanceof Error ? error.message : String(error) },
        'file draft not kept',
      );
      await show(fileProblemView([userMessageFor(error)]));
      return;
    }
    await shown;
  } catch (error) {
    if (error instanceof TableFileError || error instanceof FileDownloadError) {
      await problem([error.message]);
      return;
    }
    deps.logger.warn(
      { err: error instanceof Error ? error.message : String(error) },
      'uploaded file not read',
    );
    await problem([userMessageFor(error)]);
  }
}

/**
 * A pick in a file's confirmation (another sheet, another number column): the same file read again from there,
 * shown in the same view ("Reading…" first), and kept under the same key in place of the draft it replaces.
 */
export async function readUploadAgain(
  deps: SlackDeps,
  client: WebClient,
  userId: string,
  stored: StoredDraft & { upload: StoredUpload; report: Omit<FileReport, 'rejected'> },
  pick: FilePick,
): Promise<void> {
  const { upload, report } = stored;
  await client.views
    .update({ external_id: upload.externalId, view: readingFileView(upload.file.name, upload.externalId) })
    .catch((error: unknown) => deps.logger.debug({ err: String(error) }, 'reading view not shown (closed?)'));
  await reviewUpload(deps, client, userId, {
    origin: { rootViewId: stored.rootViewId, channel: stored.channel, threadTs: stored.threadTs },
    input: upload.input,
    file: upload.file,
    externalId: upload.externalId,
    when: stored.schedule ? { schedule: stored.schedule } : {},
    pick,
    again: { place: report },
  });
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
    const when = readScheduleChoice(view, metadata.tz, deps.now(), metadata.scheduleAt);
    const file = uploadedFileOf(view);
    if (file) {
      if (when.kind === 'invalid') {
        await ack({ response_action: 'errors', errors: when.errors });
        return;
      }
      // Downloading and reading a file of 100,000 rows can take longer than Slack's 3 seconds: a view saying
      // so is pushed at once and replaced by the confirmation, or by what is wrong.
      const externalId = `compose-file:${view.id}:${deps.now().getTime()}`;
      await ack({ response_action: 'push', view: readingFileView(file.name, externalId) });
      await reviewUpload(deps, client, userId, {
        origin: { rootViewId: view.id, channel: metadata.channel, threadTs: metadata.threadTs },
        input,
        file: fileToKeep(file),
        externalId,
        when: storedScheduleOf(deps, when, metadata, input, file.name),
        pick: {},
      });
      return;
    }
    const result = await buildDraft(
      { ...input, listMembers: await listMembers(deps, input.listName) },
      draftContext(deps),
    );
    if (!result.ok || when.kind === 'invalid') {
      const errors = Object.fromEntries(
        Object.entries(result.ok ? {} : result.errors).map(([field, message]) => [
          blockIdOf(view, field),
          message,
        ]),
      );
      await ack({
        response_action: 'errors',
        errors: { ...errors, ...(when.kind === 'invalid' ? when.errors : {}) },
      });
      return;
    }
    const stored: StoredDraft = {
      draft: result.draft,
      channel: metadata.channel,
      threadTs: metadata.threadTs,
      rootViewId: view.id,
      ...(result.compact ? { compact: result.compact } : {}),
      ...storedScheduleOf(deps, when, metadata, input),
    };
    // A button that said Review keeps its word, even when the figures fell below the thresholds since it was drawn.
    if (needsConfirmation(deps, result.draft) || promisedReview(view)) {
      await ack({ response_action: 'push', view: await keepForConfirmation(deps, userId, stored) });
      return;
    }
    await ack({ response_action: 'update', view: waitingView(deps, stored) });
    await sendOrSchedule(deps, client, userId, stored, view.id);
  };
}

/** How long a confirm's ack may wait for the compose view below to show "Sending…". */
const ROOT_UPDATE_MS = 1_000;

export function confirmSubmissionHandler(deps: SlackDeps) {
  return async function handleConfirmSubmission({ ack, body, client }: ViewArgs): Promise<void> {
    const view = viewSchema.parse(body.view);
    const userId = body.user.id;
    const { draftKey, reading } = JSON.parse(view.private_metadata || '{}') as {
      draftKey?: string;
      reading?: string;
    };
    const found = draftKey ? await deps.store.drafts.get(draftKey, deps.now()) : undefined;
    const stored =
      found && found.owner === userId
        ? restoredForm(found.payload as unknown as StoredDraft, found.numbers)
        : undefined;
    if (!stored) {
      await ack({
        response_action: 'update',
        view: draftExpiredView(),
      });
      return;
    }
    if (stored.upload && stored.report && stored.upload.reading !== reading) {
      // The file was read again (another sheet or column) since this view was drawn, or this view was drawn
      // before its own reading was kept: its Send would send what it does not show. The kept reading is shown.
      await ack({
        response_action: 'update',
        view: rereadNoticeView(
          confirmationOf(deps, stored, {
            report: { ...stored.report, rejected: stored.rejected ?? [] },
            externalId: stored.upload.externalId,
          }),
        ),
      });
      return;
    }
    // The role, opt-outs and limits are checked by the send path itself, at the moment of sending,
    // so that a confirm refused there leaves a failed outbox row and an audit entry behind.
    // Slack closes a view answered with an empty ack and shows the one below: the compose view, turned into
    // "Sending…" first, shows the result, and one modal is left to close (`update` here would leave two).
    // The ack waits for that update at most ROOT_UPDATE_MS: Slack wants it within 3 s, and a rate-limited
    // views.update is retried by the Web API client. Past that, the confirmation itself shows "Sending…".
    const below =
      stored.rootViewId !== view.id &&
      (await within(
        client.views.update({ view_id: stored.rootViewId, view: waitingView(deps, stored) }).then(
          () => true,
          () => false,
        ),
        ROOT_UPDATE_MS,
        () => false,
      ));
    if (below) {
      await ack();
      await sendOrSchedule(deps, client, userId, stored, stored.rootViewId);
      return;
    }
    await ack({ response_action: 'update', view: waitingView(deps, stored) });
    await sendOrSchedule(deps, client, userId, stored, view.id);
  };
}
