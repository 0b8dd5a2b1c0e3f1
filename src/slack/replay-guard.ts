/**
 * Remembers every verified request (its timestamp and signature) for as long as its timestamp is
 * accepted, so the same signed request delivered twice runs once. Slack signs each delivery anew,
 * retries included, so only a copy of a request ever repeats both.
 *
 * The memory is bounded: past `capacity` the oldest request is forgotten first. It is per process; a
 * copy that reaches another instance behind the same load balancer is not caught here.
 */
export class ReplayGuard {
  /** Key → the moment (ms) its timestamp leaves the window. Insertion order is arrival order. */
  private readonly seen = new Map<string, number>();

  constructor(private readonly options: { windowSeconds: number; capacity: number; now?: () => number }) {}

  get size(): number {
    return this.seen.size;
  }

  /** True the first time this (timestamp, signature) arrives; false for a repeat. */
  firstDelivery(timestampSec: number, signature: string): boolean {
    const now = this.options.now?.() ?? Date.now();
    this.forgetExpired(now);
    const key = `${timestampSec}:${signature}`;
    if (this.seen.has(key)) return false;
    if (this.seen.size >= this.options.capacity) {
      const oldest = this.seen.keys().next().value;
      if (oldest !== undefined) this.seen.delete(oldest);
    }
    this.seen.set(key, (timestampSec + this.options.windowSeconds) * 1000);
    return true;
  }

  private forgetExpired(now: number): void {
    // Arrival order is close to timestamp order; stopping at the first live entry keeps this O(expired).
    for (const [key, expiresAt] of this.seen) {
      if (expiresAt >= now) return;
      this.seen.delete(key);
    }
  }
}
