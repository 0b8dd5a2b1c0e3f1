import type { KnownBlock } from '@slack/types';
import type { Sender } from '../../gateway/index.js';
import { context, header, section, simulatedNotice } from './blocks.js';
import { plural } from './format.js';
import {
  inlineText,
  LIST_BLOCK_BUDGET,
  type LookupMessage,
  type LookupView,
  listBlocks,
} from './lookup-common.js';

const MAX_SENDERS = 100;

/** The default first, then by name, so the one used when nobody picks is where the eye lands. */
function ordered(senders: readonly Sender[]): Sender[] {
  return [...senders].sort(
    (a, b) => Number(b.isDefault) - Number(a.isDefault) || a.name.localeCompare(b.name),
  );
}

export function sendersMessage(senders: readonly Sender[], view: LookupView): LookupMessage {
  const head: KnownBlock[] = [...simulatedNotice(view.simulated), header('Sender names')];
  if (senders.length === 0) {
    return {
      text: 'The account has no sender names.',
      blocks: [
        ...head,
        section('The account has no sender names: ask the gateway provider to register one.'),
      ],
    };
  }
  const list = ordered(senders);
  const lines = list.map((s) =>
    s.isDefault ? `• *${inlineText(s.name, 60)}*  :star: default` : `• ${inlineText(s.name, 60)}`,
  );
  const fallback = list.find((s) => s.isDefault);
  const blocks: KnownBlock[] = [
    ...head,
    ...listBlocks(lines, { maxItems: MAX_SENDERS, maxBlocks: LIST_BLOCK_BUDGET, moreLabel: 'sender names' }),
    context(
      fallback
        ? 'The default is used when a send does not name a sender.'
        : 'No sender is marked default: each send must name one.',
    ),
  ];
  const names = list.slice(0, 20).map((s) => `${inlineText(s.name, 60)}${s.isDefault ? ' (default)' : ''}`);
  const more = list.length > names.length ? `, …and ${list.length - names.length} more` : '';
  return { text: `${plural(list.length, 'sender name')}: ${names.join(', ')}${more}`, blocks };
}
