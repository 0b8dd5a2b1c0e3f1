import { GatewayError, GatewayRejected, GatewayUnavailable } from '../gateway/index.js';
import { scrubSecrets } from '../secrets.js';
import { escapeMrkdwn } from './ui/format.js';

/** A mistake of the user's, with the message to show them as it is. */
export class UserInputError extends Error {
  override readonly name = 'UserInputError';
}

/** A failure of a Slack Web API call (refused, rate limited, unreachable), as @slack/web-api reports it. */
export function isSlackApiError(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && code.startsWith('slack_webapi_');
}

/** The error code when it was Slack's Web API that refused a call (`invalid_arguments`, `expired_trigger_id`, …). */
export function slackRefusalOf(error: unknown): string | undefined {
  const e = error as { code?: string; data?: { error?: string } } | undefined;
  return e?.code === 'slack_webapi_platform_error' ? e.data?.error : undefined;
}

/** Turns any failure into one sentence a person can act on; never a stack trace or a secret. */
export function userMessageFor(error: unknown): string {
  return scrubSecrets(sentenceFor(error));
}

function sentenceFor(error: unknown): string {
  if (error instanceof UserInputError) return `:warning: ${error.message}`;
  if (error instanceof GatewayRejected) {
    return `:x: The SMS gateway refused: ${escapeMrkdwn(error.description || 'no reason given')} (code ${error.code}).`;
  }
  if (error instanceof GatewayUnavailable) {
    const why =
      error.reason === 'timeout'
        ? 'did not answer in time'
        : error.reason === 'refused' || error.reason === 'dns' || error.reason === 'connect-timeout'
          ? 'cannot be reached'
          : error.reason === 'http-status'
            ? `answered with an error (HTTP ${error.httpStatus ?? '?'})`
            : 'answered with something unreadable';
    return `:hourglass: The SMS gateway ${why}. Nothing was changed; try again in a minute.`;
  }
  if (error instanceof GatewayError) return `:x: ${escapeMrkdwn(error.message)}`;
  return ':boom: Something went wrong on our side. It has been logged; try again, and tell an admin if it persists.';
}
