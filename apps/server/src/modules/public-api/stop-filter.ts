/**
 * OpenAI's `stop`: the answer ends before the first of these strings. Text is let through as
 * soon as it can no longer be the start of one, so a stop split across two deltas is still
 * caught and never shown, and the rest of the text streams without waiting.
 */
export interface StopFilter {
  /** The next delta; returns what may be shown now. */
  push(delta: string): string;
  /** The call ended: what was held back (empty once a stop was found). */
  flush(): string;
  readonly stopped: boolean;
}

export function createStopFilter(stops: readonly string[]): StopFilter {
  const longest = Math.max(0, ...stops.map((s) => s.length));
  let held = "";
  let stopped = false;
  return {
    get stopped() {
      return stopped;
    },
    push(delta) {
      if (stopped) return "";
      if (longest === 0) return delta;
      held += delta;
      const at = Math.min(...stops.map((s) => held.indexOf(s)).filter((i) => i >= 0));
      if (Number.isFinite(at)) {
        stopped = true;
        const shown = held.slice(0, at);
        held = "";
        return shown;
      }
      // A stop could still begin in the last (longest − 1) characters: keep them back.
      const safe = Math.max(0, held.length - (longest - 1));
      const shown = held.slice(0, safe);
      held = held.slice(safe);
      return shown;
    },
    flush() {
      const rest = stopped ? "" : held;
      held = "";
      return rest;
    },
  };
}
