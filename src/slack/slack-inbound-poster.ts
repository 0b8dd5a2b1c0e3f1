import { webApi } from '@slack/bolt';
import type { FetchFunction, WebClient } from '@slack/web-api';
import {
  ChannelUnavailable,
  type InboundPoster,
  PostFailed,
  PostRateLimited,
  PostRefused,
  type PostRequest,
  type PostTarget,
  type RelayItem,
} from '../jobs/inbound-poster.js';
import type { Logger } from '../log.js';
import { concealWebClient } from './conceal.js';
import {
  channelProblemText,
  INBOUND_POST_CAPACITY,
  inboundItemSize,
  inboundPost,
  postRefusedText,
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
  options: { apiUrl?: string; timeoutMs?: number; fetch?: FetchFunction } = {},
): WebClient {
  const client = new webApi.WebClient(token, {
    ...(options.apiUrl ? { slackApiUrl: options.apiUrl } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
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
  // Posting in the channel is limited to some members (Slack's channel posting permissions).
  'restricted_action',
]);

/** Refusals of the post itself: sending the same post again can never succeed. */
const POST_REFUSALS = new Set([
  'msg_blocks_too_long',
  'msg_too_long',
  'invalid_blocks',
  'invalid_blocks_format',
  'invalid_attachments',
  'too_many_attachments',
  'no_text',
  'invalid_arguments',
]);

export function createSlackInboundPoster(options: SlackInboundPosterOptions): InboundPoster {
  const { client, logger } = options;
  const view = { timeZone: options.reportTimeZone, simulated: options.simulated };
  /** Channels the admins heard about; forgotten when a post there works again. */
  const reported = new Set<string>();
  /** Refusals the admins heard about, by channel and reason: told once, however many posts it refuses. */
  const refusalsReported = new Set<string>();

  const tellAdmins = async (text: string) => {
    for (const admin of options.adminUserIds) {
      await client.chat
        .postMessage({ channel: admin, text })
        .catch((error: unknown) =>
          logger.warn({ admin, err: (error as Error).message }, 'could not tell an admin about a channel'),
        );
    }
  };

  const report = async (channel: string, reason: string) => {
    if (reported.has(channel)) return;
    reported.add(channel);
    logger.warn({ channel, reason }, 'cannot post inbound SMS in a channel; telling the admins');
    await tellAdmins(channelProblemText(channel, reason));
  };

  const reportRefusal = async (channel: string, reason: string) => {
    const key = `${channel} ${reason}`;
    if (refusalsReported.has(key)) return;
    refusalsReported.add(key);
    await tellAdmins(postRefusedText(channel, reason));
  };

  /**
   * A reply to a thread whose parent was deleted never shows in Slack, so the parent is looked up first
   * (chat.getPermalink needs no scope); only a clear message_not_found counts as gone.
   */
  const threadGone = async (channel: string, threadTs: string): Promise<boolean> => {
    try {
      await client.chat.getPermalink({ channel, message_ts: threadTs });
      return false;
    } catch (error) {
      return (error as WebApiError).data?.error === 'message_not_found';
    }
  };

  const send = async (target: PostTarget, request: PostRequest) => {
    const restarted = target.threadTs !== undefined && (await threadGone(target.channel, target.threadTs));
    const body = inboundPost(restarted ? { ...request, threadRestarted: true } : request, view);
    const threadTs = restarted ? undefined : target.threadTs;
    const result = await client.chat.postMessage({
      channel: target.channel,
      text: body.text,
      blocks: body.blocks,
      ...(threadTs ? { thread_ts: threadTs } : {}),
      unfurl_links: false,
      unfurl_media: false,
    });
    if (!result.ts) throw new PostFailed('Slack answered without a ts');
    return { ts: result.ts, ...(restarted ? { threadRestarted: true } : {}) };
  };

  const translate = (error: unknown): Error => {
    const e = error as WebApiError;
    if (e.code === webApi.ErrorCode.RateLimitedError) return new PostRateLimited((e.retryAfter ?? 1) * 1000);
    if (e.code === webApi.ErrorCode.HTTPError && e.statusCode === 429) return new PostRateLimited(1000);
    const slackError = e.data?.error;
    if (slackError && CHANNEL_PROBLEMS.has(slackError)) return new ChannelUnavailable('', slackError);
    if (slackError && POST_REFUSALS.has(slackError)) return new PostRefused(slackError);
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
    size: (item: RelayItem) => inboundItemSize(item, options.reportTimeZone),
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
      if (failure instanceof PostRefused) await reportRefusal(target.channel, failure.reason);
      throw failure;
    },
  };
}
