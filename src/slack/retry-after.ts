import { webApi } from '@slack/bolt';

/** Longest a call waits out Slack's Retry-After in all before its 429 is handed back. */
const DEFAULT_MAX_WAIT_MS = 30_000;

interface RateLimited {
  code?: string;
  retryAfter?: number;
}

/**
 * Runs a Web API call, waiting out Slack's Retry-After on a 429 and trying again, for this call alone. The app's
 * WebClient hands 429s back (rejectRateLimitedCalls) instead of pausing its whole queue, which would hold every
 * other call behind one method's limit: a views.open waiting there would miss its 3-second trigger.
 */
export async function withRetryAfter<T>(
  call: () => Promise<T>,
  options: { maxWaitMs?: number; signal?: AbortSignal } = {},
): Promise<T> {
  let budget = options.maxWaitMs ?? DEFAULT_MAX_WAIT_MS;
  for (;;) {
    try {
      return await call();
    } catch (error) {
      const e = error as RateLimited;
      const waitMs = Math.max(1, e.retryAfter ?? 1) * 1000;
      if (e.code !== webApi.ErrorCode.RateLimitedError || waitMs > budget || options.signal?.aborted)
        throw error;
      budget -= waitMs;
      await new Promise((resolve) => setTimeout(resolve, waitMs));
    }
  }
}

export function isRateLimited(error: unknown): error is RateLimited {
  return (error as RateLimited).code === webApi.ErrorCode.RateLimitedError;
}
