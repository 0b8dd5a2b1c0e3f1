import {
  type AddressedRows,
  type Addressees,
  addresseesWhere,
  addressRows,
  analyzeText,
  autoSegments,
  autoSegmentsCode,
  CODINGS_BY_RANK,
  type CountryCode,
  type DataCoding,
  dataCodingOf,
  formatForPeople,
  joinMessage,
  NEEDS_TEXT,
  NO_HEADER,
  noAddressees,
  parseCsv,
  parseCsvTable,
  parseRecipients,
  rankOfCode,
  renderEnvelopes,
  type SmsEncoding,
  segmentsIn,
  segmentsOfCode,
  segmentsOfCounted,
  type UnsendableCharacter,
  type UnsendableKind,
  unsendableCharacters,
} from '../../sms/index.js';
import { NumberSet } from '../../sms/number-set.js';
import { PackedNumbers, withRecipientsOf } from '../../sms/packed-numbers.js';
import { PackedStrings } from '../../sms/packed-strings.js';
import { withoutPlaceholders } from '../../sms/personalise.js';
import type { ColumnChoice, FileRecipients, RejectedRow } from '../../tables/file-recipients.js';
import type { ColumnsWanted, Table } from '../../tables/table-file.js';
import {
  columnsWantedOf,
  type FileReading,
  interpretTable,
  type PersonalisedFile,
  type ReadRequest,
  type TableMeta,
} from '../../tables/worker/reading.js';
import type { SendingSettings } from '../deps.js';
import { formatCost, formatCount, plural } from '../ui/format.js';

export type ComposeMode = 'same' | 'personalised';
export type EncodingChoice = 'auto' | SmsEncoding;

/** What the compose modal holds, read from its state. */
export interface ComposeInput {
  sender?: string;
  /** The sender names the modal offered (from GetSenders when it opened). */
  senderOptions: readonly string[];
  mode: ComposeMode;
  recipientsText: string;
  /** Members of the saved list chosen, already in gateway form. */
  listMembers?: readonly string[];
  listName?: string;
  csvText: string;
  text: string;
  encoding: EncodingChoice;
  validity?: string;
  /**
   * Recipients (same text) or the personalised table, read from an uploaded file: as the reading thread made
   * them of it (`reading`, see readRequestFor), or a table read here (made of it in this thread).
   */
  file?: { name: string; table: Table } | { name: string; reading: FileReading };
}

/** What an uploaded file gave, shown before anything is sent. */
export interface FileReport {
  filename: string;
  /** How the file was read, e.g. "Windows-1254, semicolon-separated" or "sheet Liste". */
  readAs: string;
  rowsRead: number;
  /** Valid unique recipients from the file (before opt-outs). */
  valid: number;
  duplicates: number;
  optedOut: number;
  /** Every rejected row, in file order; the modal shows the first few, the rest go out as a file on request. */
  rejected: RejectedRow[];
  numberColumn: string;
  /** Where the numbers were read from (0-based, the file's own columns): the choice a re-read keeps. */
  numberColumnIndex: number;
  /** Columns close enough to hold the numbers too, the chosen one first: empty when the choice was clear. */
  columnChoices: ColumnChoice[];
  /** The file's line (or sheet row) of the header row, when one was found. */
  headerLine?: number;
  /** The worksheet read (.xlsx). */
  sheet?: string;
  /** A workbook's visible worksheets in tab order: more than one lets the person read another. */
  sheets?: string[];
  /** Personalised: the columns of the table. */
  columns?: string[];
}

/** What the reader said of where it read: the sheet, and the sheets it could have read. */
function placeOf(meta: TableMeta): Pick<FileReport, 'sheet' | 'sheets'> {
  return {
    ...(meta.sheet === undefined ? {} : { sheet: meta.sheet }),
    ...(meta.sheets === undefined ? {} : { sheets: meta.sheets }),
  };
}

export interface Draft {
  sender: string;
  mode: ComposeMode;
  /** Gateway form, unique, opt-outs removed. */
  recipients: string[];
  /**
   * The same numbers packed, when the draft was made of a file's numbers alone (src/sms/packed-numbers.ts):
   * `recipients` is made of them when first read. Not enumerable: a copy or JSON of the draft has `recipients`;
   * the drafts store keeps these instead (stored-draft.ts). Read the count with recipientCount().
   */
  readonly packedRecipients?: PackedNumbers;
  /** Personalised mode: one message per recipient. */
  envelopes?: { to: string; message: string }[];
  /** Personalised mode: the first message, for the summary, without joining the others. */
  firstMessage?: string;
  /** The text (same mode) or the template (personalised mode). */
  text: string;
  encoding: SmsEncoding;
  dataCoding: DataCoding;
  validityMinutes: number;
  /** Segments of the longest message. */
  segmentsPerMessage: number;
  totalSegments: number;
  estimatedCost: number;
  /** Things the user should know that did not stop the send (duplicates merged, opt-outs removed). */
  notices: string[];
}

