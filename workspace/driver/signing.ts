import { createHmac } from 'node:crypto';

/** How to sign a request: correctly, or in one of the ways Bolt must refuse with 401. */
export type Signing = 'valid' | 'bad-signature' | 'stale-timestamp' | 'unsigned';

/** Bolt refuses timestamps more than 5 minutes old; 6 is comfortably past that. */
const STALE_BY_SEC = 6 * 60;

/** Slack's v0 scheme: HMAC-SHA256 over `v0:{timestamp}:{raw body}` with the app's signing secret. */
export function slackSignature(signingSecret: string, timestampSec: number, rawBody: string): string {
  return `v0=${createHmac('sha256', signingSecret).update(`v0:${timestampSec}:${rawBody}`).digest('hex')}`;
}

export function signatureHeaders(
  signingSecret: string,
  rawBody: string,
  signing: Signing,
  nowSec: number = Math.floor(Date.now() / 1000),
): Record<string, string> {
  if (signing === 'unsigned') return {};
  const timestamp = signing === 'stale-timestamp' ? nowSec - STALE_BY_SEC : nowSec;
  const secret = signing === 'bad-signature' ? `${signingSecret}-not` : signingSecret;
  return {
    'x-slack-request-timestamp': String(timestamp),
    'x-slack-signature': slackSignature(secret, timestamp, rawBody),
  };
}
