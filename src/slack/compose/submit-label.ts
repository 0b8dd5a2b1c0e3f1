import type { SendingSettings } from '../deps.js';
import type { ComposeEstimate } from './draft.js';

/**
 * The compose modal's submit button says what pressing it does: "Review" opens the confirmation first, the
 * others act at once. Slack shows a view's submit label as it was last built, so it follows the estimate (and
 * the When choice) through the same views.update; a label that was not yet brought up to date errs only toward
 * a review, never toward a send (see promisedReview).
 */
export const REVIEW_LABEL = 'Review';

/** CONFIRM_RECIPIENTS and CONFIRM_COST: above either, a send is shown for review before it goes. */
export function needsReview(
  settings: Pick<SendingSettings, 'confirmRecipients' | 'confirmCost'>,
  totals: { recipients: number; cost: number },
): boolean {
  return (
    totals.recipients > settings.confirmRecipients ||
    (settings.confirmCost !== undefined && totals.cost > settings.confirmCost)
  );
}

export function submitLabel(
  settings: Pick<SendingSettings, 'confirmRecipients' | 'confirmCost'>,
  estimate: Pick<ComposeEstimate, 'totals'>,
  when: { scheduling: boolean; editing: boolean; fileAttached: boolean },
): string {
  // An attached file is always shown for review once read; until then its totals are unknown.
  if (when.fileAttached || !estimate.totals || needsReview(settings, estimate.totals)) return REVIEW_LABEL;
  if (when.scheduling) return when.editing ? 'Save' : 'Schedule';
  return 'Send now';
}

/** The submitted view's button said Review: the send is reviewed first, whatever its figures are now. */
export function promisedReview(view: { submit?: { text?: string } | null }): boolean {
  return view.submit?.text === REVIEW_LABEL;
}