/** A draft whose recipients stay packed until read: `recipients` is made of `packed` then, and kept. */
export function withPackedRecipients(fields: Omit<Draft, 'recipients'>, packed: PackedNumbers): Draft {
  const draft = withRecipientsOf({ ...fields } as Draft, packed, 'packedRecipients');
  Object.defineProperty(draft, 'packedRecipients', { value: packed, enumerable: false, configurable: true });
  return draft;
}

/** How many recipients a draft has, without making a string of each when they are packed. */
export function recipientCount(draft: Pick<Draft, 'recipients' | 'packedRecipients'>): number {
  return draft.packedRecipients ? draft.packedRecipients.count : draft.recipients.length;
}

/** A draft's first recipient (the example in its confirmation). */
export function firstRecipient(draft: Pick<Draft, 'recipients' | 'packedRecipients'>): string | undefined {
  return draft.packedRecipients ? draft.packedRecipients.first() : draft.recipients[0];
}

/**
 * A personalised draft's messages as the template's text around its placeholders and each envelope's values
 * (in envelope order, `literals.length - 1` each): what the drafts store keeps instead of the rendered messages,
 * a quarter of their size for a 100,000-row file (see stored-draft.ts).
 */
export interface CompactEnvelopes {
  literals: string[];
  /**
   * Packed as addressRows makes them (an array in a draft stored before 2026-11-28): as JSON, PackedStrings writes
   * its own form.
   */
  values: string[] | PackedStrings;
}

export type DraftResult =
  | { ok: true; draft: Draft; fileReport?: FileReport; compact?: CompactEnvelopes }
  | { ok: false; errors: Record<string, string> };

function readAsOf(table: TableMeta): string {
  if (table.kind === 'xlsx') return `Excel sheet${table.sheet ? ` “${table.sheet}”` : ''}`;
  const separated = table.delimiter && table.delimiter !== 'none' ? `, ${table.delimiter}-separated` : '';
  return `${table.encoding ?? 'text'}${separated}`;
}

function rejectedLines(rows: readonly RejectedRow[], total: number): string {
  return listProblems(
    rows.slice(0, SHOWN_PROBLEMS).map((r) => `Line ${r.line}: “${r.input}” — ${r.reason}`),
    total,
  );
}

export interface DraftContext {
  defaultCountry: CountryCode;
  settings: SendingSettings;
  /** The subset of numbers that opted out. */
  optedOut: (numbers: string[] | PackedNumbers) => Promise<Set<string>>;
}

/** The context the bot composes in: opt-outs looked up in the store's list (benches build theirs with this too). */
export function storedDraftContext(
  defaultCountry: CountryCode,
  settings: SendingSettings,
  optOuts: {
    hasMany(numbers: string[]): Promise<Set<string>>;
    hasManyPacked(numbers: PackedNumbers): Promise<Set<string>>;
  },
): DraftContext {
  return {
    defaultCountry,
    settings,
    optedOut: (numbers) =>
      numbers instanceof PackedNumbers ? optOuts.hasManyPacked(numbers) : optOuts.hasMany(numbers),
  };
}

const SHOWN_PROBLEMS = 5;
/** Slack shows field errors under the input; keep them readable. */
const ERROR_LIMIT = 1_500;

function listProblems(lines: string[], total: number): string {
  const more = total > lines.length ? `\n…and ${formatCount(total - lines.length)} more` : '';
  return `${lines.join('\n')}${more}`.slice(0, ERROR_LIMIT);
}

const UNSENDABLE: Record<UnsendableKind, string> = {
  'unpaired-surrogate': 'half of a character (an unpaired surrogate, as left by an emoji cut in two)',
  nul: 'a NUL character',
  control: 'a control character',
  noncharacter: 'a Unicode noncharacter',
};

