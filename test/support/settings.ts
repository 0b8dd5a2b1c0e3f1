import type { SendingSettings } from '../../src/slack/deps.js';

/** Sending limits as the environment variables that set them, so test bots read them as production does. */
export function sendingEnv(sending: Partial<SendingSettings>): Record<string, string> {
  const env: Record<string, string> = {};
  if (sending.maxSegments !== undefined) env.MAX_SEGMENTS = String(sending.maxSegments);
  if (sending.maxRecipients !== undefined) env.MAX_RECIPIENTS = String(sending.maxRecipients);
  if (sending.confirmRecipients !== undefined) env.CONFIRM_RECIPIENTS = String(sending.confirmRecipients);
  if (sending.confirmCost !== undefined) env.CONFIRM_COST = String(sending.confirmCost);
  if (sending.pricePerSegment !== undefined) env.SMS_PRICE_PER_SEGMENT = String(sending.pricePerSegment);
  if (sending.submitChunkSize !== undefined) env.SUBMIT_CHUNK_SIZE = String(sending.submitChunkSize);
  return env;
}
