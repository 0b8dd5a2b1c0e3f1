export interface FaultSpec {
  /** Only this Web API method; every method when absent. */
  method?: string;
  /** An HTTP error; or 200 with `error`, for a refusal Slack gives that the workspace cannot produce on its own. */
  status: 200 | 429 | 500 | 503;
  /** With status 200: Slack's error name, e.g. `restricted_action` (a channel where only admins may post). */
  error?: string;
  /** Seconds, sent as Retry-After with a 429. Default 1. */
  retryAfter?: number;
  /** How many matching requests fail before the fault is spent. Default 1. */
  times?: number;
}

export interface Fault {
  status: number;
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

type PendingFault = Required<Omit<FaultSpec, 'method' | 'error'>> & Pick<FaultSpec, 'method' | 'error'>;

const ERROR_OF_STATUS: Record<number, string> = {
  429: 'ratelimited',
  500: 'internal_error',
  503: 'service_unavailable',
};

/** Scripted failures for drills: the next N calls (of one method, or any) answer with an HTTP error. */
export class FaultInjector {
  #pending: PendingFault[] = [];

  inject(spec: FaultSpec): void {
    this.#pending.push({ retryAfter: 1, times: 1, ...spec });
  }

  clear(): void {
    this.#pending = [];
  }

  get pending(): number {
    return this.#pending.reduce((n, f) => n + f.times, 0);
  }

  /** Spends one use of the first fault that applies to `method`. */
  take(method: string): Fault | undefined {
    const fault = this.#pending.find((f) => f.method === undefined || f.method === method);
    if (!fault) return undefined;
    fault.times -= 1;
    if (fault.times <= 0) this.#pending.splice(this.#pending.indexOf(fault), 1);
    return {
      status: fault.status,
      headers: fault.status === 429 ? { 'retry-after': String(fault.retryAfter) } : {},
      body: { ok: false, error: fault.error ?? ERROR_OF_STATUS[fault.status] ?? 'fatal_error' },
    };
  }
}
