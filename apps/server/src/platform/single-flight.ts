/**
 * Wraps `fn` so that calls made while one is in flight, or within `reuseMs` after it settled,
 * share its result instead of starting another.
 */
export function singleFlight<R>(fn: () => Promise<R>, reuseMs = 0): () => Promise<R> {
  let current: Promise<R> | null = null;
  let settledAt = 0;
  return () => {
    if (current && (settledAt === 0 || Date.now() - settledAt < reuseMs)) return current;
    settledAt = 0;
    const call = fn().finally(() => {
      settledAt = Date.now();
      if (reuseMs === 0 && current === call) current = null;
    });
    current = call;
    return call;
  };
}
