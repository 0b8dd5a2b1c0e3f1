import type { App } from '@slack/bolt';
import type { SlackDeps } from '../deps.js';
import type { SubcommandName } from './catalogue.js';
import type { SubcommandHandler } from './context.js';
import { DIGEST_HANDLERS } from './digests.js';
import { FORGET_HANDLERS } from './forget.js';
import { helpCommand } from './help.js';
import { LIST_HANDLERS } from './lists.js';
import { LOOKUP_HANDLERS } from './lookups.js';
import { OPTOUT_HANDLERS } from './optouts.js';
import { REPORT_HANDLERS } from './report.js';
import { ROLE_HANDLERS } from './roles.js';
import { SCHEDULED_HANDLERS } from './scheduled.js';
import { cancelCommand, sendCommand, statusCommand } from './send.js';
import { smsCommandHandler } from './sms.js';
import { SUBSCRIPTION_HANDLERS } from './subscriptions.js';
import { TEMPLATE_HANDLERS } from './templates.js';
import { WORKFLOW_HANDLERS } from './workflows.js';

/**
 * Every subcommand's handler, exactly one per catalogue entry (a missing one fails the typecheck); the router
 * checks the catalogue's role before calling one.
 */
export const SUBCOMMAND_HANDLERS: Record<SubcommandName, SubcommandHandler> = {
  help: helpCommand,
  send: sendCommand,
  status: statusCommand,
  cancel: cancelCommand,
  ...LOOKUP_HANDLERS,
  ...ROLE_HANDLERS,
  ...OPTOUT_HANDLERS,
  ...FORGET_HANDLERS,
  ...LIST_HANDLERS,
  ...TEMPLATE_HANDLERS,
  ...SUBSCRIPTION_HANDLERS,
  ...DIGEST_HANDLERS,
  ...WORKFLOW_HANDLERS,
  ...SCHEDULED_HANDLERS,
  ...REPORT_HANDLERS,
};

export function register(app: App, deps: SlackDeps): void {
  app.command('/sms', smsCommandHandler(deps, SUBCOMMAND_HANDLERS));
}
