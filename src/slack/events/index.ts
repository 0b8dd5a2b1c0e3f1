import type { App } from '@slack/bolt';
import type { SlackDeps } from '../deps.js';
import { registerHomeEvents } from './home.js';

export function register(app: App, deps: SlackDeps): void {
  registerHomeEvents(app, deps);
}
