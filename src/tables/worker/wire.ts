import type { RejectedRow } from '../file-recipients.js';
import type { FileReading } from './reading.js';

/**
 * A reading as it crosses between threads. Its long lists (numbers, message values, refused rows) go packed:
 * each list of strings as one string and where each item ends, so that the copy is of a few flat buffers, not
 * of 100,000s of strings, one by one, as the structured clone makes them (issue 28: a 100,000-row personalised
 * file's answer took 300-550 ms from the read's end to the main thread on a loaded 2-core machine, as long as
 * the read). All in one message: the main thread used to ask for each chunk of 50,000, and the round trips
 * between the threads cost more than the copies (a wake-up of each thread per chunk: 65-95 ms for 7 chunks,
 * 2026-11-27). The main thread makes the strings again SLICE items at a time, the event loop turning between
 * slices (~2 ms each), so acks run between them. Typed arrays are moved, not copied (the transfer list).
 */
export const SLICE = 50_000;

/** What the main thread sends the reading thread. */
export type ToReader = {
  type: 'read';
  filename: string;
  bytes: Uint8Array;
  request: import('./reading.js').ReadRequest;
};

/** What the reading thread sends back for one read. */
export type FromReader =
  | {
      type: 'done';
      /** The reading without its long lists, which are in `lists`. */
      reading: FileReading;
      lists: PackedLists;
      heapBytes: number;
      /** The read itself, in the thread: the file to what the request asks of it. */
      readMs: number;
      /** When the read was over, as performance.timeOrigin + now(): a clock both threads share. */
      answeredAt: number;
    }
  | { type: 'refused'; message: string }
  | { type: 'failed'; message: string };

/**
 * A list of strings as one string and where each ends: `ends[i]` is where item i ends in `text`, or `~start`
 * for an item that is not there (a line with no message has no values).
 */
export interface PackedStrings {
  text: string;
  ends: Int32Array;
}

/** Refused rows by column: their lines, cells and reasons. */
export interface PackedRows {
  lines: Int32Array;
  inputs: PackedStrings;
  reasons: PackedStrings;
}

export interface PackedLists {
  recipients?: PackedStrings;
  to?: PackedStrings;
  values?: PackedStrings;
  rejected?: PackedRows;
}

interface Lists {
  recipients?: string[];
  to?: string[];
  values?: (string | undefined)[];
  rejected?: RejectedRow[];
}

export function packStrings(items: readonly (string | undefined)[]): PackedStrings {
  const ends = new Int32Array(items.length);
  let at = 0;
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    if (typeof item === 'string') {
      at += item.length;
      ends[i] = at;
    } else ends[i] = ~at;
  }
  // join() writes undefined and holes as nothing: the text is the strings alone, end to end.
  return { text: items.join(''), ends };
}

function packRows(rows: readonly RejectedRow[]): PackedRows {
  return {
    lines: Int32Array.from(rows, (r) => r.line),
    inputs: packStrings(rows.map((r) => r.input)),
    reasons: packStrings(rows.map((r) => r.reason)),
  };
}

/** Items `from` to `to` (not included) of a packed list, as strings again (absent ones as undefined). */
function unpackStrings(packed: PackedStrings, from: number, to: number): (string | undefined)[] {
  const { text, ends } = packed;
  const out: (string | undefined)[] = new Array(to - from);
  const endOf = (e: number) => (e < 0 ? ~e : e);
  let start = from === 0 ? 0 : endOf(ends[from - 1]!);
  for (let i = from; i < to; i++) {
    const end = ends[i]!;
    if (end < 0) {
      out[i - from] = undefined;
      start = ~end;
    } else {
      out[i - from] = text.slice(start, end);
      start = end;
    }
  }
  return out;
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The lists again, SLICE items at a time, `turn` awaited between slices (the event loop's next turn). */
export async function unpackLists(packed: PackedLists, turn: () => Promise<void> = nextTurn): Promise<Lists> {
  const lists: Lists = {};
  let first = true;
  const strings = async (p: PackedStrings) => {
    const out: (string | undefined)[] = [];
    for (let from = 0; from < p.ends.length; from += SLICE) {
      if (!first) await turn();
      first = false;
      const part = unpackStrings(p, from, Math.min(p.ends.length, from + SLICE));
      for (let i = 0; i < part.length; i++) out.push(part[i]);
    }
    return out;
  };
  if (packed.recipients) lists.recipients = (await strings(packed.recipients)) as string[];
  if (packed.to) lists.to = (await strings(packed.to)) as string[];
  if (packed.values) lists.values = await strings(packed.values);
  if (packed.rejected) {
    const { lines, inputs, reasons } = packed.rejected;
    const input = await strings(inputs);
    const reason = await strings(reasons);
    lists.rejected = Array.from(lines, (line, i) => ({ line, input: input[i]!, reason: reason[i]! }));
  }
  return lists;
}

/** The reading without its long lists (emptied), the lists, and the buffers to move. */
export function splitReading(reading: FileReading): {
  head: FileReading;
  lists: PackedLists;
  transfer: ArrayBuffer[];
} {
  if (reading.purpose === 'recipients') {
    const { recipients, rejected } = reading.recipients;
    const lists = { recipients: packStrings(recipients), rejected: packRows(rejected) };
    return {
      head: { ...reading, recipients: { ...reading.recipients, recipients: [], rejected: [] } },
      lists,
      transfer: buffersOf(lists),
    };
  }
  const p = reading.personalised;
  const a = p.addressed;
  const lists: PackedLists = { rejected: packRows(p.rejected) };
  if (!a) {
    return {
      head: { ...reading, personalised: { ...p, rejected: [] } },
      lists,
      transfer: buffersOf(lists),
    };
  }
  lists.to = packStrings(a.rows.to);
  lists.values = packStrings(a.pieces.valuesByLine);
  const { septets } = a;
  const buffers = new Set<ArrayBuffer>(buffersOf(lists));
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

function buffersOf(lists: PackedLists): ArrayBuffer[] {
  const { recipients, to, values, rejected } = lists;
  return [recipients, to, values, rejected?.inputs, rejected?.reasons]
    .map((p) => p?.ends.buffer as ArrayBuffer | undefined)
    .concat(rejected ? [rejected.lines.buffer as ArrayBuffer] : [])
    .filter((b): b is ArrayBuffer => b !== undefined);
}

/** The reading again, its lists put back from those unpacked. */
export function joinReading(head: FileReading, received: Lists): FileReading {
  const list = <T>(name: keyof Lists) => (received[name] ?? []) as T[];
  if (head.purpose === 'recipients') {
    return {
      ...head,
      recipients: { ...head.recipients, recipients: list('recipients'), rejected: list('rejected') },
    };
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
              pieces: { literals: a.pieces.literals, valuesByLine: list('values') },
            },
          }
        : {}),
    },
  };
}
