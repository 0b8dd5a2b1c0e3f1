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
  (): Promise<GatewayHealth>;
  /**
   * Probes now, without waiting: at start, so the first connection, and the first run of the client's code,
   * happen while the process is still starting rather than inside the first /healthz. Its answer serves a
   * /healthz that arrives while it runs; once it has ended it is not taken as fresh, so a /healthz after
   * that probes anew, as it always did (a gateway that failed since start is reported at once).
   */
  warmUp(): void;
}

/** Gateway reachability for /healthz, probed at most every `everyMs` so health checks never load the gateway. */
export function gatewayProbe(
  gateway: Pick<Gateway, 'getSenders'>,
  options: { everyMs?: number; timeoutMs?: number } = {},
): GatewayProbe {
  const everyMs = options.everyMs ?? 30_000;
  const timeoutMs = options.timeoutMs ?? 3_000;
  let last: GatewayHealth | undefined;
  /** Until when `last` answers without a new probe; 0 for the warm-up's answer. */
  let freshUntil = 0;
  let inFlight: Promise<GatewayHealth> | undefined;
  const run = (fresh: boolean): Promise<GatewayHealth> => {
    inFlight ??= gateway
      .getSenders({ signal: AbortSignal.timeout(timeoutMs) })
      .then(
        (): GatewayHealth => ({ ok: true, at: new Date() }),
        (error: unknown): GatewayHealth => ({ ok: false, at: new Date(), reason: healthReasonOf(error) }),
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
    if (inFlight) return inFlight;
    if (last && Date.now() <= freshUntil) return last;
    return run(true);
  };
  return Object.assign(probe, { warmUp: () => void run(false) });
}
