import { scheduleWindowProblem } from '../../sending/scheduled.js';
import { SCHEDULE_FIELD, scheduleProblemText } from '../ui/scheduled.js';
import type { SlackView } from './state.js';

export type ScheduleChoice =
  | { kind: 'now' }
  | { kind: 'schedule'; dueAt: Date; timeZone: string }
  /** A field error, keyed by the picker's block. */
  | { kind: 'invalid'; errors: Record<string, string> };

/** Whether the When radio shows "Schedule for the time below". */
export function scheduleChosen(view: SlackView): boolean {
  return (
    (
      view.state.values[SCHEDULE_FIELD.when]?.[SCHEDULE_FIELD.when] as
        | { selected_option?: { value?: string } }
        | undefined
    )?.selected_option?.value === 'schedule'
  );
}

/**
 * Reads "Send now" or "Schedule" and the datetimepicker (UNIX seconds: Slack has already read the picked
 * date and time in the user's own zone). A time less than 2 minutes or more than 90 days ahead, or
 * Schedule without a time, is a field error on the picker's block; a time picked with "Send now" is one on
 * the "when" block, never a send now. A modal without the "when" part (no zone known when it opened) always
 * sends now.
 */
export function readScheduleChoice(
  view: SlackView,
  timeZone: string | undefined,
  now: Date,
  /** The time the picker opened with (the Edit of a scheduled send): keeping it is no pick. */
  shownAt?: number,
): ScheduleChoice {
  if (!timeZone) return { kind: 'now' };
  const values = view.state.values;
  const when = (
    values[SCHEDULE_FIELD.when]?.[SCHEDULE_FIELD.when] as { selected_option?: { value?: string } } | undefined
  )?.selected_option?.value;
  const picked = (
    values[SCHEDULE_FIELD.at]?.[SCHEDULE_FIELD.at] as { selected_date_time?: unknown } | undefined
  )?.selected_date_time;
  const seconds =
    typeof picked === 'number' ? picked : typeof picked === 'string' ? Number(picked) : Number.NaN;
  const pickedNow = Number.isFinite(seconds) && seconds > 0 && seconds !== shownAt;
  if (when !== 'schedule') {
    // A time picked beside "Send now" is a person who meant to schedule and missed the radio: sending at once
    // would spend money they meant to spend later. Slack's picker cannot be emptied, so the way out is named.
    return pickedNow
      ? {
          kind: 'invalid',
          errors: {
            [SCHEDULE_FIELD.when]:
              'A time is picked below but “Send now” is chosen. Choose “Schedule for the time below” to send it then; to send now, close this form and start again.',
          },
        }
      : { kind: 'now' };
  }
  const invalid = (problem: 'missing' | 'too-soon' | 'too-far'): ScheduleChoice => ({
    kind: 'invalid',
    errors: { [SCHEDULE_FIELD.at]: scheduleProblemText(problem, now, timeZone) },
  });
  if (!Number.isFinite(seconds) || seconds <= 0) return invalid('missing');
  const dueAt = new Date(seconds * 1000);
  const problem = scheduleWindowProblem(dueAt, now);
  if (problem) return invalid(problem);
  return { kind: 'schedule', dueAt, timeZone };
}
