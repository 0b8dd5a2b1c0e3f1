import { PackedNumbers } from '../../src/sms/packed-numbers.js';
import { PackedStrings } from '../../src/sms/packed-strings.js';
import type { FileReading } from '../../src/tables/worker/reading.js';
import { chunksOf, joinReading, KEPT_PACKED, splitReading } from '../../src/tables/worker/wire.js';

/**
 * What crosses from the reading thread, sent as the thread sends it (each chunk copied as postMessage copies it)
 * and put back as the pool does (src/tables/worker/pool.ts): a packed chunk of strings made into strings a slice
 * at a time (here of 3 items, so that slices start on absent items too) or kept packed (message values), a
 * chunk of numbers kept packed.
 */
export function acrossThreads(reading: FileReading, slice = 3): FileReading {
  // The reading as the thread splits it: its own, not a copy (a copy would lose PackedStrings' class).
  const { head, lists } = splitReading(reading);
  const received: Record<string, unknown[]> = {};
  for (const { chunk } of chunksOf(lists)) {
    const copy = structuredClone(chunk);
    const list = received[copy.list] ?? [];
    received[copy.list] = list;
    if (copy.packed) {
      const packed = PackedStrings.from(copy.packed);
      if (KEPT_PACKED.has(copy.list)) list.push(packed);
      else {
        for (let from = 0; from < packed.length; from += slice) {
          packed.unpackInto(list, from, Math.min(packed.length, from + slice));
        }
      }
    } else if (copy.numbers) list.push(PackedNumbers.fromJoined(copy.numbers.joined, copy.numbers.count));
    else list.push(...copy.items!);
  }
  return joinReading(structuredClone(head), received);
}