/** `Character 12 is a NUL character (U+0000)`: where, as people count characters, and what it is. */
export function describeUnsendable(u: UnsendableCharacter, where: 'text' | 'lines' = 'text'): string {
  const at = where === 'lines' ? `Line ${u.line}, character ${u.column}` : `Character ${u.position}`;
  const code = `U+${u.codePoint.toString(16).toUpperCase().padStart(4, '0')}`;
  return `${at} is ${UNSENDABLE[u.kind]} (${code})`;
}

/** A field error for characters no SMS can carry, or undefined when there are none. */
export function unsendableProblem(text: string, where: 'text' | 'lines'): string | undefined {
  const found = unsendableCharacters(text);
  if (found.length === 0) return undefined;
  const them = found.length === 1 ? 'it' : 'them';
  return listProblems(
    [
      `SMS cannot carry ${found.length === 1 ? 'this character' : 'these characters'}: delete ${them} and retype what was meant.`,
      ...found.slice(0, SHOWN_PROBLEMS).map((u) => `${describeUnsendable(u, where)}.`),
    ],
    found.length + 1,
  );
}

/**
 * The messages of a draft as the segment count reads them: `count` of them, each joined only when its
 * characters must be read (`messageAt`), with the counts addressRows made when it has them: message `m`'s are
 * at `lines[m]` of `septets`, read in place (a 100,000-row batch asks them of every message twice).
 */
interface Messages {
  count: number;
  messageAt: (index: number) => string;
  counted?: { lines: Int32Array; septets: AddressedRows['septets'] };
}

function sameTextMessages(text: string): Messages {
  return { count: 1, messageAt: () => text };
}

function personalisedMessages(rows: Addressees, addressed: AddressedRows): Messages {
  const { literals, valuesByLine } = addressed.pieces;
  const placeholders = literals.length - 1;
  const { lines } = rows;
  return {
    count: rows.to.length,
    messageAt: (m) => joinMessage(literals, valuesByLine, lines[m]! * placeholders),
    counted: { lines, septets: addressed.septets },
  };
}

/** Segments of message `m` in `encoding` (-1 when it cannot carry it), from its counts when they tell. */
function segmentsOf(messages: Messages, m: number, encoding: SmsEncoding): number {
  const counted = messages.counted;
  let segments = NEEDS_TEXT;
  if (counted) {
    const { septets } = counted;
    const line = counted.lines[m]!;
    segments = segmentsOfCounted(
      encoding,
      septets.gsm7[line]!,
      septets.turkish[line]!,
      septets.units[line]!,
      septets.surrogates[line] === 1,
    );
  }
  return segments === NEEDS_TEXT ? segmentsIn(messages.messageAt(m), encoding) : segments;
}

/**
 * The cheapest coding that carries every message of a batch: one DataCoding goes with the whole call. When
 * every message's own automatic coding is the batch's, their segments in it come along (one pass, not two).
 */
function batchEncoding(
  messages: Messages,
  choice: EncodingChoice,
): { encoding: SmsEncoding; segments?: Int32Array } {
  if (choice !== 'auto') return { encoding: choice };
  let widest = 0;
  let firstRank = -1;
  let same = true;
  const segments = new Int32Array(messages.count);
  const counted = messages.counted;
  for (let i = 0; i < messages.count; i++) {
    // The counts' answer as one number (rank and segments), read in place; else the text's.
    let code = NEEDS_TEXT;
    if (counted) {
      const { septets } = counted;
      const line = counted.lines[i]!;
      code = autoSegmentsCode(
        septets.gsm7[line]!,
        septets.turkish[line]!,
        septets.units[line]!,
        septets.surrogates[line] === 1,
      );
    }
    let rank: number;
    let count: number;
    if (code === NEEDS_TEXT) {
      const auto = autoSegments(messages.messageAt(i));
      rank = CODINGS_BY_RANK.indexOf(auto.encoding);
      count = auto.segments;
    } else {
      rank = rankOfCode(code);
      count = segmentsOfCode(code);
    }
    if (rank === UCS2_RANK) return { encoding: 'UCS2' };
    if (firstRank < 0) firstRank = rank;
    else if (rank !== firstRank) same = false;
    if (rank > widest) widest = rank;
    segments[i] = count;
  }
  const encoding = CODINGS_BY_RANK[widest]!;
  return same ? { encoding, segments } : { encoding };
}

const UCS2_RANK = CODINGS_BY_RANK.indexOf('UCS2');

