import { GatewayError, GatewayRejected, GatewayUnavailable } from '../gateway/index.js';
import { scrubSecrets } from '../secrets.js';
import { StoreUnavailableError } from '../store/index.js';
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

/** The operations that change something at the gateway: cut off, they may have been done. */
const SENDS: ReadonlySet<string> = new Set(['Submit', 'SubmitMulti', 'Cancel']);

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
    // A stopping bot refuses new gateway calls and abandons those still waiting (GatewayClient.close).
    if (error.reason === 'closing') {
      if (!error.sentMaybe)
        return ':hourglass: smsops is stopping: nothing was sent to the SMS gateway. Try again in a minute.';
      return SENDS.has(error.operation)
        ? ':hourglass: smsops stopped before the SMS gateway answered: it may have been done. Check before you try again.'
        : ':hourglass: smsops is stopping and stopped waiting for the SMS gateway. Try again in a minute.';
    }
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

/** What a listener threw, out of the wrapper Bolt puts around an error without a code. */
function originalOf(error: unknown): unknown {
  const e = error as { code?: unknown; original?: unknown } | undefined;
  return e?.code === 'slack_bolt_unknown_error' && e.original !== undefined ? e.original : error;
}

/** Bolt's codes for failures of Slack itself: a request it could not authorise, a response_url that refused. */
const SLACK_SIDE_CODES = new Set(['slack_bolt_authorization_error', 'slack_bolt_respond_error']);

/**
 * For a click whose handler failed after Slack's ack, with nobody told: it may have been done in part (a
 * cancel at the gateway, then the audit write failed, before the card was updated), so the user is asked to
 * refresh the card before trying again, not to trust it as it stands. Undefined for failures there is no point
 * in telling: Slack's own refusals (telling goes through Slack too; a response_url that refused the last
 * answer of a click that worked would have it called a failure) and a request Bolt could not authorise.
 */
export function failureNoticeFor(error: unknown): string | undefined {
  const original = originalOf(error);
  if (isSlackApiError(original)) return undefined;
  const code = (original as { code?: unknown } | undefined)?.code;
  if (typeof code === 'string' && SLACK_SIDE_CODES.has(code)) return undefined;
  const look = 'press Refresh on the card (or `/sms status`) before you try again';
  if (original instanceof StoreUnavailableError) {
    return `:boom: smsops could not reach its database just now, so this may not have been done, or done without the card showing it yet: ${look}, and tell an admin if it persists.`;
  }
  return `:boom: Something went wrong on our side, so this may not have been done, or done without the card showing it yet. It has been logged: ${look}, and tell an admin if it persists.`;
}
