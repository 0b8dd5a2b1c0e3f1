import { PackedNumbers } from '../../sms/packed-numbers.js';
import { PackedStrings } from '../../sms/packed-strings.js';
import type { ThreadPriority } from '../../threads/idle-priority.js';
import { withPackedNumbers } from '../file-recipients.js';
import type { FileReading } from './reading.js';

/**
 * A reading as it crosses between threads. The long lists (a personalised reading's numbers, refused rows) go
 * apart, CHUNK items a message, each sent when the main thread asks for the next one, so that acks run between
 * them; the two kept packed on the main thread go whole (below).
 * Lists of strings go packed (PackedStrings): a chunk's copy is of two flat buffers, not of 50,000 strings one
 * by one. Sent in one message instead, packed, the answer came no sooner and the main thread's longest stall in
 * a 100,000-row compose doubled (22 -> 43 ms, bench/files.ts, 2026-11-27). Not smaller: each chunk is a round
 * trip between the threads (at 10,000 a 100,000-row personalised file took 100-150 ms more than read in one
 * thread). Typed arrays are moved, not copied (the transfer list). The message values, kept packed on the main
 * thread (KEPT_PACKED), go in one message: the main thread makes no string of them, so parts would only add
 * round trips (the answer's way for a 100,000-row personalised file: 100-120 -> 65-77 ms, 2026-11-27). So do a
 * same-text reading's numbers, one string (NUMBER_LISTS).
 */
export const CHUNK = 50_000;

/** What the main thread sends the reading thread. */
export type ToReader =
  | { type: 'read'; filename: string; bytes: Uint8Array; request: import('./reading.js').ReadRequest }
  | { type: 'more' };

/** What the reading thread sends back for one read. */
export type FromReader =
  | ({ type: 'chunk'; list: ListName } & Chunk)
  | {
      type: 'done';
      reading: FileReading;
      heapBytes: number;
      /** The read itself, in the thread: the file to what the request asks of it, before any chunk went. */
      readMs: number;
      /** When the read was over, as performance.timeOrigin + now(): a clock both threads share. */
      answeredAt: number;
    }
  | { type: 'refused'; message: string }
  | { type: 'failed'; message: string }
  /** Idle after an answer, the thread gave its heap back (or found too little to collect): sent between reads. */
  | { type: 'released'; collected: boolean }
  /** Sent once, as the thread starts, when it was asked to lower its priority: what it got (pool.ts, `priority`). */
  | ({ type: 'priority' } & ThreadPriority);

/** What a reading thread is started with (its workerData). */
export interface ReaderStart {
  priority: 'idle' | 'normal';
  chrtPaths: readonly string[];
}

/** The long lists that cross apart from the reading's head (in chunks, or whole), by name. */
export type ListName = 'recipients' | 'rejected' | 'to' | 'values';

/**
 * The lists of strings (a personalised reading's numbers, its message values) go packed (PackedStrings): a
 * chunk's copy is of two flat buffers, not of 50,000 strings one by one (issue 28: a 100,000-row personalised
 * file's answer took 300-550 ms from the read's end to the main thread, as long as the read itself, on a loaded
 * 2-core machine).
 */
const STRING_LISTS: ReadonlySet<ListName> = new Set(['to', 'values']);

/**
 * Of those, the lists that stay packed on the main thread, as PackedStrings, and cross whole: the message values,
 * joined into messages only at the send (src/sms/packed-strings.ts). A personalised reading's numbers are made
 * into strings (the draft filters and counts them), a slice at a time.
 */
export const KEPT_PACKED: ReadonlySet<ListName> = new Set(['values']);

/**
 * A same-text reading's numbers go as one string (PackedNumbers' `joined`) and stay so on the main thread,
 * through the draft to the drafts store (src/sms/packed-numbers.ts).
 */
const NUMBER_LISTS: ReadonlySet<ListName> = new Set(['recipients']);

/** A packed chunk as it arrives: a PackedStrings' two parts, its class lost in the copy. */
export interface PackedChunk {
  text: string;
  ends: Int32Array;
}

type Chunk =
  | { items: unknown[]; packed?: undefined; numbers?: undefined }
  | { packed: PackedChunk; items?: undefined; numbers?: undefined }
  | { numbers: { joined: string; count: number }; items?: undefined; packed?: undefined };

type Lists = Partial<Record<ListName, unknown[] | PackedStrings>>;

