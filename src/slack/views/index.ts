import type { App } from '@slack/bolt';
import type { SlackDeps } from '../deps.js';
import { COMPOSE_CALLBACK, CONFIRM_CALLBACK } from '../ui/compose.js';
import { LIST_IMPORT_CALLBACK } from '../ui/list-import.js';
import { composeSubmissionHandler, confirmSubmissionHandler } from './compose.js';
import { listImportSubmissionHandler } from './list-import.js';

export function register(app: App, deps: SlackDeps): void {
  app.view(COMPOSE_CALLBACK, composeSubmissionHandler(deps));
  app.view(CONFIRM_CALLBACK, confirmSubmissionHandler(deps));
  app.view(LIST_IMPORT_CALLBACK, listImportSubmissionHandler(deps));
}
