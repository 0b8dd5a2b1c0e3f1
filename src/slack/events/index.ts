import type { App } from '@slack/bolt';
import type { SlackDeps } from '../deps.js';
import { registerHomeEvents } from './home.js';
import { registerMentionEvents } from './mention.js';
import { registerWorkflowSteps } from './workflow-steps.js';

export function register(app: App, deps: SlackDeps): void {
  registerHomeEvents(app, deps);
  registerMentionEvents(app, deps);
  registerWorkflowSteps(app, deps);
}