/** The reading without its long lists (emptied), the lists, and the buffers to move. */
export function splitReading(reading: FileReading): {
  head: FileReading;
  lists: Lists;
  transfer: ArrayBuffer[];
} {
  if (reading.purpose === 'recipients') {
    const { recipients, rejected } = reading.recipients;
    return {
      head: { ...reading, recipients: { ...reading.recipients, recipients: [], rejected: [] } },
      lists: { recipients, rejected },
      transfer: [],
    };
  }
  const p = reading.personalised;
  const a = p.addressed;
  const lists: Lists = { rejected: p.rejected };
  if (!a) return { head: { ...reading, personalised: { ...p, rejected: [] } }, lists, transfer: [] };
  lists.to = a.rows.to;
  // Packed by addressRows; a list of strings (a reading made another way) is packed here, the one place.
  const values = a.pieces.valuesByLine;
  lists.values =
    values instanceof PackedStrings ? values : PackedStrings.of(values as (string | undefined)[]);
  const { septets } = a;
  const buffers = new Set<ArrayBuffer>();
  for (const array of [
    a.rows.lines,
    septets.gsm7,
    septets.turkish,
    septets.units,
    septets.surrogates,
    septets.unsure,
  ]) {
    buffers.add(array.buffer as ArrayBuffer);
  }
  return {
    head: {
      ...reading,
      personalised: {
        ...p,
        rejected: [],
        addressed: {
          ...a,
          rows: { to: [], lines: a.rows.lines },
          pieces: { literals: a.pieces.literals, valuesByLine: [] },
        },
      },
    },
    lists,
    transfer: [...buffers],
  };
}

/** The reading again, its lists put back from the chunks received. */
export function joinReading(head: FileReading, received: Lists): FileReading {
  const list = <T>(name: ListName) => (received[name] ?? []) as T[];
  if (head.purpose === 'recipients') {
    const { recipients: _empty, ...rest } = head.recipients;
    const packed = PackedNumbers.concat(list<PackedNumbers>('recipients'));
    return { ...head, recipients: withPackedNumbers({ ...rest, rejected: list('rejected') }, packed) };
  }
  const p = head.personalised;
  const a = p.addressed;
  return {
    ...head,
    personalised: {
      ...p,
      rejected: list('rejected'),
      ...(a
        ? {
            addressed: {
              ...a,
              rows: { to: list('to'), lines: a.rows.lines },
              pieces: {
                literals: a.pieces.literals,
                // One chunk, or none when no line got a value (wire.ts sends the values whole).
                valuesByLine: list<PackedStrings>('values')[0] ?? PackedStrings.of([]),
              },
            },
          }
        : {}),
    },
  };
}

/** The chunks of the lists, in the order they are sent, with the buffers each moves. */
export function* chunksOf(
  lists: Lists,
): Generator<{ chunk: { list: ListName } & Chunk; transfer: ArrayBuffer[] }> {
  for (const [name, items] of Object.entries(lists) as [ListName, unknown[] | PackedStrings][]) {
    // The lists kept packed (KEPT_PACKED), packed by splitReading.
    if (items instanceof PackedStrings) {
      // None at all (a template without a placeholder): nothing to send; joinReading puts back an empty list.
      if (items.length === 0) continue;
      // One chunk: the main thread copies its two buffers and makes no string of them, so a part at a time would
      // only add round trips. A copy of the ends is moved (400 KB for 100,000 rows): the reading's own list stays
      // whole.
      const ends = items.ends.slice();
      yield {
        chunk: { list: name, packed: { text: items.text, ends } },
        transfer: [ends.buffer as ArrayBuffer],
      };
      continue;
    }
    if (NUMBER_LISTS.has(name)) {
      // Whole, in one chunk: the main thread copies one flat string and keeps it as it came, to the drafts store.
      // In parts, each part was a large string of the main thread's and their join was made flat again to cross
      // to the store's thread: 2.6 MB of large strings a 100,000-row file, where one is 1.3 MB (bench/uploads.ts,
      // 2026-11-28). Its copy is a memcpy: ~13 MB at MAX_RECIPIENTS' highest, 1,000,000 (not measured).
      if (items.length === 0) continue;
      const numbers = { joined: PackedNumbers.of(items as string[]).joined, count: items.length };
      yield { chunk: { list: name, numbers }, transfer: [] };
      continue;
    }
    for (let from = 0; from < items.length; from += CHUNK) {
      const part = items.slice(from, from + CHUNK);
      if (!STRING_LISTS.has(name)) {
        yield { chunk: { list: name, items: part }, transfer: [] };
        continue;
      }
      const { text, ends } = PackedStrings.of(part as (string | undefined)[]);
      yield { chunk: { list: name, packed: { text, ends } }, transfer: [ends.buffer as ArrayBuffer] };
    }
  }
}
