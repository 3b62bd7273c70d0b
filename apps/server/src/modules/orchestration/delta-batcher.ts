/**
 * Gathers streamed text into fewer, larger events: one every `intervalMs`, or at once when
 * `maxChars` are waiting. Models send a delta every few tokens; an event per delta would
 * multiply stored rows and socket packets without showing anything sooner to a reader.
 */
export interface DeltaBatcher {
  push(text: string): void;
  /** Sends what is waiting now (before the call's done event, so order holds). */
  close(): void;
}

export const DELTA_INTERVAL_MS = 50;
export const DELTA_MAX_CHARS = 2000;

export function createDeltaBatcher(
  send: (text: string) => void,
  options: { intervalMs?: number; maxChars?: number } = {},
): DeltaBatcher {
  const intervalMs = options.intervalMs ?? DELTA_INTERVAL_MS;
  const maxChars = options.maxChars ?? DELTA_MAX_CHARS;
  let buffer = "";
  let timer: NodeJS.Timeout | null = null;
  const flush = () => {
    if (timer) {
      clearTimeout(timer);
      timer = null;
    }
    if (buffer.length === 0) return;
    const text = buffer;
    buffer = "";
    send(text);
  };
  return {
    push(text) {
      buffer += text;
      if (buffer.length >= maxChars) flush();
      else timer ??= setTimeout(flush, intervalMs);
    },
    close: flush,
  };
}
