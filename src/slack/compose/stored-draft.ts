import { joinMessage } from '../../sms/index.js';
import type { CompactEnvelopes, Draft } from './draft.js';

/**
 * A draft as the drafts store keeps it between the confirmation and the click that sends it. A personalised
 * draft keeps its messages as the template's text and each envelope's values (`compact`), not as 100,000
 * rendered messages: a quarter of the JSON, which every instance writes and reads back (and SQLite writes
 * twice, through its write-ahead log). The messages are joined again, the same way, when the draft is read.
 */
export interface DraftToKeep {
  draft: Draft;
  compact?: CompactEnvelopes;
}

/** What to store: the draft without its rendered messages when they can be joined again from `compact`. */
export function keptForm<T extends DraftToKeep>(stored: T): T {
  if (!stored.compact || !stored.draft.envelopes) return stored;
  const { envelopes: _rendered, ...draft } = stored.draft;
  return { ...stored, draft: draft as Draft };
}

/**
 * The draft as it was: messages joined again from `compact` for the recipients in order (a personalised
 * draft's recipients are its envelopes' numbers). Undefined when the stored form does not add up, which only
 * a damaged row could cause: the caller treats it as expired and nothing is sent.
 */
export function restoredForm<T extends DraftToKeep>(stored: T): T | undefined {
  const { compact, draft } = stored;
  if (!compact || draft.envelopes) return stored;
  const placeholders = compact.literals.length - 1;
  const { recipients } = draft;
  if (placeholders < 0 || compact.values.length !== recipients.length * placeholders) return undefined;
  const envelopes: { to: string; message: string }[] = new Array(recipients.length);
  for (let i = 0; i < recipients.length; i++) {
    envelopes[i] = {
      to: recipients[i]!,
      message: joinMessage(compact.literals, compact.values, i * placeholders),
    };
  }
  return { ...stored, draft: { ...draft, envelopes } };
}
