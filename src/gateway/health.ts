import { within } from '../within.js';
import { GatewayRejected, GatewayUnavailable } from './errors.js';
import type { Gateway } from './types.js';

/**
 * Why the gateway is unhealthy, as /healthz shows it: a fixed code, never the gateway's own text (which may quote
 * our request, credential included) and never its URL (health checks are unauthenticated).
 */
export type GatewayHealthReason = 'timeout' | 'refused' | 'http_5xx' | 'bad_reply' | 'rejected';

export interface GatewayHealth {
  ok: boolean;
  at: Date;
  reason?: GatewayHealthReason;
}

export function healthReasonOf(error: unknown): GatewayHealthReason {
  if (error instanceof GatewayRejected) return 'rejected';
  if (!(error instanceof GatewayUnavailable)) return 'bad_reply';
  switch (error.reason) {
    case 'timeout':
    case 'connect-timeout':
    // The probe's own deadline ran out first.
    case 'aborted':
      return 'timeout';
    case 'refused':
    case 'dns':
    case 'network':
    case 'closing':
      return 'refused';
    case 'http-status':
      // A 4xx is the gateway (or a proxy in front of it) refusing the request, often our credential.
      return (error.httpStatus ?? 500) >= 500 ? 'http_5xx' : 'rejected';
    case 'not-json':
    case 'malformed':
      return 'bad_reply';
  }
}

/** Gateway reachability for /healthz; `warmUp()` starts a first probe in the background. */
export interface GatewayProbe {
  /**
   * The last probe's answer, at once: a /healthz never waits long on the gateway once it has answered (or
   * failed) once. An answer older than the interval starts a new probe in the background, whose answer the next
   * check shows; one older than two intervals waits up to half a second for it. Only before any answer is there
   * nothing to show: then the first probe is waited for (at most its timeout).
   */
  (): Promise<GatewayHealth>;
  /**
   * Probes now, without waiting: at start, so that the first connection, and the first run of the client's
   * code, happen while the process is still starting, and a first /healthz has an answer to show. That answer
   * is not taken as fresh: the first check after it asks again in the background, so a gateway that failed since
   * start is shown by the check after that.
   */
  warmUp(): void;
}

/**
 * An answer older than this many intervals (checks far apart: a monitor every few minutes) is not shown while a
 * quick gateway can give a new one: the check waits up to STALE_WAIT_MS for the refresh it starts.
 */
const STALE_AFTER_INTERVALS = 2;
const STALE_WAIT_MS = 500;

/**
 * Gateway reachability for /healthz, probed at most every `everyMs`, in the background, so health checks never
 * load the gateway and never take its time: with a gateway answering in 2 s, a /healthz that waited for a probe
 * took 2 s every `everyMs`, past the 1 s an orchestrator's readiness check allows by default, and the instance
 * was taken out of service for a slow third party. The answer shown is at most one interval old for checks
 * that come at least that often; for rarer checks, at most STALE_WAIT_MS of waiting brings a fresh one.
 */
export function gatewayProbe(
  gateway: Pick<Gateway, 'getSenders'>,
  options: { everyMs?: number; timeoutMs?: number; now?: () => number; staleWaitMs?: number } = {},
): GatewayProbe {
  const everyMs = options.everyMs ?? 30_000;
  const timeoutMs = options.timeoutMs ?? 3_000;
  const now = options.now ?? Date.now;
  const staleWaitMs = options.staleWaitMs ?? STALE_WAIT_MS;
  let last: GatewayHealth | undefined;
  /** Until when `last` needs no new probe; 0 for the warm-up's, so the first check after start asks again. */
  let freshUntil = 0;
  let inFlight: Promise<GatewayHealth> | undefined;
  const run = (fresh: boolean): Promise<GatewayHealth> => {
    inFlight ??= gateway
      .getSenders({ signal: AbortSignal.timeout(timeoutMs) })
      .then(
        (): GatewayHealth => ({ ok: true, at: new Date(now()) }),
        (error: unknown): GatewayHealth => ({
          ok: false,
          at: new Date(now()),
          reason: healthReasonOf(error),
        }),
      )
      .then((health) => {
        last = health;
        freshUntil = fresh ? health.at.getTime() + everyMs : 0;
        inFlight = undefined;
        return health;
      });
    return inFlight;
  };
  const probe = async () => {
    if (!last) return run(true);
    const at = now();
    if (at < freshUntil) return last;
    const refresh = run(true);
    if (at - last.at.getTime() <= STALE_AFTER_INTERVALS * everyMs) return last;
    const shown = last;
    return within(refresh, staleWaitMs, () => last ?? shown, { unref: true });
  };
  return Object.assign(probe, { warmUp: () => void run(false) });
}
