/**
 * Collects what arrives (run events) and hands it over once per animation frame, however
 * fast it comes: one render per frame, not one per token.
 */
export function createFrameBatch<T>(apply: (items: T[]) => void) {
  let queue: T[] = [];
  let frame: number | null = null;
  const flush = () => {
    frame = null;
    const items = queue;
    queue = [];
    if (items.length > 0) apply(items);
  };
  return {
    push(...items: T[]) {
      queue.push(...items);
      frame ??= requestAnimationFrame(flush);
    },
    /** Drops what waits (a fresh read replaces it). */
    clear() {
      queue = [];
    },
    /** Drops what waits and the frame asked for. */
    stop() {
      if (frame !== null) cancelAnimationFrame(frame);
      frame = null;
      queue = [];
    },
  };
}