function validityOf(raw: string | undefined, fallback: number): number | string {
  if (raw === undefined || raw.trim() === '') return fallback;
  if (!/^\d+$/.test(raw.trim())) return 'Validity must be a whole number of minutes.';
  const minutes = Number(raw.trim());
  if (minutes < 1 || minutes > 10_080) return 'Validity must be from 1 to 10,080 minutes (7 days).';
  return minutes;
}

/**
 * What buildDraft needs of an uploaded file for this input: the numbers for a same-text send, the table and
 * the template's columns for a personalised one. What the reading thread is asked (src/tables/worker/).
 */
export function readRequestFor(
  input: Pick<ComposeInput, 'mode' | 'text'>,
  country: CountryCode,
): ReadRequest {
  return input.mode === 'same'
    ? { purpose: 'recipients', country }
    : { purpose: 'personalised', template: input.text, country };
}

/**
 * What buildDraft will read of an uploaded file for this input: the phone column for a same-text send, the
 * phone and the template's columns for a personalised one. Given to readTableFile, so that a spreadsheet's
 * other columns are not decoded for nothing.
 */
export function columnsWantedFor(
  input: Pick<ComposeInput, 'mode' | 'text'>,
  country: CountryCode,
): ColumnsWanted {
  return columnsWantedOf(readRequestFor(input, country));
}

/** What the file gave for this input: as the reading thread made it, or made here of a table read here. */
function readingOf(input: ComposeInput, country: CountryCode): FileReading | undefined {
  const file = input.file;
  if (!file) return undefined;
  const reading =
    'reading' in file ? file.reading : interpretTable(file.name, file.table, readRequestFor(input, country));
  const wanted = input.mode === 'same' ? 'recipients' : 'personalised';
  // The request is made from the same input: another purpose is a bug, never the person's doing.
  if (reading.purpose !== wanted)
    throw new Error(`a file read for ${reading.purpose} given to a ${input.mode} draft`);
  return reading;
}

