/**
 * Gathers streamed text into fewer, larger events: what arrives within one turn of the event
 * loop (or within `intervalMs`, when given) goes out as one piece, or at once when `maxChars`
 * are waiting. Models send a delta every few tokens; under load many of a lane's deltas are
 * read in the same turn, and an event per delta would multiply stored rows and socket packets
 * without showing anything sooner. Waiting longer than a turn would: a 50 ms window made the
 * first chunk of every window wait up to 50 ms, as long as the whole latency budget.
 */
export interface DeltaBatcher {
  push(text: string): void;
  /** Sends what is waiting now (before the call's done event, so order holds). */
  close(): void;
}

/** 0: coalesce within one turn of the event loop (setImmediate), the default. */
export const DELTA_INTERVAL_MS = 0;
export const DELTA_MAX_CHARS = 2000;

export function createDeltaBatcher(
  send: (text: string) => void,
  options: { intervalMs?: number; maxChars?: number } = {},
): DeltaBatcher {
  const intervalMs = options.intervalMs ?? DELTA_INTERVAL_MS;
  const maxChars = options.maxChars ?? DELTA_MAX_CHARS;
  let buffer = "";
  let timer: NodeJS.Timeout | null = null;
  let immediate: NodeJS.Immediate | null = null;
  const flush = () => {
    if (timer) {
      clearTimeout(timer);
      timer = null;
    }
    if (immediate) {
      clearImmediate(immediate);
      immediate = null;
    }
    if (buffer.length === 0) return;
    const text = buffer;
    buffer = "";
    send(text);
  };
  const schedule = () => {
    if (intervalMs > 0) timer ??= setTimeout(flush, intervalMs);
    else immediate ??= setImmediate(flush);
  };
  return {
    push(text) {
      buffer += text;
      if (buffer.length >= maxChars) flush();
      else schedule();
    },
    close: flush,
  };
}
