import { PackedNumbers } from '../../sms/packed-numbers.js';
import { PackedStrings } from '../../sms/packed-strings.js';
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
 * twice, through its write-ahead log). A file's values are packed (PackedStrings): one string and each value's
 * length, not 200,000 strings for JSON.stringify to write one by one. The messages are joined again, the same
 * way, when the draft is read.
 * A draft of a file's numbers alone keeps them beside its JSON, as the one string they are (keptNumbers: the
 * store's `numbers`), not in it: no 100,000 strings for JSON.stringify to write (src/sms/packed-numbers.ts).
 */
export interface DraftToKeep {
  draft: Draft;
  compact?: CompactEnvelopes;
}

/** What to store: the draft without its messages when they can be joined again from `compact`, nor packed numbers. */
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
  return { ...stored, draft: draft as unknown as Draft };
}

/** The numbers to store beside keptForm's JSON (the drafts store's `numbers`): a packed draft's, else none. */
export function keptNumbers(stored: DraftToKeep): string | undefined {
  return stored.draft.packedRecipients?.joined;
}

/**
 * The draft as it was: its numbers made again of those stored beside it (`numbers`), messages joined again from
 * `compact` for the recipients in order (a personalised draft's recipients are its envelopes' numbers).
 * Undefined when the stored form does not add up, which only a damaged row could cause: the caller treats it as
 * expired and nothing is sent.
 */
export function restoredForm<T extends DraftToKeep>(stored: T, numbers?: string): T | undefined {
  let { compact } = stored;
  let { draft } = stored;
  if (compact && !Array.isArray(compact.values)) {
    // Packed values as PackedStrings wrote them as JSON (a file's draft): read back, or the row was damaged.
    const values = PackedStrings.fromJSON(compact.values);
    if (!values) return undefined;
    compact = { ...compact, values };
  }
  if (numbers !== undefined) {
    // Numbers beside a draft that has its own, or none of either: not what keptForm stored.
    if (draft.recipients !== undefined) return undefined;
    draft = { ...draft, recipients: PackedNumbers.fromJoined(numbers).toArray() };
  } else if (!Array.isArray(draft.recipients)) return undefined;
  if (!compact || draft.envelopes) return draft === stored.draft ? stored : { ...stored, draft };
  const envelopes = envelopesOf(draft.recipients, compact);
  return envelopes ? { ...stored, compact, draft: { ...draft, envelopes } } : undefined;
}
