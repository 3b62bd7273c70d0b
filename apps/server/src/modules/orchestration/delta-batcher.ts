/**
 * Gathers streamed text into fewer, larger events, without holding text back from a reader:
 * a piece that comes after a quiet spell goes out in the same turn of the event loop (with
 * whatever else of the lane arrived in that turn); pieces that follow closer than
 * `intervalMs` to the last event wait for the interval and go out together. So a model that
 * streams a chunk every 20 ms or more sends each at once, one at 10 ms sends every other
 * chunk at once and the next at most 10 ms late (half the events), and one that sends
 * hundreds a second costs at most one stored row and socket packet per lane per interval.
 * A full buffer (`maxChars`) goes at once.
 *
 * The earlier fixed 50 ms window made the first chunk of every window wait up to 50 ms, as
 * long as the whole latency budget from provider to client.
 */
export interface DeltaBatcher {
  push(text: string): void;
  /** Sends what is waiting now (before the call's done event, so order holds). */
  close(): void;
}

export const DELTA_INTERVAL_MS = 20;
export const DELTA_MAX_CHARS = 2000;

export function createDeltaBatcher(
  send: (text: string) => void,
  options: { intervalMs?: number; maxChars?: number } = {},
): DeltaBatcher {
  const intervalMs = options.intervalMs ?? DELTA_INTERVAL_MS;
  const maxChars = options.maxChars ?? DELTA_MAX_CHARS;
  let buffer = "";
  let lastSent = Number.NEGATIVE_INFINITY;
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
    lastSent = Date.now();
    send(text);
  };
  return {
    push(text) {
      buffer += text;
      if (buffer.length >= maxChars) {
        flush();
        return;
      }
      if (timer || immediate) return;
      const wait = lastSent + intervalMs - Date.now();
      if (wait > 0) timer = setTimeout(flush, wait);
      else immediate = setImmediate(flush);
    },
    close: flush,
  };
}
