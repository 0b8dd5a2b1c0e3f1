import type { App } from '@slack/bolt';
import { onBlockAction } from '../action-routes.js';
import { ViewUpdates } from '../compose/view-updates.js';
import type { SlackDeps } from '../deps.js';
import { CAMPAIGN_ACTIONS } from '../ui/campaign.js';
import { CANCEL_CONFIRM_ACTION } from '../ui/cancel.js';
import { CARD_ACTIONS } from '../ui/card.js';
import { FIELD } from '../ui/compose.js';
import { FILE_PICK_ACTIONS, REJECTED_ROWS_ACTION } from '../ui/file-report.js';
import { GATEWAY_CHECK_ACTIONS } from '../ui/gateway-check.js';
import { SCHEDULE_FIELD } from '../ui/scheduled.js';
import { cancelConfirmHandler, cardCancelHandler, cardRefreshHandler } from './batch.js';
import { campaignCancelHandler, campaignRefreshHandler, campaignSendRestHandler } from './campaign.js';
import { estimateHandler, modeHandler, templateHandler } from './compose.js';
import { filePickHandler } from './file-pick.js';
import { checkGatewayHandler, confirmMatchHandler, markNotSentHandler } from './gateway-check.js';
import { registerInboundActions } from './inbound.js';
import { rejectedRowsHandler } from './rejected-rows.js';
import { registerReportActions } from './report.js';
import { registerScheduledActions } from './scheduled.js';
import { registerThreadAnswerActions } from './thread-answer.js';

export function register(app: App, deps: SlackDeps): void {
  // One queue for every compose change, so keystrokes, mode and template updates of a view never race.
  const updates = new ViewUpdates(deps.logger);
  const estimate = estimateHandler(deps, updates);
  for (const field of [
    FIELD.text,
    FIELD.recipients,
    FIELD.csv,
    FIELD.list,
    FIELD.encoding,
    SCHEDULE_FIELD.when,
  ]) {
    onBlockAction(app, field, estimate);
  }
  onBlockAction(app, FIELD.mode, modeHandler(deps, updates));
  onBlockAction(app, FIELD.template, templateHandler(deps, updates));
  onBlockAction(app, CARD_ACTIONS.refresh, cardRefreshHandler(deps));
  onBlockAction(app, CARD_ACTIONS.cancel, cardCancelHandler(deps));
  onBlockAction(app, CANCEL_CONFIRM_ACTION, cancelConfirmHandler(deps));
  onBlockAction(app, CARD_ACTIONS.checkGateway, checkGatewayHandler(deps));
  onBlockAction(app, GATEWAY_CHECK_ACTIONS.confirm, confirmMatchHandler(deps));
  onBlockAction(app, GATEWAY_CHECK_ACTIONS.notSent, markNotSentHandler(deps));
  onBlockAction(app, CAMPAIGN_ACTIONS.cancel, campaignCancelHandler(deps));
  onBlockAction(app, CAMPAIGN_ACTIONS.sendRest, campaignSendRestHandler(deps));
  onBlockAction(app, CAMPAIGN_ACTIONS.refresh, campaignRefreshHandler(deps));
  onBlockAction(app, REJECTED_ROWS_ACTION, rejectedRowsHandler(deps));
  const filePick = filePickHandler(deps);
  onBlockAction(app, FILE_PICK_ACTIONS.sheet, filePick);
  onBlockAction(app, FILE_PICK_ACTIONS.column, filePick);
  registerInboundActions(app, deps);
  registerThreadAnswerActions(app, deps);
  registerScheduledActions(app, deps);
  registerReportActions(app, deps);
}
