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

/** Gateway reachability for /healthz, probed at most every `everyMs` so health checks never load the gateway. */
export function gatewayProbe(
  gateway: Pick<Gateway, 'getSenders'>,
  options: { everyMs?: number; timeoutMs?: number } = {},
): () => Promise<GatewayHealth> {
  const everyMs = options.everyMs ?? 30_000;
  const timeoutMs = options.timeoutMs ?? 3_000;
  let last: GatewayHealth | undefined;
  let inFlight: Promise<void> | undefined;
  return async () => {
    if (!last || Date.now() - last.at.getTime() > everyMs) {
      inFlight ??= gateway
        .getSenders({ signal: AbortSignal.timeout(timeoutMs) })
        .then(() => {
          last = { ok: true, at: new Date() };
        })
        .catch((error: unknown) => {
          last = { ok: false, at: new Date(), reason: healthReasonOf(error) };
        })
        .finally(() => {
          inFlight = undefined;
        });
      await inFlight;
    }
    return last!;
  };
}