/** Validates everything the modal holds; on any problem, field errors and nothing else. */
export async function buildDraft(input: ComposeInput, ctx: DraftContext): Promise<DraftResult> {
  const { settings } = ctx;
  const errors: Record<string, string> = {};
  const notices: string[] = [];

  const sender = input.sender?.trim() ?? '';
  if (!sender) errors.sender = 'Choose a sender name.';
  else if (input.senderOptions.length > 0 && !input.senderOptions.includes(sender)) {
    errors.sender = `“${sender}” is not a sender name of this account (${input.senderOptions.join(', ')}).`;
  }

  const validity = validityOf(input.validity, settings.defaultValidityMinutes);
  if (typeof validity === 'string') errors.validity = validity;

  let recipients: string[] = [];
  // A file's numbers alone, as the reading thread packed them: kept so (no string a number) to the drafts store.
  let packed: PackedNumbers | undefined;
  const recipientsCount = () => (packed ? packed.count : recipients.length);
  let fileReport: FileReport | undefined;
  let fileRecipients: FileRecipients | undefined;
  let fileCount = 0;
  // Personalised: the rows that get a message and what the messages are made of; the messages themselves are
  // joined when the draft's envelopes are first read (at the send), not to count, check and confirm them.
  let rows: Addressees | undefined;
  let addressed: AddressedRows | undefined;
  const text = input.text;
  const reading = readingOf(input, ctx.defaultCountry);

  if (input.mode === 'same') {
    if (text.trim() === '') errors.text = 'Write the message text.';
    else {
      const unsendable = unsendableProblem(text, 'text');
      if (unsendable) errors.text = unsendable;
    }
    const parsed = parseRecipients(input.recipientsText, ctx.defaultCountry, { max: settings.maxRecipients });
    if (input.file && reading?.purpose === 'recipients') {
      const got = reading.recipients;
      fileCount = got.packed ? got.packed.count : got.recipients.length;
      fileReport = {
        filename: input.file.name,
        readAs: readAsOf(reading.meta),
        rowsRead: got.rowsRead,
        valid: fileCount,
        duplicates: got.duplicates,
        optedOut: 0,
        rejected: got.rejected,
        numberColumn: got.numberColumn,
        numberColumnIndex: got.numberColumnIndex,
        columnChoices: got.columnChoices,
        ...(got.headerLine === undefined ? {} : { headerLine: got.headerLine }),
        ...placeOf(reading.meta),
      };
      fileRecipients = got;
      if (fileCount === 0) {
        errors.file =
          got.rejected.length > 0
            ? `“${input.file.name}” gave no valid number:\n${rejectedLines(got.rejected, got.rejected.length)}`
            : `“${input.file.name}” has no rows of numbers.`;
      }
    }
    if (parsed.invalid.length > 0) {
      errors.recipients = listProblems(
        parsed.invalid.slice(0, SHOWN_PROBLEMS).map((i) => `Line ${i.line}: “${i.input}” — ${i.reason}`),
        parsed.invalid.length,
      );
    }
    let fromList = 0;
    if (parsed.recipients.length === 0 && (input.listMembers ?? []).length === 0) {
      // The file alone (the bulk case): its numbers are unique already, no second pass through a set.
      if (fileRecipients?.packed) packed = fileRecipients.packed;
      else recipients = (fileRecipients?.recipients ?? []).slice();
    } else {
      const seen = new Set<string>();
      for (const r of parsed.recipients) seen.add(r.msisdn);
      for (const m of fileRecipients?.recipients ?? []) seen.add(m);
      for (const m of input.listMembers ?? []) {
        if (!seen.has(m)) {
          seen.add(m);
          fromList++;
        }
      }
      recipients = [...seen];
    }
    const merged = parsed.duplicates.reduce((n, d) => n + d.lines.length - 1, 0);
    if (merged > 0) notices.push(`${plural(merged, 'duplicate number')} merged.`);
    if (input.listName)
      notices.push(`${plural(fromList, 'number')} added from the list “${input.listName}”.`);
    if (recipientsCount() === 0 && !errors.recipients && !errors.file) {
      errors.recipients = 'Add at least one number, or choose a saved list.';
    }
  } else {
    if (input.file && reading?.purpose === 'personalised') {
      const built = personalisedFromFile(input.file.name, reading.meta, reading.personalised);
      fileReport = built.report;
      if (built.textError) errors.text = built.textError;
      if (built.fileError) errors.file = built.fileError;
      rows = built.rows;
      addressed = built.addressed;
      recipients = rows.to;
    } else {
      // Cells by position: no object per row keyed by column name.
      const csv = parseCsvTable(input.csvText);
      const problems = csv.errors.map((e) => `Line ${e.line}: ${e.reason}`);
      if (input.csvText.trim() === '') {
        errors.csv = 'Paste the table (a header row, then one row per recipient), or upload it as a file.';
      } else if (csv.columns.length === 0 && csv.errors.every((e) => e.reason === NO_HEADER)) {
        errors.csv = 'Paste CSV with a header row, e.g. `number,name` and then one row per recipient.';
      } else if (csv.columns.length === 0) {
        // What stops the table before its header (a separator its first line names that cannot be read).
        errors.csv = listProblems(problems.slice(0, SHOWN_PROBLEMS), problems.length);
      } else {
        addressed = addressRows(text, csv, ctx.defaultCountry);
        if (addressed.missingColumns.length > 0) {
          errors.text = `No column for ${addressed.missingColumns.map((c) => `{{${c}}}`).join(', ')}. The CSV has: ${csv.columns.join(', ')}.`;
        }
        problems.push(...addressed.errors.map((e) => `Line ${e.line}: ${e.reason}`));
        rows = addressed.rows;
        recipients = rows.to;
        if (problems.length > 0)
          errors.csv = listProblems(problems.slice(0, SHOWN_PROBLEMS), problems.length);
        else if (rows.to.length === 0 && !errors.text) errors.csv = 'The CSV has no recipient rows.';
      }
      const unsendableCsv = unsendableProblem(input.csvText, 'lines');
      if (unsendableCsv) errors.csv = unsendableCsv;
    }
    const unsendableText = unsendableProblem(text, 'text');
    if (unsendableText) errors.text = unsendableText;
    if (text.trim() === '') errors.text = 'Write the message template, e.g. Hello {{name}}.';
  }

  if (recipientsCount() > settings.maxRecipients) {
    const field = input.file ? 'file' : input.mode === 'same' ? 'recipients' : 'csv';
    errors[field] =
      `${formatCount(recipientsCount())} recipients is more than the limit of ${formatCount(settings.maxRecipients)} per send. Split the send.`;
  }

  if (Object.keys(errors).length > 0) return { ok: false, errors };

  const found = await ctx.optedOut(packed ?? recipients);
  if (found.size > 0) {
    // Asked of every recipient: a NumberSet turns most away without hashing them, as a Set would.
    const optedOut = new NumberSet(found);
    const before = recipientsCount();
    // A personalised draft's recipients are its rows' numbers: filtered once, as the rows.
    if (rows) {
      rows = addresseesWhere(rows, (to) => !optedOut.has(to));
      recipients = rows.to;
    } else if (packed) packed = optedOut.withoutPacked(packed);
    else recipients = optedOut.without(recipients);
    if (fileReport) {
      // The recipients were the file's alone (a personalised file, or a file without typed numbers or a list):
      // those removed are the file's. Else the file's numbers are counted apart.
      const fileOnly = input.mode === 'personalised' || before === fileCount;
      fileReport.optedOut = fileOnly
        ? before - recipientsCount()
        : (fileRecipients?.recipients ?? []).reduce((n, r) => n + (optedOut.has(r) ? 1 : 0), 0);
    }
    const shown = [...found].slice(0, 3).map(formatForPeople).join(', ');
    notices.push(
      `${plural(found.size, 'opted-out number')} removed (${shown}${found.size > 3 ? ', …' : ''}).`,
    );
    if (recipientsCount() === 0) {
      return {
        ok: false,
        errors: {
          [input.file ? 'file' : input.mode === 'same' ? 'recipients' : 'csv']:
            'Every recipient has opted out: nobody is left.',
        },
      };
    }
  }

  const messages = rows && addressed ? personalisedMessages(rows, addressed) : sameTextMessages(text);
  const { encoding, segments: counted } = batchEncoding(messages, input.encoding);
  let segmentsPerMessage = 0;
  let totalSegments = 0;
  for (let m = 0; m < messages.count; m++) {
    const segments = counted ? counted[m]! : segmentsOf(messages, m, encoding);
    // In the batch's one encoding: counted already, or the fast count that allocates nothing.
    if (segments >= 0) {
      if (segments > segmentsPerMessage) segmentsPerMessage = segments;
      totalSegments += segments;
      continue;
    }
    const analysis = analyzeText(messages.messageAt(m), { encoding });
    if (analysis.unrepresentable.length > 0) {
      return {
        ok: false,
        errors: {
          encoding: `${encodingLabel(encoding)} cannot carry ${analysis.unrepresentable.map((c) => `“${c}”`).join(' ')}. Choose Automatic or UCS-2.`,
        },
      };
    }
    segmentsPerMessage = Math.max(segmentsPerMessage, analysis.segments);
    totalSegments += analysis.segments;
  }
  if (!rows) totalSegments *= recipientsCount();
  if (segmentsPerMessage > settings.maxSegments) {
    return {
      ok: false,
      errors: {
        text: `The message needs ${segmentsPerMessage} segments; the limit is ${settings.maxSegments}. Shorten it${encoding === 'UCS2' ? ' or avoid the characters that force UCS-2' : ''}.`,
      },
    };
  }
  const fields: Omit<Draft, 'recipients'> = {
    sender,
    mode: input.mode,
    text,
    encoding,
    dataCoding: dataCodingOf(encoding),
    validityMinutes: validity as number,
    segmentsPerMessage,
    totalSegments,
    estimatedCost: totalSegments * settings.pricePerSegment,
    notices,
  };
  const draft: Draft = packed ? withPackedRecipients(fields, packed) : { ...fields, recipients };
  if (!rows || !addressed) return { ok: true, ...(fileReport ? { fileReport } : {}), draft };
  const compact = compactOf(rows, addressed.pieces);
  return {
    ok: true,
    ...(fileReport ? { fileReport } : {}),
    compact,
    draft: withEnvelopesOnDemand({ ...draft, firstMessage: messages.messageAt(0) }, compact),
  };
}

