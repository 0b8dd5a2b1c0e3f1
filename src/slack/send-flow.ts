import type { WebClient } from '@slack/web-api';
import { executeSend, type SendOutcome, type SendRequest } from '../sending/send.js';
import { postCard, updateCard } from './delivery-cards.js';
import type { SlackDeps } from './deps.js';
import { sendPolicyOf } from './permissions.js';

/**
 * The one entry point of a confirmed send made from Slack: the compose modal's Send (or its confirmation),
 * and a scheduled send when it is due or when someone presses its Send now. It runs the one send path
 * (executeSend: checks at sending, outbox, one gateway call), then shows the result on the send's card:
 * posted for a new send that went (or may have gone), brought up to date when the send already has one
 * (a scheduled send's card says what happened, a refusal included). `beforeCard` lets the modal show the
 * outcome first. A repeated request (`duplicate`) changes no card.
 */
export async function sendAndShow(
  deps: SlackDeps,
  client: WebClient,
  request: SendRequest,
  beforeCard?: (outcome: SendOutcome) => Promise<void>,
): Promise<SendOutcome> {
  const outcome = await executeSend({ ...deps, policy: sendPolicyOf(deps) }, request);
  if (beforeCard) await beforeCard(outcome);
  if (outcome.kind === 'duplicate') return outcome;
  const row = (await deps.store.outbox.get(outcome.row.id).catch(() => undefined)) ?? outcome.row;
  const goes = outcome.kind === 'submitted' || outcome.kind === 'unknown';
  if (row.messageTs || goes) {
    // A send taken for abandoned while its reply was slow, or a scheduled one, already has its card.
    const shown = row.messageTs
      ? updateCard(deps, client, row)
      : postCard(deps, client, row, request.threadTs);
    await shown.catch((error: unknown) =>
      deps.logger.warn(
        { outboxId: row.id, err: error instanceof Error ? error.message : String(error) },
        'delivery card not posted',
      ),
    );
  }
  if (outcome.kind === 'submitted') deps.nudgeTracker(row.id);
  return outcome;
}
