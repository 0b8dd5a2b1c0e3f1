import { webApi } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import {
  ChannelUnavailable,
  type InboundPoster,
  PostFailed,
  PostRateLimited,
  type PostRequest,
  type PostTarget,
  type RelayItem,
} from '../jobs/inbound-poster.js';
import type { Logger } from '../log.js';
import { concealWebClient } from './conceal.js';
import {
  channelProblemText,
  INBOUND_POST_CAPACITY,
  inboundItemText,
  inboundPost,
} from './ui/inbound-post.js';

export interface SlackInboundPosterOptions {
  /** Best made with inboundWebClient(): 429s must reach the relay, which paces per channel. */
  client: WebClient;
  adminUserIds: readonly string[];
  reportTimeZone: string;
  simulated: boolean;
  logger: Logger;
}

/**
 * A WebClient for the relay alone. It hands 429s back instead of retrying them, because WebClient's own
 * retry pauses its whole queue while the relay can hold back just the one channel. It retries nothing
 * else either: a post whose reply was lost may have landed, and the relay (which retries at its next
 * poll, after giving the claim back) is the one place that decides, so the risk is taken once, not ten
 * times.
 */
export function inboundWebClient(
  token: string,
  options: { apiUrl?: string; timeoutMs?: number } = {},
): WebClient {
  const client = new webApi.WebClient(token, {
    ...(options.apiUrl ? { slackApiUrl: options.apiUrl } : {}),
    rejectRateLimitedCalls: true,
    retryConfig: { retries: 0 },
    // Short enough that a post in flight at shutdown ends within main's 9 s deadline.
    timeout: options.timeoutMs ?? 5_000,
    logLevel: webApi.LogLevel.ERROR,
  });
  return concealWebClient(client);
}

interface WebApiError {
  code?: string;
  retryAfter?: number;
  data?: { error?: string };
  statusCode?: number;
}

/** Posts that can never succeed until someone changes the channel. */
const CHANNEL_PROBLEMS = new Set([
  'not_in_channel',
  'channel_not_found',
  'is_archived',
  'method_not_supported_for_channel_type',
]);

export function createSlackInboundPoster(options: SlackInboundPosterOptions): InboundPoster {
  const { client, logger } = options;
  const view = { timeZone: options.reportTimeZone, simulated: options.simulated };
  /** Channels the admins heard about; forgotten when a post there works again. */
  const reported = new Set<string>();

  const report = async (channel: string, reason: string) => {
    if (reported.has(channel)) return;
    reported.add(channel);
    logger.warn({ channel, reason }, 'cannot post inbound SMS in a channel; telling the admins');
    for (const admin of options.adminUserIds) {
      await client.chat
        .postMessage({ channel: admin, text: channelProblemText(channel, reason) })
        .catch((error: unknown) =>
          logger.warn({ admin, err: (error as Error).message }, 'could not tell an admin about a channel'),
        );
    }
  };

  const send = async (target: PostTarget, request: PostRequest) => {
    const body = inboundPost(request, view);
    const result = await client.chat.postMessage({
      channel: target.channel,
      text: body.text,
      blocks: body.blocks,
      ...(target.threadTs ? { thread_ts: target.threadTs } : {}),
      unfurl_links: false,
      unfurl_media: false,
    });
    if (!result.ts) throw new PostFailed('Slack answered without a ts');
    return { ts: result.ts };
  };

  const translate = (error: unknown): Error => {
    const e = error as WebApiError;
    if (e.code === webApi.ErrorCode.RateLimitedError) return new PostRateLimited((e.retryAfter ?? 1) * 1000);
    if (e.code === webApi.ErrorCode.HTTPError && e.statusCode === 429) return new PostRateLimited(1000);
    const slackError = e.data?.error;
    if (slackError && CHANNEL_PROBLEMS.has(slackError)) return new ChannelUnavailable('', slackError);
    return new PostFailed(slackError ?? (error instanceof Error ? error.message : String(error)));
  };

  const deliver = async (target: PostTarget, request: PostRequest) => {
    const posted = await send(target, request);
    reported.delete(target.channel);
    return posted;
  };

  /** Undefined once joined; else why not. A refused join is the channel's problem, an outage is not. */
  const join = async (channel: string): Promise<Error | undefined> => {
    try {
      await client.conversations.join({ channel });
      return undefined;
    } catch (error) {
      const translated = translate(error);
      const refusal = (error as WebApiError).data?.error;
      return translated instanceof PostFailed && refusal ? new ChannelUnavailable('', refusal) : translated;
    }
  };

  return {
    capacity: INBOUND_POST_CAPACITY,
    size: (item: RelayItem) => inboundItemText(item, options.reportTimeZone).length,
    async post(target, request) {
      let failure: Error;
      try {
        return await deliver(target, request);
      } catch (error) {
        failure = translate(error);
      }
      if (failure instanceof ChannelUnavailable && failure.reason === 'not_in_channel') {
        // A public channel takes us in without anyone's help; a private one needs an invitation.
        const refused = await join(target.channel);
        if (refused) failure = refused;
        else {
          try {
            return await deliver(target, request);
          } catch (error) {
            failure = translate(error);
          }
        }
      }
      if (failure instanceof ChannelUnavailable) {
        await report(target.channel, failure.reason);
        throw new ChannelUnavailable(target.channel, failure.reason);
      }
      throw failure;
    },
  };
}
