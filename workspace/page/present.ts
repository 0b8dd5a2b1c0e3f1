import type { EphemeralMessage, SlackMessage } from '../state/model.js';
import type { WorkspaceState } from '../state/workspace-state.js';

/** A message as the page gets it: Slack's shape, plus a URL the page may read each shared file at. */
export function presentMessage<M extends SlackMessage | EphemeralMessage>(message: M) {
  if (!message.files?.length) return message;
  return {
    ...message,
    files: message.files.map((f) => ({ ...f, url: `/_ws/files/${f.id}` })),
  };
}

/** A user's modal stack (root first) and Home tab, as the page shows them. */
export function viewsOf(state: WorkspaceState, userId: string) {
  return { userId, stack: state.views.stack(userId), home: state.views.home(userId) ?? null };
}
