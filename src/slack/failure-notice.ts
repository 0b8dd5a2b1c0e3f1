import type { WebClient } from '@slack/web-api';
import type { Logger } from '../log.js';
import { failureNoticeFor } from './errors.js';

interface ClickBody {
  type?: unknown;
  response_url?: unknown;
  user?: { id?: unknown };
  channel?: { id?: unknown };
}

/**
 * Tells the user who clicked a button, privately, that what they asked for failed, when its listener threw
 * after the ack without telling them itself (the database went away between two steps, a bug): without it
 * the click looks ignored, and on a Cancel that is worse than an error. Only button clicks: commands tell
 * their own failures (commands/sms.ts), and a modal's or an event's failure has no one place to answer in.
 * Best effort: a failure to tell is logged, never thrown.
 */
export async function tellClickFailed(
  body: unknown,
  error: unknown,
  deps: { client: WebClient; logger: Logger },
): Promise<void> {
  const click = body as ClickBody | undefined;
  if (click?.type !== 'block_actions') return;
  const text = failureNoticeFor(error);
  const user = typeof click.user?.id === 'string' ? click.user.id : undefined;
  if (!text || !user) return;
  const responseUrl = typeof click.response_url === 'string' ? click.response_url : undefined;
  const channel = typeof click.channel?.id === 'string' ? click.channel.id : undefined;
  try {
    if (responseUrl) {
      const answer = await fetch(responseUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json; charset=utf-8' },
        body: JSON.stringify({ response_type: 'ephemeral', replace_original: false, text }),
        signal: AbortSignal.timeout(10_000),
      });
      await answer.arrayBuffer();
      if (!answer.ok) throw new Error(`response_url answered HTTP ${answer.status}`);
    } else if (channel) {
      await deps.client.chat.postEphemeral({ channel, user, text });
    }
  } catch (failure) {
    deps.logger.warn(
      { err: failure instanceof Error ? failure.message : String(failure) },
      'could not tell the user that their click failed',
    );
  }
}
