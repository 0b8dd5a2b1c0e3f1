import type { App } from '@slack/bolt';
import type { SlackDeps } from '../deps.js';

export function register(_app: App, _deps: SlackDeps): void {}
