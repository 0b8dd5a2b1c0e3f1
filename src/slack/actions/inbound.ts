import type { App } from '@slack/bolt';
import type { SlackDeps } from '../deps.js';

/** Buttons on inbound SMS posts (Reply). */
export function registerInboundActions(_app: App, _deps: SlackDeps): void {}