/** The envelopes of a personalised draft: its recipients, in order, with their messages joined from `compact`. */
export function envelopesOf(
  recipients: readonly string[],
  compact: CompactEnvelopes,
): { to: string; message: string }[] | undefined {
  const placeholders = compact.literals.length - 1;
  if (placeholders < 0 || compact.values.length !== recipients.length * placeholders) return undefined;
  const envelopes: { to: string; message: string }[] = new Array(recipients.length);
  for (let i = 0; i < recipients.length; i++) {
    envelopes[i] = {
      to: recipients[i]!,
      message: joinMessage(compact.literals, compact.values, i * placeholders),
    };
  }
  return envelopes;
}

/**
 * The draft with `envelopes` joined the first time anything reads them (the send, a stored copy, a spread),
 * then kept: a compose of 100,000 rows counts, checks and confirms without 100,000 messages in memory.
 * Every reader gets the same plain array it always got; only when it is built changes.
 */
function withEnvelopesOnDemand(draft: Draft, compact: CompactEnvelopes): Draft {
  let joined: Draft['envelopes'];
  Object.defineProperty(draft, 'envelopes', {
    enumerable: true,
    configurable: true,
    get() {
      joined ??= envelopesOf(draft.recipients, compact);
      return joined;
    },
    set(value: Draft['envelopes']) {
      joined = value;
    },
  });
  return draft;
}

