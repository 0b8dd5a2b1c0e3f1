import type { WebClient } from '@slack/web-api';
import type { ScheduledSendPort } from '../jobs/scheduled-sends.js';
import { requestOfScheduled } from '../sending/scheduled.js';
import { updateCard } from './delivery-cards.js';
import type { SlackDeps } from './deps.js';
import { sendAndShow } from './send-flow.js';

/** What the scheduled-sends job does in Slack: the send through the one entry point, and the held card. */
export function slackScheduledPort(deps: SlackDeps, client: WebClient): ScheduledSendPort {
  return {
    fire: async (row, dueBy) => {
      // One call into the entry point an immediate confirmed send uses; the claim inside decides who sends.
      const outcome = await sendAndShow(deps, client, requestOfScheduled(row, { dueBy }));
      return outcome.kind !== 'duplicate';
    },
    held: (row) => updateCard(deps, client, row),
  };
}
