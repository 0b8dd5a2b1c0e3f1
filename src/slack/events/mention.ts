import type { AllMiddlewareArgs, App, SlackEventMiddlewareArgs } from '@slack/bolt';
import type { SlackDeps } from '../deps.js';
import { userMessageFor } from '../errors.js';
import { roleOf, satisfies } from '../permissions.js';
import {
  conversationSender,
  mentionText,
  THREAD_ANSWER_TTL_MS,
  threadAnswerDraft,
  threadAnswerKey,
} from '../thread-answer.js';
import {
  type MentionProblem,
  mentionProblem,
  type ThreadMessage,
  threadAnswerPreview,
} from '../ui/thread-answer.js';

type MentionArgs = SlackEventMiddlewareArgs<'app_mention'> & AllMiddlewareArgs;

/** Claims in job_runs under this name: one preview per mention, whichever instance gets it and however often Slack retries. */
export const MENTION_JOB = 'app_mention';

/**
 * `@smsops <text>` in the thread of an inbound SMS conversation: its author alone sees the SMS it would send (text,
 * segments, cost) with Send and Cancel; nothing leaves before Send. Bolt acks the event before this runs. Slack
 * redelivers an event it thinks was not acked (X-Slack-Retry-Num): the claim on the mention's channel and ts makes
 * a redelivery do nothing, and the send's idempotency key is the same mention, so it can never send twice.
 */
export function mentionHandler(deps: SlackDeps) {
  return async function handleMention({ event, client, context }: MentionArgs): Promise<void> {
    const { channel, ts, user } = event;
    if (!user) return;
    // A mention that is not a message someone typed in the thread (a mention inside a canvas comes as
    // `document_mention`): never an answer to the SMS conversation, whatever thread_ts it carries.
    if (event.subtype) {
      deps.logger.info(
        { channel, ts, subtype: event.subtype },
        'mention with a subtype: not an answer in a thread',
      );
      return;
    }
    const threadTs = event.thread_ts;
    const owner = deps.sendLease?.owner ?? 'smsops';
    const tell = (message: ThreadMessage) =>
      client.chat.postEphemeral({
        channel,
        user,
        text: message.text,
        blocks: message.blocks,
        ...(threadTs ? { thread_ts: threadTs } : {}),
      });
    const explain = (problem: MentionProblem) => tell(mentionProblem(problem));
    try {
      if (!(await deps.store.jobRuns.claim(MENTION_JOB, `${channel}:${ts}`, owner, deps.now()))) {
        deps.logger.info(
          { channel, ts, retry: context.retryNum },
          'mention already handled: not answered again',
        );
        return;
      }
      if (!threadTs || threadTs === ts) return void (await explain({ kind: 'not-in-thread' }));
      const role = await roleOf(deps, user);
      if (!satisfies(role, 'sender')) return void (await explain({ kind: 'role', role }));
      const text = mentionText(event.text ?? '', context.botUserId);
      if (text === '') return void (await explain({ kind: 'empty' }));
      const numbers = await deps.store.inbound.numbersInThread(channel, threadTs);
      if (numbers.length === 0) return void (await explain({ kind: 'not-a-conversation' }));
      if (numbers.length > 1) return void (await explain({ kind: 'several-numbers', numbers }));
      const msisdn = numbers[0]!;
      const { sender, senders } = await conversationSender(deps, msisdn);
      const result = await threadAnswerDraft(deps, { msisdn, text, sender, senders });
      if (!result.ok) return void (await explain({ kind: 'invalid', errors: Object.values(result.errors) }));
      const key = threadAnswerKey(channel, ts);
      await deps.store.drafts.put(
        key,
        user,
        { draft: result.draft, channel, threadTs, to: msisdn } as unknown as Parameters<
          typeof deps.store.drafts.put
        >[2],
        new Date(deps.now().getTime() + THREAD_ANSWER_TTL_MS),
      );
      await tell(threadAnswerPreview(result.draft, msisdn, key, deps.settings.simulated));
    } catch (error) {
      deps.logger.warn(
        { channel, ts, err: error instanceof Error ? error.message : String(error) },
        'answer in the thread failed',
      );
      await explain({ kind: 'failed', sentence: userMessageFor(error) }).catch(() => undefined);
    }
  };
}

export function registerMentionEvents(app: App, deps: SlackDeps): void {
  app.event('app_mention', mentionHandler(deps));
}