/**
 * The envelopes of a personalised table from a file. Unlike a pasted table, rows that cannot be sent (a bad
 * number, an empty placeholder value, the same number again) do not stop the send: they are rejected and
 * reported by line, and the rest can go. Only what spoils every row stops it: no header, a placeholder with
 * no column, no row left. The file was read, and its rows addressed, by the reading thread (reading.ts).
 */
function personalisedFromFile(
  filename: string,
  meta: TableMeta,
  file: PersonalisedFile,
): {
  rows: Addressees;
  addressed?: AddressedRows;
  report: FileReport;
  fileError?: string;
  textError?: string;
} {
  const report: FileReport = {
    filename,
    readAs: readAsOf(meta),
    rowsRead: file.rowsRead,
    valid: 0,
    duplicates: file.duplicates,
    optedOut: 0,
    rejected: file.rejected.slice(),
    numberColumn: file.numberColumn,
    numberColumnIndex: file.numberColumnIndex,
    columnChoices: file.columnChoices,
    ...(file.headerLine === undefined ? {} : { headerLine: file.headerLine }),
    ...placeOf(meta),
    columns: file.columns,
  };
  if (file.headerError) {
    return {
      rows: noAddressees(),
      report,
      fileError: `“${filename}”, line ${file.headerError.line}: ${file.headerError.reason}.`,
    };
  }
  const addressed = file.addressed;
  if (file.missingColumns.length > 0 || !addressed) {
    return {
      rows: noAddressees(),
      report,
      textError: `No column for ${file.missingColumns.map((c) => `{{${c}}}`).join(', ')}. “${filename}” has: ${file.columns.join(', ')}.`,
    };
  }
  // Only a message with a value that is not sendable on its own is joined and read whole (two values may hold
  // the halves of one pair). The common file has no such value at all: its rows are kept without a copy.
  const { septets } = addressed;
  const { literals, valuesByLine } = addressed.pieces;
  const inputAt = new Map(file.unsureInputs.map((u) => [u.line, u.input] as const));
  const rows =
    file.unsureInputs.length === 0
      ? addressed.rows
      : addresseesWhere(addressed.rows, (_, line) => {
          const message = joinMessage(literals, valuesByLine, line * (literals.length - 1));
          const bad = septets.unsure[line] === 1 ? unsendableCharacters(message)[0] : undefined;
          if (!bad) return true;
          report.rejected.push({
            line,
            input: inputAt.get(line) ?? '',
            reason: `${describeUnsendable(bad)} of the message: SMS cannot carry it`,
          });
          return false;
        });
  report.rejected.sort((a, b) => a.line - b.line);
  report.valid = rows.to.length;
  if (rows.to.length === 0) {
    return {
      rows,
      report,
      fileError:
        report.rejected.length > 0
          ? `No row of “${filename}” can be sent:\n${rejectedLines(report.rejected, report.rejected.length)}`
          : `“${filename}” has no rows under its header.`,
    };
  }
  return { rows, addressed, report };
}

/**
 * The values of each envelope left (after rejections and opt-outs), in envelope order: packed when addressRows'
 * were (the runs between the rows left out copied whole), else an array.
 */
function compactOf(rows: Addressees, pieces: AddressedRows['pieces']): CompactEnvelopes {
  const placeholders = pieces.literals.length - 1;
  const { valuesByLine } = pieces;
  if (valuesByLine instanceof PackedStrings) {
    return { literals: pieces.literals, values: valuesByLine.gather(rows.lines, placeholders) };
  }
  const count = rows.to.length;
  const values: string[] = new Array(count * placeholders);
  for (let e = 0; e < count; e++) {
    const from = rows.lines[e]! * placeholders;
    for (let i = 0; i < placeholders; i++) values[e * placeholders + i] = valuesByLine.at(from + i)!;
  }
  return { literals: pieces.literals, values };
}

export function encodingLabel(encoding: SmsEncoding): string {
  return { GSM7: 'GSM-7', TurkishSingleShift: 'Turkish single shift', UCS2: 'UCS-2' }[encoding];
}

