import type { ModalView } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import { fromSlack } from '../commands/slack-text.js';
import type { SlackDeps } from '../deps.js';
import { isSlackApiError, slackRefusalOf, UserInputError } from '../errors.js';
import { LIMITS } from '../ui/blocks.js';
import { type ComposeMetadata, composeView, loadingView } from '../ui/compose.js';
import { formatCount } from '../ui/format.js';
import type { ComposeZone } from '../ui/scheduled.js';
import { sendNoticeView } from '../ui/send-outcome.js';
import { userZone } from '../user-zones.js';
import { composeEstimate } from './draft.js';
import { submitLabel } from './submit-label.js';

export interface ComposePrefill {
  recipients?: string;
  text?: string;
  sender?: string;
  /** A reply: who is answered and their SMS, shown above the fields (reply-context.ts). */
  replyingTo?: string;
  /** Editing a scheduled personalised send: its mode and CSV. */
  mode?: 'same' | 'personalised';
  csv?: string;
}

const SHORTER_TEXT = 'send a shorter text, e.g. `/sms send 0532 123 45 67 Your order is ready`.';
const SAVED_LIST =
  'put the numbers in a file (.csv, .txt, .xlsx) and upload it in the composer (`/sms send`, “…or a file of numbers”), or import it as a saved list with `/sms lists import <name>`.';

/** Prefill the modal's fields cannot take: the user is told what to do instead, and no modal opens. */
function prefillProblem(deps: SlackDeps, prefill: ComposePrefill): string | undefined {
  const limit = formatCount(LIMITS.textInput);
  const text = prefill.text ?? '';
  if (text.length > LIMITS.textInput) {
    const segments = deps.settings.sending.maxSegments;
    return `Your text is ${formatCount(text.length)} characters long: a field of the compose modal takes at most ${limit}, and one SMS here is at most ${segments} segments (about ${formatCount(segments * 153)} characters). Nothing was sent. Instead, ${SHORTER_TEXT}`;
  }
  const recipients = prefill.recipients ?? '';
  if (recipients.length > LIMITS.textInput) {
    return `Those numbers take ${formatCount(recipients.length)} characters: a field of the compose modal takes at most ${limit}. Nothing was sent. Instead, ${SAVED_LIST}`;
  }
  return undefined;
}

function refusedText(error: unknown): string {
  const code = slackRefusalOf(error);
  const why = code
    ? `Slack refused to open the compose modal (\`${code}\`)`
    : 'Slack failed to open the compose modal';
  return `${why}. Nothing was sent. Try \`/sms send\` again; for a long text, ${SHORTER_TEXT} For many numbers, ${SAVED_LIST}`;
}

/** The compose modal with senders (gateway), lists and templates (store); what failed is left out. */
async function fullComposeView(
  deps: SlackDeps,
  metadata: Omit<ComposeMetadata, 'mode' | 'textVersion'>,
  prefill: ComposePrefill,
  zone: Promise<ComposeZone> | undefined,
): Promise<ModalView> {
  const [senders, lists, templates, when] = await Promise.allSettled([
    deps.gateway.getSenders(),
    deps.store.recipientLists.list(),
    deps.store.templates.list(),
    zone ?? Promise.resolve(undefined),
  ]);
  const userZone = when.status === 'fulfilled' ? when.value : undefined;
  const full: ComposeMetadata = {
    ...metadata,
    mode: prefill.mode ?? 'same',
    textVersion: 0,
    ...(userZone ? { tz: userZone.timeZone, tzFromSlack: userZone.fromSlack } : {}),
  };
  const senderNames = senders.status === 'fulfilled' ? senders.value : [];
  const input = {
    senderOptions: [],
    mode: full.mode,
    recipientsText: prefill.recipients ?? '',
    csvText: prefill.csv ?? '',
    text: prefill.text ?? '',
    encoding: 'auto' as const,
  };
  const estimate = composeEstimate(input, deps.settings.sending, deps.settings.defaultCountry);
  const knownSender =
    prefill.sender && senderNames.some((s) => s.name === prefill.sender) ? prefill.sender : undefined;
  return composeView({
    senders: senderNames,
    sendersProblem:
      senders.status === 'rejected'
        ? 'Sender names could not be loaded from the gateway; type one.'
        : undefined,
    lists:
      lists.status === 'fulfilled' ? lists.value.map((l) => ({ name: l.name, size: l.members.length })) : [],
    templates: templates.status === 'fulfilled' ? templates.value.map((t) => ({ name: t.name })) : [],
    prefill: { ...prefill, sender: knownSender },
    estimate: estimate.line,
    submitLabel: submitLabel(deps.settings.sending, estimate, {
      // The Edit of a scheduled send opens on Schedule, at its time.
      scheduling: full.tz !== undefined && full.scheduleAt !== undefined,
      editing: full.editing !== undefined,
      fileAttached: false,
    }),
    metadata: full,
    simulated: deps.settings.simulated,
  });
}

/**
 * Opens the compose modal within the trigger's 3 seconds: a loading view first, then the real one
 * once senders (gateway), lists and templates (store) are in. A gateway that is down still gives a
 * usable modal, with the sender as a text field and a hint saying why. A modal Slack refuses, for
 * whatever reason, becomes a message saying what to do instead, never a generic error.
 */
export async function openCompose(
  deps: SlackDeps,
  client: WebClient,
  triggerId: string,
  metadata: Omit<ComposeMetadata, 'mode' | 'textVersion'>,
  prefill: ComposePrefill,
  /** Who opens it: the "when" part is shown in their Slack time zone. */
  userId?: string,
): Promise<void> {
  const problem = prefillProblem(deps, prefill);
  if (problem) throw new UserInputError(problem);
  let viewId: string | undefined;
  try {
    const opened = await client.views.open({
      trigger_id: triggerId,
      view: loadingView(metadata.threadTs ? 'Reply by SMS' : 'Send SMS'),
    });
    viewId = opened.view?.id;
    if (!viewId) return;
    const zone = userId ? userZone(deps, client, userId) : undefined;
    const view = await fullComposeView(deps, metadata, prefill, zone);
    await client.views.update({ view_id: viewId, hash: opened.view?.hash, view });
  } catch (error) {
    if (!isSlackApiError(error)) throw error;
    const text = refusedText(error);
    deps.logger.warn({ refusal: slackRefusalOf(error) ?? 'unreachable' }, 'compose modal refused by Slack');
    // Not left on "Loading…": the modal that did open says what the ephemeral says.
    if (viewId) {
      await client.views
        .update({ view_id: viewId, view: sendNoticeView(`:warning: ${text}`) })
        .catch(() => undefined);
    }
    throw new UserInputError(text);
  }
}

/** `send 0532 123 45 67, 0533… Hello there`: the leading run of number-like words is the recipients. */
export function splitSendArguments(raw: string): ComposePrefill {
  // Slack sends `Fish & chips` as `Fish &amp; chips`; the modal must show what was typed.
  const rest = fromSlack(raw);
  const words = rest.trim().split(/(\s+)/);
  let cut = 0;
  let sawDigit = false;
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (/^\s+$/.test(w)) continue;
    if (!/^[+()\d,;.-]+$/.test(w)) break;
    if (/\d/.test(w)) sawDigit = true;
    cut = i + 1;
  }
  const recipients = words.slice(0, cut).join('').trim();
  // Leading punctuation without a digit is part of the text ("- Hello"), not a recipient.
  const text = words
    .slice(sawDigit ? cut : 0)
    .join('')
    .trim();
  return { recipients: sawDigit ? recipients : undefined, text: text || undefined };
}
