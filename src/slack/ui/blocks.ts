import type { KnownBlock } from '@slack/types';
import { truncate } from './format.js';

/** Small builders that keep every block within Slack's limits whatever text they are given. */
export const LIMITS = {
  sectionText: 3000,
  headerText: 150,
  contextElementText: 2000,
  fieldText: 2000,
  blocksPerMessage: 50,
  blocksPerView: 100,
  privateMetadata: 3000,
  plainOption: 75,
  /**
   * A plain_text_input takes max_length up to 3,000; for a longer initial_value Slack documents nothing
   * (its Block Kit team said there is no hard limit: IBM/slack-wrench#105), yet a modal prefilled with
   * 100 KB was refused. We never prefill more than the documented input size.
   */
  textInput: 3000,
  /**
   * Slack refuses a message whose blocks are too long in total (msg_blocks_too_long), though every block is
   * within its own limit. Undocumented: Slack's staff gave "12,000 text characters with a buffer for block
   * containers" (github.com/slackapi/bolt-js/issues/2509, refusals seen from about 13,200), and
   * github.com/slackapi/bolt-js/issues/2867 saw one at 11,341 characters of text alone. We count every string
   * in the blocks (button values and ids included, see blocksCharacters) and stay under 12,000.
   */
  blocksCharactersPerMessage: 12_000,
} as const;

/** What a message's blocks weigh against LIMITS.blocksCharactersPerMessage: every string but type and style names. */
export function blocksCharacters(value: unknown, key = ''): number {
  if (typeof value === 'string') return key === 'type' || key === 'style' ? 0 : value.length;
  if (Array.isArray(value)) return value.reduce<number>((sum, v) => sum + blocksCharacters(v), 0);
  if (typeof value !== 'object' || value === null) return 0;
  return Object.entries(value).reduce((sum, [k, v]) => sum + blocksCharacters(v, k), 0);
}

export function header(text: string): KnownBlock {
  return {
    type: 'header',
    text: { type: 'plain_text', text: truncate(text, LIMITS.headerText), emoji: true },
  };
}

export function section(
  text: string,
  extra: Partial<Extract<KnownBlock, { type: 'section' }>> = {},
): KnownBlock {
  return { type: 'section', text: { type: 'mrkdwn', text: truncate(text, LIMITS.sectionText) }, ...extra };
}

export function fields(pairs: Array<[string, string]>): KnownBlock {
  return {
    type: 'section',
    fields: pairs.slice(0, 10).map(([label, value]) => ({
      type: 'mrkdwn' as const,
      text: truncate(`*${label}*\n${value}`, LIMITS.fieldText),
    })),
  };
}

export function context(...texts: string[]): KnownBlock {
  return {
    type: 'context',
    elements: texts
      .slice(0, 10)
      .map((t) => ({ type: 'mrkdwn' as const, text: truncate(t, LIMITS.contextElementText) })),
  };
}

/**
 * A button's confirmation dialog. Slack documents plain_text only for its text (the local workspace refuses
 * mrkdwn there too); `danger` makes the confirm button red.
 */
export function confirmDialog(title: string, text: string, confirm: string, deny: string, danger = false) {
  const plain = (t: string) => ({ type: 'plain_text' as const, text: t });
  return {
    title: plain(title),
    text: plain(text),
    confirm: plain(confirm),
    deny: plain(deny),
    ...(danger ? { style: 'danger' as const } : {}),
  };
}

export function divider(): KnownBlock {
  return { type: 'divider' };
}

/** The mark every view carries while the gateway is the built-in simulator. */
export function simulatedNotice(simulated: boolean): KnownBlock[] {
  return simulated
    ? [context(':test_tube: *Simulated gateway*: no real SMS is sent and no money is spent.')]
    : [];
}

export interface ListOptions {
  /** Entries shown at most; the rest are counted in the trailer. */
  maxItems?: number;
  /** Blocks the list may take at most, the "…and N more" trailer included. */
  maxBlocks: number;
  /** What the trailer counts: "…and 12 more entries". */
  moreLabel?: string;
  /** Between entries in one section; a blank line sets multi-line entries apart. */
  separator?: string;
}

/**
 * Entries (each one or more mrkdwn lines) packed into as few sections as fit, never split across two,
 * with one "…and N more" trailer for whatever the item or block budget left out.
 */
export function listBlocks(entries: readonly string[], options: ListOptions): KnownBlock[] {
  const max = LIMITS.sectionText;
  const separator = options.separator ?? '\n';
  const budget = Math.max(1, options.maxBlocks);
  const candidates = entries.slice(0, options.maxItems ?? entries.length);
  const pack = (sectionBudget: number) => {
    const texts: string[] = [];
    let current = '';
    let shown = 0;
    for (const raw of candidates) {
      const entry = truncate(raw, max);
      if (current && current.length + separator.length + entry.length > max) {
        if (texts.length + 1 >= sectionBudget) break;
        texts.push(current);
        current = '';
      }
      current = current ? `${current}${separator}${entry}` : entry;
      shown++;
    }
    if (current) texts.push(current);
    return { texts, shown };
  };
  let { texts, shown } = pack(budget);
  // A trailer needs a block of its own: pack again one section smaller when something is left out.
  if (shown < entries.length && texts.length >= budget) ({ texts, shown } = pack(budget - 1));
  const blocks = texts.map((t) => section(t));
  const hidden = entries.length - shown;
  if (hidden > 0)
    blocks.push(context(`…and ${hidden.toLocaleString('en-US')} more ${options.moreLabel ?? 'entries'}`));
  return blocks;
}
