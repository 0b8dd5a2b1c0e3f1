import type { Gateway } from '../gateway/index.js';
import type { Health as StoreHealth } from '../store/index.js';
import type { HealthReport } from './server.js';

export interface GatewayReachability {
  ok: boolean;
  at: Date;
  reason?: string;
}

/** Gateway reachability for /healthz, probed at most every 30 s so health checks never load the gateway. */
export function gatewayProbe(gateway: Pick<Gateway, 'getSenders'>): () => Promise<GatewayReachability> {
  let last: GatewayReachability | undefined;
  let inFlight: Promise<void> | undefined;
  return async () => {
    if (!last || Date.now() - last.at.getTime() > 30_000) {
      inFlight ??= gateway
        .getSenders({ signal: AbortSignal.timeout(3_000) })
        .then(() => {
          last = { ok: true, at: new Date() };
        })
        .catch((error: unknown) => {
          last = {
            ok: false,
            at: new Date(),
            reason: error instanceof Error ? error.message : String(error),
          };
        })
        .finally(() => {
          inFlight = undefined;
        });
      await inFlight;
    }
    return last!;
  };
}

export interface HealthSources {
  store: { health(): Promise<StoreHealth> };
  gateway: () => Promise<GatewayReachability>;
  simulated: boolean;
  lastInboundPoll: () => Date | undefined;
}

/** What GET /healthz answers: healthy while the store is; a gateway that cannot be reached only degrades it. */
export function healthReporter(sources: HealthSources): () => Promise<HealthReport> {
  return async () => {
    const [storeHealth, gatewayHealth] = await Promise.all([sources.store.health(), sources.gateway()]);
    return {
      ok: storeHealth.ok,
      store: storeHealth,
      gateway: {
        reachable: gatewayHealth.ok,
        checkedAt: gatewayHealth.at,
        reason: gatewayHealth.reason,
        simulated: sources.simulated,
      },
      degraded: !gatewayHealth.ok,
      lastInboundPoll: sources.lastInboundPoll() ?? null,
    };
  };
}
