import type { App } from '@slack/bolt';
import type { SlackDeps } from '../deps.js';
import { ADMIN_HANDLERS } from './admin.js';
import type { SubcommandHandler } from './context.js';
import { DIGEST_HANDLERS } from './digests.js';
import { LOOKUP_HANDLERS } from './lookups.js';
import { cancelCommand, sendCommand, statusCommand } from './send.js';
import { smsCommandHandler } from './sms.js';
import { SUBSCRIPTION_HANDLERS } from './subscriptions.js';

/** Every subcommand's handler; the router checks the catalogue's role before calling one. */
export const SUBCOMMAND_HANDLERS: Record<string, SubcommandHandler> = {
  send: sendCommand,
  status: statusCommand,
  cancel: cancelCommand,
  ...LOOKUP_HANDLERS,
  ...ADMIN_HANDLERS,
  ...SUBSCRIPTION_HANDLERS,
  ...DIGEST_HANDLERS,
};

export function register(app: App, deps: SlackDeps): void {
  app.command('/sms', smsCommandHandler(deps, SUBCOMMAND_HANDLERS));
}
