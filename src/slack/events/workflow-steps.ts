import type { AllMiddlewareArgs, App, SlackEventMiddlewareArgs } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import { executeSend } from '../../sending/send.js';
import { parseRecipients } from '../../sms/index.js';
import { postCard } from '../delivery-cards.js';
import type { SlackDeps } from '../deps.js';
import { userMessageFor } from '../errors.js';
import { roleOf, satisfies, sendPolicyOf } from '../permissions.js';
import { defaultSender, knownSender, threadAnswerDraft } from '../thread-answer.js';
import { STEP_GET_BALANCE, STEP_SEND_SMS, stepErrors } from '../ui/workflows.js';
import { workflowsState } from '../workflow-switch.js';

/** WORKFLOW_MAX_RECIPIENTS when unset. */
export const DEFAULT_WORKFLOW_MAX_RECIPIENTS = 10;

type StepArgs = SlackEventMiddlewareArgs<'function_executed'> & AllMiddlewareArgs;
type StepEvent = StepArgs['event'];

/** The step ends in error with a sentence its author can act on; refusals go to the audit log. */
class StepRefusal extends Error {}

/**
 * A redelivery of a run whose own gateway call is still in flight: that run ends the step (with the MessageId, or
 * its error). Ending it here in error would tell the author nothing went out while the SMS is on its way, and a
 * completed step cannot be completed again, so the first run's success would be lost.
 */
class StepLeftToFirstRun extends Error {}

function text(value: unknown): string {
  if (Array.isArray(value)) return value.map((v) => String(v)).join('\n');
  return typeof value === 'string' ? value : value === undefined || value === null ? '' : String(value);
}

/**
 * Ends the step. Bolt gives the listener a client holding the execution's own token (the event's
 * bot_access_token, attachFunctionToken), which Slack issues for this one run: it is the one that completes it.
 */
async function finish(
  deps: SlackDeps,
  client: WebClient,
  event: StepEvent,
  end: { outputs: Record<string, unknown> } | { error: string },
): Promise<void> {
  const function_execution_id = event.function_execution_id;
  try {
    if ('outputs' in end)
      await client.functions.completeSuccess({ function_execution_id, outputs: end.outputs });
    else await client.functions.completeError({ function_execution_id, error: end.error });
  } catch (error) {
    deps.logger.warn(
      { step: event.function.callback_id, execution: function_execution_id, err: (error as Error).message },
      'workflow step could not be completed in Slack',
    );
  }
}

async function audit(
  deps: SlackDeps,
  event: StepEvent,
  user: string,
  outcome: string,
  details: Record<string, string | number | null>,
): Promise<void> {
  await deps.store.audit.append({
    actor: user || 'workflow',
    action: 'workflow_step',
    target: event.workflow_execution_id,
    details: {
      step: event.function.callback_id,
      workflow: event.workflow_execution_id,
      execution: event.function_execution_id,
      user: user || null,
      outcome,
      ...details,
    },
    at: deps.now(),
  });
}

