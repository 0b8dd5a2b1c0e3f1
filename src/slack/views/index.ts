import type { App } from '@slack/bolt';
import type { SlackDeps } from '../deps.js';
import { COMPOSE_CALLBACK, CONFIRM_CALLBACK } from '../ui/compose.js';
import { composeSubmissionHandler, confirmSubmissionHandler } from './compose.js';

export function register(app: App, deps: SlackDeps): void {
  app.view(COMPOSE_CALLBACK, composeSubmissionHandler(deps));
  app.view(CONFIRM_CALLBACK, confirmSubmissionHandler(deps));
}