/**
 * The live line under the text while the user types: cheap enough to run on every keystroke batch,
 * so it counts recipients roughly (no opt-outs) and reads a template's first row only. An attached file
 * (`attachedFile`, its name) is read only when the modal is submitted: its recipients, and so the totals,
 * are said to come at the review rather than counted as none.
 */
export function estimateLine(
  input: ComposeInput,
  settings: SendingSettings,
  defaultCountry: CountryCode,
  attachedFile?: string,
): string {
  return composeEstimate(input, settings, defaultCountry, attachedFile).line;
}

/** The live figures: the line shown, and the totals it counts (none while a file's recipients are unread). */
export interface ComposeEstimate {
  line: string;
  totals?: { recipients: number; cost: number };
}

export function composeEstimate(
  input: ComposeInput,
  settings: SendingSettings,
  defaultCountry: CountryCode,
  attachedFile?: string,
): ComposeEstimate {
  let recipients: number;
  let sample = input.text;
  // Personalised with no row to fill it from: the template's own text, never its braces (each `{` and `}` is
  // a GSM-7 escape, two septets, that no message will carry).
  let templateOnly = false;
  const fileRows = attachedFile !== undefined && input.csvText.trim() === '';
  if (input.mode === 'same') {
    const parsed = parseRecipients(input.recipientsText, defaultCountry);
    const set = new Set(parsed.recipients.map((r) => r.msisdn));
    for (const m of input.listMembers ?? []) set.add(m);
    recipients = set.size;
  } else {
    const csv = fileRows ? undefined : parseCsv(input.csvText);
    recipients = csv?.rows.length ?? 0;
    const first = csv?.rows[0];
    if (csv && first) {
      const rendered = renderEnvelopes(input.text, { columns: csv.columns, rows: [first] }, defaultCountry);
      sample = rendered.envelopes[0]?.message ?? input.text;
    } else {
      sample = withoutPlaceholders(input.text);
      templateOnly = sample !== input.text;
    }
  }
  if (input.text === '') {
    return {
      line: 'Type a message to see its encoding, segments and cost.',
      totals: { recipients, cost: 0 },
    };
  }
  const unsendable = unsendableCharacters(input.text)[0];
  const analysis = analyzeText(sample, input.encoding === 'auto' ? {} : { encoding: input.encoding });
  const perMessage = [
    `*${encodingLabel(analysis.encoding)}*`,
    templateOnly
      ? `${plural(analysis.characters, 'character')} without the {{…}} values`
      : plural(analysis.characters, 'character'),
    `${plural(analysis.segments, 'segment')} per message (${analysis.remainingInLastSegment} left in the last)`,
  ];
  const fileCounted = attachedFile !== undefined && (input.mode === 'same' || fileRows);
  const totals = fileCounted
    ? []
    : [
        plural(recipients, 'recipient'),
        `${plural(analysis.segments * recipients, 'segment')} in all`,
        `est. cost ${formatCost(analysis.segments * recipients * settings.pricePerSegment)}`,
      ];
  let line = [...perMessage, ...totals].join(' · ');
  if (fileCounted) {
    const typed = input.mode === 'same' && recipients > 0 ? `${plural(recipients, 'recipient')} typed; ` : '';
    line += `\n:page_facing_up: ${typed}the recipients of “${attachedFile}”, their segments and the cost are counted at the review, once the file is read.`;
  }
  if (input.mode === 'personalised' && !fileCounted) {
    line += templateOnly
      ? ' _(each row adds its values; every row is counted on send)_'
      : ' _(first row; each row is counted on send)_';
  }
  if (analysis.forcedUcs2By.length > 0) {
    line += `\n:warning: UCS-2 because of ${analysis.forcedUcs2By
      .slice(0, 10)
      .map((c) => `“${c}”`)
      .join(' ')}: a segment holds 70 characters instead of 160.`;
  }
  if (analysis.unrepresentable.length > 0) {
    line += `\n:x: ${encodingLabel(analysis.encoding)} cannot carry ${analysis.unrepresentable
      .slice(0, 10)
      .map((c) => `“${c}”`)
      .join(' ')}.`;
  }
  if (analysis.segments > settings.maxSegments)
    line += `\n:x: More than the limit of ${settings.maxSegments} segments.`;
  if (unsendable) line += `\n:x: ${describeUnsendable(unsendable)}: SMS cannot carry it.`;
  const cost = analysis.segments * recipients * settings.pricePerSegment;
  return fileCounted ? { line } : { line, totals: { recipients, cost } };
}
