import { describe, expect, it } from 'vitest';
import type { FileReading } from '../../src/tables/worker/reading.js';
import { acrossThreads } from '../support/across-threads.js';

describe('a reading sent between threads', () => {
  it('keeps every message value on its line: Turkish letters, empty values, lines with no message', () => {
    const valuesByLine: (string | undefined)[] = [];
    const to: string[] = [];
    // Line 0 is the header (no values); every seventh line was refused (no values either).
    for (let line = 0; line < 120_000; line++) {
      const refused = line === 0 || line % 7 === 0;
      valuesByLine.push(
        refused ? undefined : `Ayşe Çağrı ${line}`,
        refused ? undefined : line % 5 === 0 ? '' : `#${line}`,
      );
      if (!refused) to.push(`90532${String(1_000_000 + line)}`);
    }
    const reading = {
      purpose: 'personalised',
      meta: {},
      personalised: {
        rejected: [{ line: 7, input: '=cmd|x', reason: 'not a phone number' }],
        addressed: {
          rows: { to, lines: new Int32Array(to.length) },
          septets: {
            gsm7: new Int32Array(120_000),
            turkish: new Int32Array(120_000),
            units: new Int32Array(120_000),
            surrogates: new Uint8Array(120_000),
            unsure: new Uint8Array(120_000),
          },
          pieces: { literals: ['Merhaba ', ', ', '.'], valuesByLine },
        },
      },
    } as unknown as FileReading;
    const back = acrossThreads(reading) as Extract<FileReading, { purpose: 'personalised' }>;
    const a = back.personalised.addressed!;
    expect(a.rows.to).toEqual(to);
    // Kept packed on this side, each value as it was when read.
    const values = a.pieces.valuesByLine;
    expect(values).toHaveLength(valuesByLine.length);
    expect(Array.from({ length: values.length }, (_, i) => values.at(i))).toEqual(valuesByLine);
    expect(back.personalised.rejected).toEqual([{ line: 7, input: '=cmd|x', reason: 'not a phone number' }]);
  });

  it('keeps a same-text reading: its numbers, in order, and its refused rows', () => {
    const recipients = Array.from({ length: 70_000 }, (_, i) => `90532${String(2_000_000 + i)}`);
    const rejected = [{ line: 3, input: 'Ayşe', reason: 'not a phone number' }];
    const reading = {
      purpose: 'recipients',
      meta: {},
      recipients: { recipients, rejected, rowsRead: 70_001, duplicates: 0 },
    } as unknown as FileReading;
    const back = acrossThreads(reading) as Extract<FileReading, { purpose: 'recipients' }>;
    // Kept packed on this side, made into the same list when read.
    expect(back.recipients.packed?.count).toBe(70_000);
    expect(back.recipients.recipients).toEqual(recipients);
    expect(back.recipients.rejected).toEqual(rejected);
    expect(back.recipients.rowsRead).toBe(70_001);
  });
});
