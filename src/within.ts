/**
 * `work`'s value, or `fallback()`'s once `ms` have passed without it settling (a rejection of `work` is the
 * caller's). The timer is cleared either way; `unref` lets the process exit while it still runs.
 */
export async function within<T, F>(
  work: Promise<T>,
  ms: number,
  fallback: () => F,
  options: { unref?: boolean } = {},
): Promise<T | F> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<F>((resolve) => {
    timer = setTimeout(() => resolve(fallback()), ms);
    if (options.unref) timer.unref();
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}
