import type { AllMiddlewareArgs, App, SlackEventMiddlewareArgs } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import { executeSend, type SendOutcome } from '../../sending/send.js';
import { parseRecipients } from '../../sms/index.js';
import { ensureBotCanPost } from '../conversation-access.js';
import { postCard } from '../delivery-cards.js';
import type { SlackDeps } from '../deps.js';
import { UserInputError, userMessageFor } from '../errors.js';
import { roleOf, satisfies, sendPolicyOf } from '../permissions.js';
import { defaultSender, knownSender, threadAnswerDraft } from '../thread-answer.js';
import { STEP_GET_BALANCE, STEP_SEND_SMS, stepErrors } from '../ui/workflows.js';
import { claimUnattendedSms, unattendedSteps, workflowsState } from '../workflow-switch.js';

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

/**
 * The audit names who acted: the person who started the workflow, or `workflow` for a step nobody started (with
 * the admin whose allowance it ran under). Never a user the step's inputs merely name.
 */
async function audit(
  deps: SlackDeps,
  event: StepEvent,
  authority: StepAuthority | undefined,
  outcome: string,
  details: Record<string, string | number | null>,
): Promise<void> {
  const starter = authority
    ? authority.unattended
      ? undefined
      : authority.slackUser
    : interactorOf(inputsOf(event));
  await deps.store.audit.append({
    actor: starter ?? 'workflow',
    action: 'workflow_step',
    target: event.workflow_execution_id,
    details: {
      step: event.function.callback_id,
      workflow: event.workflow_execution_id,
      execution: event.function_execution_id,
      user: starter ?? null,
      ...(authority?.unattended ? { allowedBy: authority.slackUser } : {}),
      outcome,
      ...details,
    },
    at: deps.now(),
  });
}

function inputsOf(event: StepEvent): Record<string, unknown> {
  return (event.inputs ?? {}) as Record<string, unknown>;
}

/**
 * The person Slack vouches for as having started the workflow: the `interactor` of a slack#/types/interactivity
 * input, which Slack fills and a workflow's author cannot type. A user_id input proves nothing (it is whatever the
 * author set) and is never read.
 */
export function interactorOf(inputs: Record<string, unknown>): string | undefined {
  const id = (inputs.interactivity as { interactor?: { id?: unknown } } | undefined)?.interactor?.id;
  return typeof id === 'string' && /^[UW][A-Z0-9]+$/.test(id) ? id : undefined;
}

/** On whose authority a step sends, and where its card goes. */
interface StepAuthority {
  /** The send's author: the person who started the workflow, or the admin who allowed unattended steps. */
  slackUser: string;
  /** Their DM, or the channel that sees every unattended send. */
  channel: string;
  unattended: boolean;
  /** SMS a day that unattended steps may send, for an unattended step. */
  dailyCap?: number;
}

/**
 * A person started the workflow: the step sends with their own rights, exactly as their `/sms send` would (the role
 * is checked here and again by the send path, with opt-outs and limits). Nobody did: only if an admin allowed such
 * steps, within that allowance's daily cap of SMS (each recipient takes one), while the bot can post the card in its
 * channel, on the authority of that admin while they stay one.
 */
async function authorityOf(
  deps: SlackDeps,
  botClient: WebClient,
  inputs: Record<string, unknown>,
): Promise<StepAuthority> {
  const starter = interactorOf(inputs);
  if (starter) {
    const role = await roleOf(deps, starter);
    if (!satisfies(role, 'sender')) throw new StepRefusal(stepErrors.role(starter, role));
    // No channel: the send belongs to the person it runs for, and its card goes to their DM.
    return { slackUser: starter, channel: starter, unattended: false };
  }
  const allowance = await unattendedSteps(deps);
  if (!allowance) throw new StepRefusal(stepErrors.noStarter());
  if (!satisfies(await roleOf(deps, allowance.by), 'admin'))
    throw new StepRefusal(stepErrors.unattendedLapsed(allowance.by));
  // Its card goes to that channel or nowhere: posted elsewhere, the send would go unseen by those meant to see it.
  try {
    await ensureBotCanPost(botClient, allowance.channel);
  } catch (error) {
    if (error instanceof UserInputError)
      throw new StepRefusal(stepErrors.unattendedChannel(allowance.channel));
    throw error;
  }
  return {
    slackUser: allowance.by,
    channel: allowance.channel,
    unattended: true,
    dailyCap: allowance.dailyCap,
  };
}

/**
 * An unattended step takes one place in the day's cap per recipient, only once its send is ready to go. What it
 * answers gives the places back, for a send that surely did not go out.
 */
