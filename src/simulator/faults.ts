import type { OperationName } from './types.js';

export const FAULT_KINDS = ['timeout', 'http500', 'notjson', 'status', 'trickle'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface Fault {
  /** Absent: any operation. */
  operation?: OperationName;
  kind: FaultKind;
  code?: number;
  /** How many more calls get this fault. */
  times: number;
  delayMs?: number;
  /**
   * The fault reply quotes the request body, Credential and all, as ServiceStack error replies often do: a test
   * that the client never passes such text on. Not for `timeout`, whose reply is the real one.
   */
  echo?: boolean;
}

/** How long a `timeout` fault holds its reply (and a `trickle` fault drips it) when the injector does not say. */
export const DEFAULT_TIMEOUT_HOLD_MS = 60_000;

/** A `trickle` reply sends one byte this often: far more often than any client's per-read timeout. */
export const TRICKLE_EVERY_MS = 500;

/** Faults waiting for matching calls, consumed first-in first-out. */
export class FaultQueue {
  #faults: Fault[] = [];

  add(fault: Fault): void {
    // Absent options stay absent, so /_sim/state and state() show the same plain JSON.
    const copy = Object.fromEntries(Object.entries(fault).filter(([, v]) => v !== undefined)) as Fault;
    this.#faults.push(copy);
  }

  /** The fault the next call of `operation` gets, counting it as used. */
  take(operation: OperationName): Fault | undefined {
    const index = this.#faults.findIndex((f) => f.operation === undefined || f.operation === operation);
    if (index < 0) return undefined;
    const fault = this.#faults[index]!;
    fault.times--;
    if (fault.times <= 0) this.#faults.splice(index, 1);
    return { ...fault };
  }

  clear(): void {
    this.#faults = [];
  }

  list(): Fault[] {
    return this.#faults.map((f) => ({ ...f }));
  }
}
