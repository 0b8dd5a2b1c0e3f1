import { escapeMrkdwn } from './format.js';

export interface InboundFilter {
  keyword?: string;
  recipient?: string;
}

export const SUBSCRIBE_INBOUND_USAGE =
  '`/sms subscribe inbound [keyword K] [to RECIPIENT]`, e.g. `/sms subscribe inbound keyword ANKET to 4440123`';

/** "every inbound SMS", "inbound SMS with keyword *ANKET* sent to *4440123*". */
export function describeFilter(filter: { keyword?: string | null; recipient?: string | null }): string {
  const parts = [
    ...(filter.keyword ? [`with keyword *${escapeMrkdwn(filter.keyword)}*`] : []),
    ...(filter.recipient ? [`sent to *${escapeMrkdwn(filter.recipient)}*`] : []),
  ];
  return parts.length === 0 ? 'every inbound SMS' : `inbound SMS ${parts.join(' ')}`;
}

export function subscribedText(filter: InboundFilter, userId: string, created: boolean): string {
  if (!created) return `:information_source: This channel already gets ${describeFilter(filter)}.`;
  return `:incoming_envelope: <@${userId}> subscribed this channel to ${describeFilter(filter)}. Messages from one number within a conversation share a thread; press *Reply* to answer by SMS.`;
}

export function unsubscribedText(
  removed: readonly InboundFilter[],
  remaining: readonly InboundFilter[],
  userId: string,
  asked: InboundFilter | undefined,
): string {
  if (removed.length === 0) {
    return asked
      ? `:information_source: This channel has no subscription to ${describeFilter(asked)}.`
      : ':information_source: This channel has no inbound SMS subscription.';
  }
  const what = removed.map(describeFilter).join('; ');
  const left = remaining.length > 0 ? ` It still gets ${remaining.map(describeFilter).join('; ')}.` : '';
  return `:no_bell: <@${userId}> unsubscribed this channel from ${what}.${left}`;
}
