import { describe, expect, it } from 'vitest';
import type { FileReading } from '../../src/tables/worker/reading.js';
import { joinReading, SLICE, splitReading, unpackLists } from '../../src/tables/worker/wire.js';

const LINES = 120_000;

/** A personalised reading of LINES lines: Turkish letters, empty values, lines with no message, refused rows. */
function personalisedReading() {
  const valuesByLine: (string | undefined)[] = [];
  const to: string[] = [];
  // Line 0 is the header (no values); every seventh line was refused (no values either).
  for (let line = 0; line < LINES; line++) {
    const refused = line === 0 || line % 7 === 0;
    valuesByLine.push(
      refused ? undefined : `Ayşe Çağrı ${line}`,
      refused ? undefined : line % 5 === 0 ? '' : `#${line}`,
    );
    if (!refused) to.push(`90532${String(1_000_000 + line)}`);
  }
  const rejected = [
    { line: 7, input: '=cmd|x', reason: 'not a phone number' },
    { line: 14, input: '', reason: 'no number' },
  ];
  const reading = {
    purpose: 'personalised',
    meta: {},
    personalised: {
      rejected,
      addressed: {
        rows: { to, lines: new Int32Array(to.length) },
        septets: {
          gsm7: new Int32Array(LINES),
          turkish: new Int32Array(LINES),
          units: new Int32Array(LINES),
          surrogates: new Uint8Array(LINES),
          unsure: new Uint8Array(LINES),
        },
        pieces: { literals: ['Merhaba ', ', ', '.'], valuesByLine },
      },
    },
  } as unknown as FileReading;
  return { reading, to, valuesByLine, rejected };
}

describe('a reading sent between threads', () => {
  it('keeps every message value on its line, and the main thread makes the lists again in slices', async () => {
    const { reading, to, valuesByLine, rejected } = personalisedReading();
    // As the thread posts it: a structured clone, its buffers moved.
    const { head, lists, transfer } = splitReading(structuredClone(reading));
    const message = structuredClone({ head, lists }, { transfer });
    let turns = 0;
    const back = joinReading(
      message.head,
      await unpackLists(message.lists, async () => {
        turns++;
      }),
    ) as Extract<FileReading, { purpose: 'personalised' }>;
    const a = back.personalised.addressed!;
    expect(a.rows.to).toEqual(to);
    expect(a.pieces.valuesByLine).toEqual(valuesByLine);
    expect(back.personalised.rejected).toEqual(rejected);
    // The event loop turns between slices: a list of 240,000 values is not made again in one go.
    expect(turns).toBeGreaterThanOrEqual(Math.ceil(valuesByLine.length / SLICE) - 1);
  });

  it('keeps a same-text reading: its numbers and refused rows', async () => {
    const recipients = Array.from({ length: 70_000 }, (_, i) => `90532${String(2_000_000 + i)}`);
    const rejected = [{ line: 3, input: 'Ayşe', reason: 'not a phone number' }];
    const reading = {
      purpose: 'recipients',
      meta: {},
      recipients: { recipients, rejected, rowsRead: 70_001, duplicates: 0 },
    } as unknown as FileReading;
    const { head, lists, transfer } = splitReading(reading);
    const message = structuredClone({ head, lists }, { transfer });
    const back = joinReading(message.head, await unpackLists(message.lists)) as Extract<
      FileReading,
      { purpose: 'recipients' }
    >;
    expect(back.recipients.recipients).toEqual(recipients);
    expect(back.recipients.rejected).toEqual(rejected);
    expect(back.recipients.rowsRead).toBe(70_001);
  });
});
