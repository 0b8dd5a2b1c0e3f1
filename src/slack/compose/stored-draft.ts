import { PackedNumbers } from '../../sms/packed-numbers.js';
import { type CompactEnvelopes, type ComposeInput, type Draft, envelopesOf } from './draft.js';

/** Where the person asked the file to be read from: a sheet by name, a number column by index; else the reader's choice. */
export interface FilePick {
  sheet?: string;
  phoneColumn?: number;
}

/**
 * What reads an uploaded file again when the person picks another sheet or column in the confirmation: the
 * Slack file object (downloaded again: its bytes are not kept) and the form as submitted.
 */
export interface StoredUpload {
  file: { id: string; name: string; size?: number; url_private?: string; url_private_download?: string };
  input: Omit<ComposeInput, 'listMembers' | 'file'>;
  /** The confirmation's external_id: every reading of the file shows itself in the same view. */
  externalId: string;
  pick: FilePick;
  /**
   * Which reading of the file this draft is. The confirmation that shows it carries the same id, and Send sends
   * the kept draft only when they match: a view drawn before the file was read again never sends the new draft,
   * nor a new view the old one.
   */
  reading: string;
}

/**
 * A draft as the drafts store keeps it between the confirmation and the click that sends it. A personalised
 * draft keeps its messages as the template's text and each envelope's values (`compact`), not as 100,000
 * joined messages: a quarter of the JSON, which every instance writes and reads back (and SQLite writes
 * twice, through its write-ahead log). The messages are joined again, the same way, when the draft is read.
 * A draft of a file's numbers alone keeps them as their lines (`recipientsPacked`, PackedNumbers' `joined`):
 * one string for JSON.stringify to write, not 100,000 (src/sms/packed-numbers.ts).
 */
export interface DraftToKeep {
  draft: Draft;
  compact?: CompactEnvelopes;
}

/** The stored draft's numbers as their lines, in place of `recipients`. */
interface PackedForm {
  recipientsPacked?: string;
}

/** What to store: the draft without its messages when they can be joined again from `compact`, its numbers packed. */
export function keptForm<T extends DraftToKeep>(stored: T): T {
  const packed = stored.draft.packedRecipients;
  if (!stored.compact && !packed) return stored;
  // Copied key by key: reading `envelopes` would join every message (buildDraft joins them on demand), reading
  // `recipients` of a packed draft would make a string of each number.
  const draft: Record<string, unknown> = {};
  for (const key of Object.keys(stored.draft)) {
    if (key === 'envelopes' && stored.compact) continue;
    if (key === 'recipients' && packed) continue;
    draft[key] = stored.draft[key as keyof Draft];
  }
  if (packed) draft.recipientsPacked = packed.joined;
  return { ...stored, draft: draft as unknown as Draft };
}

/**
 * The draft as it was: its numbers made again of their lines, messages joined again from `compact` for the
 * recipients in order (a personalised draft's recipients are its envelopes' numbers). Undefined when the stored
 * form does not add up, which only a damaged row could cause: the caller treats it as expired and nothing is
 * sent.
 */
export function restoredForm<T extends DraftToKeep>(stored: T): T | undefined {
  const { compact } = stored;
  let draft = stored.draft;
  const { recipientsPacked, ...rest } = draft as Draft & PackedForm;
  if (recipientsPacked !== undefined) {
    if (typeof recipientsPacked !== 'string' || draft.recipients !== undefined) return undefined;
    draft = { ...rest, recipients: PackedNumbers.fromJoined(recipientsPacked).toArray() };
  }
  if (!compact || draft.envelopes) return draft === stored.draft ? stored : { ...stored, draft };
  const envelopes = envelopesOf(draft.recipients, compact);
  return envelopes ? { ...stored, draft: { ...draft, envelopes } } : undefined;
}
