import type { WebClient } from '@slack/web-api';
import {
  requestOfScheduled,
  rescheduleSend,
  type ScheduleInfo,
  scheduleSend,
  scheduleWindowProblem,
} from '../../sending/scheduled.js';
import type { JsonValue } from '../../store/index.js';
import type { ComposeInput, Draft } from '../compose/draft.js';
import type { ScheduleChoice } from '../compose/schedule-input.js';
import { postCard, updateCard } from '../delivery-cards.js';
import type { SlackDeps } from '../deps.js';
import { UserInputError } from '../errors.js';
import { mayCancel, roleOf } from '../permissions.js';
import { sendAndShow } from '../send-flow.js';
import { scheduledDoneView, scheduleProblemText } from '../ui/scheduled.js';
import { sendNoticeView, sendOutcomeView } from '../ui/send-outcome.js';

/** The schedule part of a compose draft, kept with it until it is confirmed. */
export interface StoredSchedule {
  /** ISO time it is due. */
  dueAt: string;
  timeZone: string;
  /** Editing this scheduled send (outbox id) instead of making a new one. */
  editing?: number;
  /** An edit saved with Send now: applied, then sent at once. */
  sendNow?: boolean;
  /** What the modal held, to reopen it as it was on Edit. */
  input: { [key: string]: JsonValue };
}

interface DraftToSave {
  draft: Draft;
  channel: string;
  threadTs?: string;
  rootViewId: string;
  schedule?: StoredSchedule;
}

/**
 * What Edit needs to reopen the modal as it was. Retention and `/sms forget` drop it (see the outbox
 * repository); Edit then falls back to the row's recipients and text.
 */
export function inputOf(
  input: Omit<ComposeInput, 'listMembers'>,
  fileName?: string,
): { [key: string]: JsonValue } {
  return {
    mode: input.mode,
    // A file is not kept: Edit says it cannot reopen it rather than open the modal without it.
    ...(fileName ? { fileName } : {}),
    // Numbers typed in same-text mode are on the row itself; a CSV cannot be rebuilt from it.
    ...(input.mode === 'personalised' ? { csvText: input.csvText } : {}),
    text: input.text,
    ...(input.sender ? { sender: input.sender } : {}),
    ...(input.listName ? { listName: input.listName } : {}),
  };
}

export function scheduleOfChoice(
  choice: ScheduleChoice,
  editing: number | undefined,
  input: Omit<ComposeInput, 'listMembers'>,
  fileName?: string,
): { schedule?: StoredSchedule } {
  if (choice.kind !== 'schedule') return {};
  return {
    schedule: {
      dueAt: choice.dueAt.toISOString(),
      timeZone: choice.timeZone,
      ...(editing ? { editing } : {}),
      input: inputOf(input, fileName),
    },
  };
}

/**
 * Saves a scheduled send, or applies an edit to one, and shows it: the card in the channel (posted, or
 * updated in place for an edit) and the modal. The time is checked again (a confirmation may come minutes
 * later), and an edit only by the author or an admin, only while the send still waits.
 */
export async function saveSchedule(
  deps: SlackDeps,
  client: WebClient,
  userId: string,
  stored: DraftToSave,
  viewId: string,
): Promise<void> {
  const schedule = stored.schedule!;
  const dueAt = new Date(schedule.dueAt);
  const now = deps.now();
  const info: ScheduleInfo = { timeZone: schedule.timeZone, input: schedule.input };
  const request = { plan: stored.draft, threadTs: stored.threadTs };
  const problem = schedule.sendNow ? undefined : scheduleWindowProblem(dueAt, now);
  if (problem)
    throw new UserInputError(
      `:warning: Not scheduled. ${scheduleProblemText(problem, now, schedule.timeZone)} Start again with \`/sms send\`.`,
    );

  if (schedule.editing) {
    const current = await deps.store.outbox.get(schedule.editing);
    if (!current || !mayCancel(await roleOf(deps, userId), userId, current.slackUser)) {
      throw new UserInputError(':no_entry: Only its author or an admin may edit this scheduled send.');
    }
    if (!(await rescheduleSend(deps, current.id, userId, request, dueAt, info))) {
      throw new UserInputError(
        ':information_source: Nothing was changed: this scheduled send has already gone or was cancelled. Its card says what happened.',
      );
    }
    const row = (await deps.store.outbox.get(current.id))!;
    if (schedule.sendNow) {
      await sendAndShow(deps, client, requestOfScheduled(row, { sendNow: true }), async (outcome) => {
        await client.views
          .update({ view_id: viewId, view: sendOutcomeView(outcome, deps.settings.simulated, undefined) })
          .catch(() => undefined);
      });
      return;
    }
    await updateCard(deps, client, row).catch((error: unknown) =>
      deps.logger.warn({ outboxId: row.id, err: String(error) }, 'scheduled card not updated'),
    );
    await client.views
      .update({ view_id: viewId, view: scheduledDoneView(row, true, deps.settings.simulated) })
      .catch(() => undefined);
    return;
  }

  const { row, created } = await scheduleSend(
    deps,
    {
      idempotencyKey: `compose:${stored.rootViewId}`,
      slackUser: userId,
      channel: stored.channel,
      threadTs: stored.threadTs,
      plan: stored.draft,
    },
    dueAt,
    info,
  );
  if (created) {
    await postCard(deps, client, row, stored.threadTs).catch((error: unknown) =>
      deps.logger.warn({ outboxId: row.id, err: String(error) }, 'scheduled card not posted'),
    );
  }
  await client.views
    .update({
      view_id: viewId,
      view: created
        ? scheduledDoneView(row, false, deps.settings.simulated)
        : sendNoticeView('Already saved: see its card.'),
    })
    .catch(() => undefined);
}
