import { scheduleWindowProblem } from '../../sending/scheduled.js';
import { SCHEDULE_FIELD, scheduleProblemText } from '../ui/scheduled.js';
import type { SlackView } from './state.js';

export type ScheduleChoice =
  | { kind: 'now' }
  | { kind: 'schedule'; dueAt: Date; timeZone: string }
  /** A field error, keyed by the picker's block. */
  | { kind: 'invalid'; errors: Record<string, string> };

/**
 * Reads "Send now" or "Schedule" and the datetimepicker (UNIX seconds: Slack has already read the picked
 * date and time in the user's own zone). A time less than 2 minutes or more than 90 days ahead, or
 * Schedule without a time, is a field error on the picker's block. A modal without the "when" part (no
 * zone known when it opened) always sends now.
 */
export function readScheduleChoice(view: SlackView, timeZone: string | undefined, now: Date): ScheduleChoice {
  if (!timeZone) return { kind: 'now' };
  const values = view.state.values;
  const when = (
    values[SCHEDULE_FIELD.when]?.[SCHEDULE_FIELD.when] as { selected_option?: { value?: string } } | undefined
  )?.selected_option?.value;
  if (when !== 'schedule') return { kind: 'now' };
  const picked = (
    values[SCHEDULE_FIELD.at]?.[SCHEDULE_FIELD.at] as { selected_date_time?: unknown } | undefined
  )?.selected_date_time;
  const seconds =
    typeof picked === 'number' ? picked : typeof picked === 'string' ? Number(picked) : Number.NaN;
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
