import type { View } from '../state/model.js';
import { SlackApiError } from '../web-api/api-error.js';
import { checkBlocks } from './block-kit-limits.js';
import { checkMaxLength, checkOptionalText, checkTextObject, isRecord, Problems } from './block-kit-text.js';

export type ViewKind = 'modal' | 'home';

const SURFACE_TEXT = { plainOnly: true, max: 24 } as const;

/**
 * Validates the `view` argument of views.open/push/update (modal) or views.publish (home). Slack answers every view
 * problem, blocks included, with `invalid_arguments` and the json-pointers in response_metadata.
 */
export function checkView(view: unknown, expected: ViewKind | 'any'): View {
  const problems = new Problems();
  if (!isRecord(view)) {
    problems.add('/view', 'must provide an object');
    throw new SlackApiError('invalid_arguments', problems.messages);
  }
  const kind = view.type;
  if (kind !== 'modal' && kind !== 'home') problems.add('/view/type', 'must be one of: modal, home');
  else if (expected !== 'any' && kind !== expected) problems.add('/view/type', `must be ${expected}`);
  if (kind === 'modal') checkModalChrome(view, problems);
  checkMaxLength(view.private_metadata, 3000, '/view/private_metadata', problems);
  checkMaxLength(view.callback_id, 255, '/view/callback_id', problems);
  checkMaxLength(view.external_id, 255, '/view/external_id', problems);
  problems.messages.push(...checkBlocks(view.blocks, kind === 'home' ? 'home' : 'modal', '/view/blocks'));
  if (!problems.empty) throw new SlackApiError('invalid_arguments', problems.messages);
  return view as unknown as View;
}

function checkModalChrome(view: Record<string, unknown>, problems: Problems): void {
  checkTextObject(view.title, '/view/title', problems, SURFACE_TEXT);
  checkOptionalText(view.close, '/view/close', problems, SURFACE_TEXT);
  checkOptionalText(view.submit, '/view/submit', problems, SURFACE_TEXT);
  const hasInput = Array.isArray(view.blocks) && view.blocks.some((b) => isRecord(b) && b.type === 'input');
  if (hasInput && view.submit === undefined) {
    problems.add('/view/submit', 'must provide submit when blocks contain an input block');
  }
}
