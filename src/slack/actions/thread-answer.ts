import type { AllMiddlewareArgs, App, BlockAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import { executeSend, type SendOutcome } from '../../sending/send.js';
import { onBlockAction } from '../action-routes.js';
import type { Draft } from '../compose/draft.js';
import { postCard } from '../delivery-cards.js';
import type { SlackDeps } from '../deps.js';
import { userMessageFor } from '../errors.js';
import { roleOf, sendPolicyOf } from '../permissions.js';
import {
  THREAD_ANSWER_CANCEL,
  THREAD_ANSWER_SEND,
  type ThreadMessage,
  threadAnswerCancelled,
  threadAnswerGone,
  threadAnswerOutcome,
} from '../ui/thread-answer.js';

type ActionArgs = SlackActionMiddlewareArgs<BlockAction> & AllMiddlewareArgs;

interface StoredAnswer {
  draft: Draft;
  channel: string;
  threadTs: string;
  to: string;
}

/** The preview is ephemeral: only its response_url can replace it. */
async function replacePreview(args: ActionArgs, message: ThreadMessage): Promise<void> {
  if (!args.body.response_url) return;
  await args.respond({ response_type: 'ephemeral', replace_original: true, ...message });
}

function keyOf(args: ActionArgs): string | undefined {
  const value = (args.action as { value?: string }).value;
  return value?.startsWith('mention:') ? value : undefined;
}

/**
 * Send: the draft is taken from the store (of two clicks only one gets it), then the one send path with the
 * mention as idempotency key: roles, opt-outs and limits checked again at that moment. The delivery card goes
 * into the thread; the preview says what happened.
 */
export function threadAnswerSendHandler(deps: SlackDeps) {
  return async function handleThreadAnswerSend(args: ActionArgs): Promise<void> {
    await args.ack();
    const key = keyOf(args);
    const userId = args.body.user.id;
    if (!key) return;
    try {
      const found = await deps.store.drafts.get(key, deps.now());
      if (!found || found.owner !== userId) return void (await replacePreview(args, threadAnswerGone()));
      const taken = await deps.store.drafts.take(key, deps.now());
      if (!taken) return void (await replacePreview(args, threadAnswerGone()));
      const stored = taken.payload as unknown as StoredAnswer;
      const outcome: SendOutcome = await executeSend(
        { ...deps, policy: sendPolicyOf(deps) },
        {
          idempotencyKey: key,
          slackUser: userId,
          channel: stored.channel,
          threadTs: stored.threadTs,
          plan: stored.draft,
        },
      );
      const role = outcome.kind === 'refused' ? await roleOf(deps, userId) : undefined;
      await replacePreview(args, threadAnswerOutcome(outcome, role));
      if (outcome.kind === 'submitted' || outcome.kind === 'unknown') {
        const row = (await deps.store.outbox.get(outcome.row.id)) ?? outcome.row;
        // Sent: a card Slack refuses is logged, never reported as a failed send (the tracker retries it later).
        if (!row.messageTs) {
          await postCard(deps, args.client, row, stored.threadTs).catch((error: unknown) =>
            deps.logger.warn({ outboxId: row.id, err: (error as Error).message }, 'delivery card not posted'),
          );
        }
        if (outcome.kind === 'submitted') deps.nudgeTracker(row.id);
      }
    } catch (error) {
      deps.logger.warn(
        { err: error instanceof Error ? error.message : String(error) },
        'answer in the thread not sent',
      );
      await replacePreview(args, { text: userMessageFor(error), blocks: [] }).catch(() => undefined);
    }
  };
}

export function threadAnswerCancelHandler(deps: SlackDeps) {
  return async function handleThreadAnswerCancel(args: ActionArgs): Promise<void> {
    await args.ack();
    const key = keyOf(args);
    if (!key) return;
    const found = await deps.store.drafts.get(key, deps.now()).catch(() => undefined);
    if (found && found.owner === args.body.user.id) await deps.store.drafts.delete(key).catch(() => false);
    await replacePreview(args, found ? threadAnswerCancelled() : threadAnswerGone()).catch(() => undefined);
  };
}

export function registerThreadAnswerActions(app: App, deps: SlackDeps): void {
  onBlockAction(app, THREAD_ANSWER_SEND, threadAnswerSendHandler(deps));
  onBlockAction(app, THREAD_ANSWER_CANCEL, threadAnswerCancelHandler(deps));
}
