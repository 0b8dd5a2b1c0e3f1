import type { WebClient } from '@slack/web-api';
import { fromSlack } from '../commands/slack-text.js';
import type { SlackDeps } from '../deps.js';
import { type ComposeMetadata, composeView, loadingView } from '../ui/compose.js';
import { estimateLine } from './draft.js';

export interface ComposePrefill {
  recipients?: string;
  text?: string;
  sender?: string;
}

/**
 * Opens the compose modal within the trigger's 3 seconds: a loading view first, then the real one
 * once senders (gateway), lists and templates (store) are in. A gateway that is down still gives a
 * usable modal, with the sender as a text field and a hint saying why.
 */
export async function openCompose(
  deps: SlackDeps,
  client: WebClient,
  triggerId: string,
  metadata: Omit<ComposeMetadata, 'mode' | 'textVersion'>,
  prefill: ComposePrefill,
): Promise<void> {
  const opened = await client.views.open({
    trigger_id: triggerId,
    view: loadingView(metadata.threadTs ? 'Reply by SMS' : 'Send SMS'),
  });
  const viewId = opened.view?.id;
  if (!viewId) return;
  const [senders, lists, templates] = await Promise.allSettled([
    deps.gateway.getSenders(),
    deps.store.recipientLists.list(),
    deps.store.templates.list(),
  ]);
  const full: ComposeMetadata = { ...metadata, mode: 'same', textVersion: 0 };
  const senderNames = senders.status === 'fulfilled' ? senders.value : [];
  const input = {
    senderOptions: [],
    mode: 'same' as const,
    recipientsText: prefill.recipients ?? '',
    csvText: '',
    text: prefill.text ?? '',
    encoding: 'auto' as const,
  };
  const knownSender =
    prefill.sender && senderNames.some((s) => s.name === prefill.sender) ? prefill.sender : undefined;
  await client.views.update({
    view_id: viewId,
    hash: opened.view?.hash,
    view: composeView({
      senders: senderNames,
      sendersProblem:
        senders.status === 'rejected'
          ? 'Sender names could not be loaded from the gateway; type one.'
          : undefined,
      lists:
        lists.status === 'fulfilled'
          ? lists.value.map((l) => ({ name: l.name, size: l.members.length }))
          : [],
      templates: templates.status === 'fulfilled' ? templates.value.map((t) => ({ name: t.name })) : [],
      prefill: { ...prefill, sender: knownSender },
      estimate: estimateLine(input, deps.settings.sending, deps.settings.defaultCountry),
      metadata: full,
      simulated: deps.settings.simulated,
    }),
  });
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
