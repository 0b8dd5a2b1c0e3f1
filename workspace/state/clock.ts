/** Milliseconds since the epoch. Injectable so tests can age a trigger_id or a rate-limit window without sleeping. */
export type Clock = () => number;

export const systemClock: Clock = () => Date.now();

/**
 * Slack message timestamps double as message ids, so they must be unique and strictly increasing within a
 * workspace even when several messages land in the same millisecond.
 */
export class TsClock {
  #lastMicros = 0n;
  readonly #clock: Clock;

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  next(): string {
    const nowMicros = BigInt(Math.floor(this.#clock())) * 1000n;
    const micros = nowMicros > this.#lastMicros ? nowMicros : this.#lastMicros + 1n;
    this.#lastMicros = micros;
    const seconds = micros / 1_000_000n;
    const fraction = (micros % 1_000_000n).toString().padStart(6, '0');
    return `${seconds}.${fraction}`;
  }

  /** Every ts from now on comes after `ts`: a restored workspace's messages keep theirs unique. */
  after(ts: string): void {
    const [seconds = '0', fraction = '0'] = ts.split('.');
    const micros = BigInt(seconds) * 1_000_000n + BigInt(fraction.padEnd(6, '0').slice(0, 6));
    if (micros > this.#lastMicros) this.#lastMicros = micros;
  }
}

/** Slack's `ts` strings compare correctly as numbers only once both parts are taken into account. */
export function compareTs(a: string, b: string): number {
  const [aSec = '0', aFrac = '0'] = a.split('.');
  const [bSec = '0', bFrac = '0'] = b.split('.');
  const bySeconds = Number(aSec) - Number(bSec);
  return bySeconds !== 0 ? bySeconds : Number(aFrac.padEnd(6, '0')) - Number(bFrac.padEnd(6, '0'));
}
