import { checkView } from '../block-kit/view-limits.js';
import type { ViewOutput } from '../state/model.js';
import type { WorkspaceState } from '../state/workspace-state.js';
import { SlackApiError } from '../web-api/api-error.js';

export type ViewAckOutcome =
  /** Empty 200: Slack closes the submitted view (and anything above it); the one below shows again. */
  | { kind: 'closed' }
  | { kind: 'errors'; errors: Record<string, string> }
  | { kind: 'updated'; view: ViewOutput }
  | { kind: 'pushed'; view: ViewOutput }
  | { kind: 'cleared' }
  /** Slack shows the user an error in the modal and changes nothing: a non-200, a late ack, or a bad response. */
  | { kind: 'failed'; reason: string; messages?: string[] };

/** What Slack does with the bot's answer to a view_submission. */
export function applyViewSubmissionAck(
  state: WorkspaceState,
  userId: string,
  submitted: ViewOutput,
  ack: { status: number; body: unknown; late: boolean },
): ViewAckOutcome {
  if (ack.late) return { kind: 'failed', reason: 'ack_timeout' };
  if (ack.status !== 200) return { kind: 'failed', reason: `http_${ack.status}` };
  if (ack.body === '' || ack.body === undefined) {
    state.views.close(submitted.id);
    return { kind: 'closed' };
  }
  if (typeof ack.body !== 'object' || ack.body === null) return { kind: 'failed', reason: 'not_json' };
  try {
    return applyResponseAction(state, userId, submitted, ack.body as Record<string, unknown>);
  } catch (error) {
    if (!(error instanceof SlackApiError)) throw error;
    return { kind: 'failed', reason: error.error, messages: error.messages };
  }
}

function applyResponseAction(
  state: WorkspaceState,
  userId: string,
  submitted: ViewOutput,
  body: Record<string, unknown>,
): ViewAckOutcome {
  switch (body.response_action) {
    case 'errors':
      return checkErrors(submitted, body.errors);
    case 'update':
      return {
        kind: 'updated',
        view: state.views.update({ viewId: submitted.id }, checkView(body.view, 'modal')),
      };
    case 'push':
      return { kind: 'pushed', view: state.views.push(userId, checkView(body.view, 'modal')) };
    case 'clear':
      state.views.clear(userId);
      return { kind: 'cleared' };
    case undefined:
      state.views.close(submitted.id);
      return { kind: 'closed' };
    default:
      return { kind: 'failed', reason: `unknown response_action ${String(body.response_action)}` };
  }
}

/** Slack rejects an errors map that names a block that is not an input block of the submitted view. */
function checkErrors(submitted: ViewOutput, errors: unknown): ViewAckOutcome {
  if (typeof errors !== 'object' || errors === null)
    return { kind: 'failed', reason: 'errors must be an object' };
  const inputBlockIds = new Set(submitted.blocks.filter((b) => b.type === 'input').map((b) => b.block_id));
  const unknown = Object.keys(errors).filter((id) => !inputBlockIds.has(id));
  if (unknown.length > 0)
    return { kind: 'failed', reason: `errors name blocks that are not inputs: ${unknown}` };
  return { kind: 'errors', errors: errors as Record<string, string> };
}
