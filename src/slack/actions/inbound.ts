import type { AllMiddlewareArgs, App, BlockAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import { formatForPeople } from '../../sms/index.js';
import { onBlockAction } from '../action-routes.js';
import { openCompose } from '../compose/open.js';
import type { SlackDeps } from '../deps.js';
import { userMessageFor } from '../errors.js';
import { allowed, denialText, roleOf } from '../permissions.js';
import { INBOUND_REPLY_ACTION, parseReplyValue } from '../ui/inbound-post.js';
import { quotedSmsOf, replyingToText } from '../ui/reply-context.js';

type ActionArgs = SlackActionMiddlewareArgs<BlockAction> & AllMiddlewareArgs;

async function tellUser(args: ActionArgs, text: string): Promise<void> {
  if (args.respond && args.body.response_url !== undefined) {
    await args.respond({ response_type: 'ephemeral', replace_original: false, text });
  }
}

/**
 * Reply: the compose modal, prefilled with the number, and with the number it wrote to as the sender
 * when that is one of ours (openCompose keeps only known senders), the SMS being answered shown above. The delivery card goes into the
 * post's thread, where the conversation is.
 */
export function replyHandler(deps: SlackDeps) {
  return async function handleInboundReply(args: ActionArgs): Promise<void> {
    await args.ack();
    const { body } = args;
    const userId = body.user.id;
    const target = parseReplyValue((args.action as { value?: string }).value);
    const channel = body.channel?.id;
    if (!target || !channel) return;
    try {
      if (!(await allowed(deps, userId, 'sender'))) {
        await tellUser(args, denialText('sender', await roleOf(deps, userId)));
        return;
      }
      const message = body.message as
        | { ts?: string; thread_ts?: string; blocks?: { block_id?: string; text?: { text?: string } }[] }
        | undefined;
      const threadTs = message?.thread_ts ?? message?.ts;
      const blockId = (args.action as { block_id?: string }).block_id;
      const section = message?.blocks?.find((b) => b.block_id === blockId);
      await openCompose(
        deps,
        args.client,
        body.trigger_id,
        { channel, ...(threadTs ? { threadTs } : {}) },
        {
          recipients: formatForPeople(target.msisdn),
          sender: target.recipient || undefined,
          replyingTo: replyingToText(target.msisdn, quotedSmsOf(section?.text?.text)),
        },
        userId,
      );
    } catch (error) {
      deps.logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'reply failed');
      await tellUser(args, userMessageFor(error)).catch(() => undefined);
    }
  };
}

/** Buttons on inbound SMS posts (Reply). */
export function registerInboundActions(app: App, deps: SlackDeps): void {
  onBlockAction(app, INBOUND_REPLY_ACTION, replyHandler(deps));
}
