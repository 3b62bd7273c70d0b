import { setTimeout as sleep } from "node:timers/promises";
import type { TRunEvent, TRunEventOf } from "@cohort/contracts";
import { type RunEventLogDeps, readRunEvents } from "./run-events";

export type RunEnd = TRunEventOf<"run.completed" | "run.failed" | "run.cancelled">;

/**
 * How often a follower reads the session's events. The reads see in-flight events as soon as
 * the engine sends them (one process) and stored ones otherwise (any instance), so a run
 * executing on another instance is followed just the same; 200 ms is below what a person
 * notices in a progress line and a handful of cheap reads a second per followed run.
 */
const POLL_MS = 200;
const PAGE = 1000;

function isEnd(event: TRunEvent): event is RunEnd {
  return (
    event.type === "run.completed" || event.type === "run.failed" || event.type === "run.cancelled"
  );
}

/**
 * Reads a run's events after `after` (seq) in order, handing each to `onEvent`, until the
 * run's end event, which it returns. Rejects with the signal's reason once it aborts.
 */
export async function followRun(
  deps: Pick<RunEventLogDeps, "db" | "events">,
  input: {
    sessionId: string;
    runId: string;
    after: number;
    signal: AbortSignal;
    onEvent(event: TRunEvent): void;
  },
): Promise<RunEnd> {
  let cursor = input.after;
  for (;;) {
    input.signal.throwIfAborted();
    const page = await readRunEvents(deps, input.sessionId, cursor, PAGE);
    for (const event of page.events) {
      cursor = event.seq;
      if (event.run_id !== input.runId) continue;
      input.onEvent(event);
      if (isEnd(event)) return event;
    }
    if (!page.has_more) await sleep(POLL_MS, undefined, { signal: input.signal });
  }
}
