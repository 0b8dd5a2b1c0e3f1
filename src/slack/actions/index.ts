import type { App } from '@slack/bolt';
import { ViewUpdates } from '../compose/view-updates.js';
import type { SlackDeps } from '../deps.js';
import { CAMPAIGN_ACTIONS } from '../ui/campaign.js';
import { CANCEL_CONFIRM_ACTION } from '../ui/cancel.js';
import { CARD_ACTIONS } from '../ui/card.js';
import { FIELD } from '../ui/compose.js';
import { REJECTED_ROWS_ACTION } from '../ui/file-report.js';
import { GATEWAY_CHECK_ACTIONS } from '../ui/gateway-check.js';
import { cancelConfirmHandler, cardCancelHandler, cardRefreshHandler } from './batch.js';
import { campaignCancelHandler, campaignRefreshHandler, campaignSendRestHandler } from './campaign.js';
import { estimateHandler, modeHandler, templateHandler } from './compose.js';
import { checkGatewayHandler, confirmMatchHandler, markNotSentHandler } from './gateway-check.js';
import { registerInboundActions } from './inbound.js';
import { rejectedRowsHandler } from './rejected-rows.js';
import { registerScheduledActions } from './scheduled.js';
import { registerThreadAnswerActions } from './thread-answer.js';

export function register(app: App, deps: SlackDeps): void {
  // One queue for every compose change, so keystrokes, mode and template updates of a view never race.
  const updates = new ViewUpdates(deps.logger);
  const estimate = estimateHandler(deps, updates);
  for (const field of [FIELD.text, FIELD.recipients, FIELD.csv, FIELD.list, FIELD.encoding]) {
    app.action({ action_id: field, type: 'block_actions' }, estimate);
  }
  app.action({ action_id: FIELD.mode, type: 'block_actions' }, modeHandler(deps, updates));
  app.action({ action_id: FIELD.template, type: 'block_actions' }, templateHandler(deps, updates));
  app.action({ action_id: CARD_ACTIONS.refresh, type: 'block_actions' }, cardRefreshHandler(deps));
  app.action({ action_id: CARD_ACTIONS.cancel, type: 'block_actions' }, cardCancelHandler(deps));
  app.action({ action_id: CANCEL_CONFIRM_ACTION, type: 'block_actions' }, cancelConfirmHandler(deps));
  app.action({ action_id: CARD_ACTIONS.checkGateway, type: 'block_actions' }, checkGatewayHandler(deps));
  app.action({ action_id: GATEWAY_CHECK_ACTIONS.confirm, type: 'block_actions' }, confirmMatchHandler(deps));
  app.action({ action_id: GATEWAY_CHECK_ACTIONS.notSent, type: 'block_actions' }, markNotSentHandler(deps));
  app.action({ action_id: CAMPAIGN_ACTIONS.cancel, type: 'block_actions' }, campaignCancelHandler(deps));
  app.action({ action_id: CAMPAIGN_ACTIONS.sendRest, type: 'block_actions' }, campaignSendRestHandler(deps));
  app.action({ action_id: CAMPAIGN_ACTIONS.refresh, type: 'block_actions' }, campaignRefreshHandler(deps));
  app.action({ action_id: REJECTED_ROWS_ACTION, type: 'block_actions' }, rejectedRowsHandler(deps));
  registerInboundActions(app, deps);
  registerThreadAnswerActions(app, deps);
  registerScheduledActions(app, deps);
}
