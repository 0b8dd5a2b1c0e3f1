import type { Sender } from '../gateway/index.js';
import { fromSlack } from './commands/slack-text.js';
import { buildDraft, type DraftResult, storedDraftContext } from './compose/draft.js';
import type { SlackDeps } from './deps.js';
import { inboxWindow, newestInbound } from './lookup-windows.js';

/** How long a preview's Send button works. */
export const THREAD_ANSWER_TTL_MS = 30 * 60_000;

/** The draft key of a mention: one per message, so a retried event or a second click finds the first. */
export function threadAnswerKey(channel: string, ts: string): string {
  return `mention:${channel}:${ts}`;
}

/** The text of `@smsops <text>`: every mention of the bot taken out, Slack's escaping undone. */
export function mentionText(raw: string, botUserId: string | undefined): string {
  const mention = botUserId
    ? new RegExp(`<@${botUserId}(?:\\|[^>]*)?>`, 'g')
    : /^\s*<@[UW][A-Z0-9]+(?:\|[^>]*)?>/;
  return fromSlack(raw.replace(mention, ' ')).trim();
}

const comparable = (name: string) =>
  name
    .replace(/\s+/g, '')
    .replace(/^(\+|00)/, '')
    .toLowerCase();

/** The account's sender named `name` (compared as the relay compares recipients), if any. */
export function knownSender(senders: readonly Sender[], name: string | undefined): string | undefined {
  if (!name) return undefined;
  return senders.find((s) => comparable(s.name) === comparable(name))?.name;
}

export function defaultSender(senders: readonly Sender[]): string | undefined {
  return (senders.find((s) => s.isDefault) ?? senders[0])?.name;
}

/**
 * The conversation's sender, as Reply chooses it: the number or name the latest SMS from this number was sent to,
 * when it is one of the account's senders; otherwise the account's default sender.
 */
export async function conversationSender(
  deps: SlackDeps,
  msisdn: string,
): Promise<{ sender: string | undefined; senders: Sender[] }> {
  const [senders, received] = await Promise.all([
    deps.gateway.getSenders(),
    deps.gateway.receive({ range: inboxWindow(deps.now()) }).catch(() => []),
  ]);
  const latest = newestInbound(
    received.filter((m) => m.msisdn === msisdn),
    1,
  )[0];
  return { sender: knownSender(senders, latest?.recipient) ?? defaultSender(senders), senders };
}

/** The answer as a send plan, with the same validation and opt-out check as the compose modal. */
export function threadAnswerDraft(
  deps: SlackDeps,
  input: { msisdn: string; text: string; sender: string | undefined; senders: readonly Sender[] },
): Promise<DraftResult> {
  return buildDraft(
    {
      sender: input.sender,
      senderOptions: input.senders.map((s) => s.name),
      mode: 'same',
      recipientsText: input.msisdn,
      csvText: '',
      text: input.text,
      encoding: 'auto',
    },
    storedDraftContext(deps.settings.defaultCountry, deps.settings.sending, deps.store.optOuts),
  );
}
