import type { BlockAction, RespondFn } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import type { Logger } from '../log.js';
import { tellUser } from './actions/batch.js';
import { failureNoticeFor } from './errors.js';

/**
 * Tells the user who clicked a button, privately, that what they asked for failed, when its listener threw
 * after the ack without telling them itself (the database went away between two steps, a bug): without it
 * the click looks ignored, and on a Cancel that is worse than an error. Only button clicks: commands tell
 * their own failures (commands/sms.ts), and a modal's or an event's failure has no one place to answer in.
 * Answered as the listeners answer (tellUser); Bolt's error handler has no `respond`, so the click's
 * response_url is posted to here. Best effort: a failure to tell is logged, never thrown.
 */
export async function tellClickFailed(
  body: unknown,
  error: unknown,
  deps: { client: WebClient; logger: Logger },
): Promise<void> {
  const click = body as Partial<BlockAction> | undefined;
  if (click?.type !== 'block_actions' || typeof click.user?.id !== 'string') return;
  const text = failureNoticeFor(error);
  if (!text) return;
  const responseUrl = click.response_url;
  const respond: RespondFn | undefined = responseUrl
    ? async (message) => {
        const answer = await fetch(responseUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json; charset=utf-8' },
          body: JSON.stringify(message),
          signal: AbortSignal.timeout(10_000),
        });
        await answer.arrayBuffer();
        if (!answer.ok) throw new Error(`response_url answered HTTP ${answer.status}`);
        return answer;
      }
    : undefined;
  try {
    await tellUser({ body: click as BlockAction, client: deps.client, respond }, text);
  } catch (failure) {
    deps.logger.warn(
      { err: failure instanceof Error ? failure.message : String(failure) },
      'could not tell the user that their click failed',
    );
  }
}