/** Inputs of *Send an SMS*: recipients, message, sender (optional), user (on whose behalf). */
async function sendStep(
  deps: SlackDeps,
  client: WebClient,
  event: StepEvent,
): Promise<Record<string, unknown>> {
  const inputs = (event.inputs ?? {}) as Record<string, unknown>;
  const user = text(inputs.user).trim();
  if (!(await workflowsState(deps)).on) throw new StepRefusal(stepErrors.off());
  if (!/^[UW][A-Z0-9]+$/.test(user)) throw new StepRefusal(stepErrors.noUser());
  const role = await roleOf(deps, user);
  if (!satisfies(role, 'sender')) throw new StepRefusal(stepErrors.role(user, role));
  const recipientsText = text(inputs.recipients);
  const parsed = parseRecipients(recipientsText, deps.settings.defaultCountry);
  const count = new Set(parsed.recipients.map((r) => r.msisdn)).size;
  const cap = deps.settings.workflowMaxRecipients ?? DEFAULT_WORKFLOW_MAX_RECIPIENTS;
  if (count === 0 && parsed.invalid.length === 0) throw new StepRefusal(stepErrors.noRecipients());
  if (count > cap) throw new StepRefusal(stepErrors.overCap(count, cap));
  const senders = await deps.gateway.getSenders();
  const asked = text(inputs.sender).trim();
  const sender = asked ? (knownSender(senders, asked) ?? asked) : defaultSender(senders);
  if (!sender) throw new StepRefusal(stepErrors.noSender());
  const draft = await threadAnswerDraft(deps, {
    msisdn: recipientsText,
    text: text(inputs.message),
    sender,
    senders,
  });
  if (!draft.ok) throw new StepRefusal(stepErrors.invalid(draft.errors));
  const outcome = await executeSend(
    { ...deps, policy: sendPolicyOf(deps) },
    {
      // Slack may deliver one execution twice: its id is the send's key, so it is sent once.
      idempotencyKey: `workflow:${event.function_execution_id}`,
      slackUser: user,
      // No channel: the send belongs to the person it runs for, and its card goes to their DM.
      channel: user,
      plan: draft.draft,
    },
  );
  if (outcome.kind === 'submitted') {
    // What went out: numbers that opted out since the step's draft are not counted.
    const row = (await deps.store.outbox.get(outcome.row.id).catch(() => undefined)) ?? outcome.row;
    // The SMS has gone: nothing after this may end the step in error, or its author would run it again.
    await audit(deps, event, user, 'sent', {
      messageId: outcome.messageId,
      recipients: row.recipientCount,
      outboxId: row.id,
    }).catch((error: unknown) =>
      deps.logger.warn(
        { outboxId: row.id, err: (error as Error).message },
        'workflow step audit entry not written',
      ),
    );
    // The person it ran for gets the delivery card in their DM (while the run's token still works).
    await postCard(deps, client, row).catch((error: unknown) =>
      deps.logger.warn({ outboxId: row.id, err: (error as Error).message }, 'delivery card not posted'),
    );
    deps.nudgeTracker(row.id);
    return { message_id: String(outcome.messageId), recipients: row.recipientCount };
  }
  if (outcome.kind === 'duplicate' && outcome.row.messageId) {
    return { message_id: outcome.row.messageId, recipients: outcome.row.recipientCount };
  }
  if (outcome.kind === 'duplicate' && outcome.row.state === 'pending') throw new StepLeftToFirstRun();
  throw new StepRefusal(stepErrors.outcome(outcome));
}

async function balanceStep(deps: SlackDeps): Promise<Record<string, unknown>> {
  if (!(await workflowsState(deps)).on) throw new StepRefusal(stepErrors.off());
  const balance = await deps.gateway.getBalance();
  return { usable: balance.usable, main: balance.main, limit: balance.limit };
}

/**
 * Runs one step after Bolt has acked the event (autoAcknowledge): the gateway is only called after the ack.
 * Success ends it with functions.completeSuccess and its outputs; any refusal or failure with
 * functions.completeError and a sentence the workflow's author can act on, and an audit entry.
 */
function stepHandler(
  deps: SlackDeps,
  run: (event: StepEvent, client: WebClient) => Promise<Record<string, unknown>>,
) {
  return async function handleWorkflowStep({ event, client }: StepArgs): Promise<void> {
    const user = text((event.inputs as Record<string, unknown> | undefined)?.user).trim();
    let end: { outputs: Record<string, unknown> } | { error: string };
    try {
      end = { outputs: await run(event, client) };
    } catch (error) {
      if (error instanceof StepLeftToFirstRun) {
        deps.logger.info(
          { step: event.function.callback_id, execution: event.function_execution_id },
          'workflow step delivered again while its send is in flight: left to the first run',
        );
        return;
      }
      const refused = error instanceof StepRefusal;
      const message = refused ? error.message : stepErrors.failed(userMessageFor(error));
      if (!refused) {
        deps.logger.warn(
          { step: event.function.callback_id, err: error instanceof Error ? error.message : String(error) },
          'workflow step failed',
        );
      }
      end = { error: message };
      await audit(deps, event, user, 'refused', { reason: message }).catch(() => undefined);
    }
    await finish(deps, client, event, end);
  };
}

export function registerWorkflowSteps(app: App, deps: SlackDeps): void {
  app.function(
    STEP_SEND_SMS,
    stepHandler(deps, (event, client) => sendStep(deps, client, event)),
  );
  app.function(
    STEP_GET_BALANCE,
    stepHandler(deps, () => balanceStep(deps)),
  );
}
