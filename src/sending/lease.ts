import { hostname } from 'node:os';
import type { Logger } from '../log.js';
import type { Store } from '../store/index.js';

/**
 * A pending send is claimed by the instance whose gateway call is in flight. While the call runs, however
 * slowly the gateway answers, the owner renews the claim every quarter of `ttlMs`; only a send whose claim
 * ran out (its owner crashed, was killed or lost the store) is taken for abandoned, by any instance.
 */
export interface SendLease {
  /** Names this instance in the outbox; shown to nobody, kept for the operator. */
  owner: string;
  ttlMs: number;
}

/**
 * Twice the gateway timeout plus 10 s: the threshold a pending send had before leases, now counted from
 * its owner's last renewal instead of from its creation. Renewals come every quarter of it, so instances
 * whose clocks differ by up to three quarters of it still agree that a live send is alive.
 */
export function sendLeaseMs(gatewayTimeoutMs: number): number {
  return gatewayTimeoutMs * 2 + 10_000;
}

export function defaultSendLease(): SendLease {
  return { owner: `${hostname()}:${process.pid}`, ttlMs: sendLeaseMs(15_000) };
}

/** Renews the claim on one pending send until stopped. A failed renewal is logged and tried again. */
export function keepLease(
  store: Store,
  outboxId: number,
  lease: SendLease,
  now: () => Date,
  logger: Logger,
): { stop(): void } {
  let renewing = false;
  const timer = setInterval(
    () => {
      if (renewing) return;
      renewing = true;
      store.outbox
        .renewLease(outboxId, lease.owner, new Date(now().getTime() + lease.ttlMs))
        .catch((error: unknown) =>
          logger.warn(
            { outboxId, err: error instanceof Error ? error.message : String(error) },
            'send lease not renewed; the send may be taken for abandoned and shown as state unknown',
          ),
        )
        .finally(() => {
          renewing = false;
        });
    },
    Math.max(50, Math.floor(lease.ttlMs / 4)),
  );
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
