/**
 * Counts occurrences per key and reports each key at most once per window: the first occurrence at once,
 * the ones after it as a count when the window ends. For events outsiders can cause at will (refused
 * requests), so that they cannot flood the log.
 */
export function throttledCounter<K extends string>(
  windowMs: number,
  report: (key: K, count: number) => void,
): { note: (key: K) => void; flush: () => void } {
  const pending = new Map<K, number>();
  const quietUntil = new Map<K, number>();
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    for (const [key, count] of pending) report(key, count);
    pending.clear();
  };
  const note = (key: K) => {
    const now = Date.now();
    if (now >= (quietUntil.get(key) ?? 0)) {
      quietUntil.set(key, now + windowMs);
      report(key, 1);
      return;
    }
    pending.set(key, (pending.get(key) ?? 0) + 1);
    if (!timer) {
      timer = setTimeout(flush, Math.max(0, (quietUntil.get(key) ?? now) - now));
      timer.unref();
    }
  };
  return { note, flush };
}
