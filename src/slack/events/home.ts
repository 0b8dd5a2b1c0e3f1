import type { App } from '@slack/bolt';
import type { SlackDeps } from '../deps.js';

/** The App Home dashboard (app_home_opened). */
export function registerHomeEvents(_app: App, _deps: SlackDeps): void {}
