import type { GatewayHealth } from '../gateway/index.js';
import type { Health as StoreHealth } from '../store/index.js';
import type { HealthReport } from './server.js';

export interface HealthSources {
  store: { health(): Promise<StoreHealth> };
  gateway: () => Promise<GatewayHealth>;
  simulated: boolean;
  lastInboundPoll: () => Date | undefined;
}

/**
 * What GET /healthz answers: healthy while the store is; a gateway that cannot be reached only degrades it.
 * Codes only: /healthz is unauthenticated, and the store's detail names the database's host.
 */
export function healthReporter(sources: HealthSources): () => Promise<HealthReport> {
  return async () => {
    const [storeHealth, gatewayHealth] = await Promise.all([sources.store.health(), sources.gateway()]);
    return {
      ok: storeHealth.ok,
      store: storeHealth.ok ? { ok: true } : { ok: false, reason: 'unreachable' },
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