async function claimPlaces(
  deps: SlackDeps,
  event: StepEvent,
  authority: StepAuthority,
  recipients: number,
): Promise<() => Promise<number>> {
  if (authority.dailyCap === undefined) return async () => 0;
  const claim = await claimUnattendedSms(deps, event.function_execution_id, recipients, authority.dailyCap);
  if (!claim.claimed)
    throw new StepRefusal(stepErrors.unattendedCap(recipients, claim.taken, authority.dailyCap));
  return claim.giveBack;
}

/**
 * Outcomes in which no SMS went out, for certain: refused by the checks at sending, rejected by the gateway, or
 * never sent. An unknown fate (a timeout after the request left) may have reached the gateway: its places stay.
 */
const NOTHING_SENT: ReadonlySet<SendOutcome['kind']> = new Set(['refused', 'rejected', 'not-sent']);

/** Inputs of *Send an SMS*: recipients, message, sender (optional), interactivity (who started the workflow). */
async function sendStep(
  deps: SlackDeps,
  botClient: WebClient,
  event: StepEvent,
): Promise<Record<string, unknown>> {
  const inputs = (event.inputs ?? {}) as Record<string, unknown>;
  if (!(await workflowsState(deps)).on) throw new StepRefusal(stepErrors.off());
  const recipientsText = text(inputs.recipients);
  const parsed = parseRecipients(recipientsText, deps.settings.defaultCountry);
  const count = new Set(parsed.recipients.map((r) => r.msisdn)).size;
  const cap = deps.settings.workflowMaxRecipients ?? DEFAULT_WORKFLOW_MAX_RECIPIENTS;
  if (count === 0 && parsed.invalid.length === 0) throw new StepRefusal(stepErrors.noRecipients());
  if (count > cap) throw new StepRefusal(stepErrors.overCap(count, cap));
  const authority = await authorityOf(deps, botClient, inputs);
  const user = authority.slackUser;
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
  // After every check of the input itself: an unattended step's places in the daily cap are taken only for a send.
  const giveBack = await claimPlaces(deps, event, authority, count);
  const outcome = await executeSend(
    { ...deps, policy: sendPolicyOf(deps) },
    {
      // Slack may deliver one execution twice: its id is the send's key, so it is sent once.
      idempotencyKey: `workflow:${event.function_execution_id}`,
      slackUser: user,
      channel: authority.channel,
      plan: draft.draft,
    },
  );
  if (outcome.kind === 'submitted') {
    // What went out: numbers that opted out since the step's draft are not counted.
    const row = (await deps.store.outbox.get(outcome.row.id).catch(() => undefined)) ?? outcome.row;
    // The SMS has gone: nothing after this may end the step in error, or its author would run it again.
    await audit(deps, event, authority, 'sent', {
      messageId: outcome.messageId,
      recipients: row.recipientCount,
      outboxId: row.id,
    }).catch((error: unknown) =>
      deps.logger.warn(
        { outboxId: row.id, err: (error as Error).message },
        'workflow step audit entry not written',
      ),
    );
    // With the bot's token, not the run's: Slack ends that token with the run, and the card's updates and buttons
    // (Refresh, Cancel) must keep working after it.
    await postCard(deps, botClient, row).catch((error: unknown) =>
      deps.logger.warn({ outboxId: row.id, err: (error as Error).message }, 'delivery card not posted'),
    );
    deps.nudgeTracker(row.id);
    return { message_id: String(outcome.messageId), recipients: row.recipientCount };
  }
  if (outcome.kind === 'duplicate' && outcome.row.messageId) {
    return { message_id: outcome.row.messageId, recipients: outcome.row.recipientCount };
  }
  if (outcome.kind === 'duplicate' && outcome.row.state === 'pending') throw new StepLeftToFirstRun();
  // Slack delivering a refused run again claims places anew: its send, a duplicate of one that did not go out,
  // gives them back too.
  const refusedBefore =
    outcome.kind === 'duplicate' && outcome.row.state === 'failed' && !outcome.row.messageId;
  if (NOTHING_SENT.has(outcome.kind) || refusedBefore) {
    // The step ends in error all the same: a store blip here costs places, never an SMS.
    await giveBack().catch((error: unknown) =>
      deps.logger.warn(
        { execution: event.function_execution_id, err: (error as Error).message },
        'unattended places not given back',
      ),
    );
  }
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
      await audit(deps, event, undefined, 'refused', { reason: message }).catch(() => undefined);
    }
    await finish(deps, client, event, end);
  };
}

export function registerWorkflowSteps(app: App, deps: SlackDeps): void {
  // app.client holds the bot token; the listener's client holds the run's, which completes the step and no more.
  app.function(
    STEP_SEND_SMS,
    stepHandler(deps, (event) => sendStep(deps, app.client, event)),
  );
  app.function(
    STEP_GET_BALANCE,
    stepHandler(deps, () => balanceStep(deps)),
  );
}
