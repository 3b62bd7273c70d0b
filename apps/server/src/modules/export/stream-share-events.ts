import { setTimeout as sleep } from "node:timers/promises";
import { hideCosts, SHARE_STREAM_EVENTS, type TRunEvent } from "@cohort/contracts";
import type { SseStream } from "../cochat/sse-stream";
import { type RunEventLogDeps, readRunEvents } from "../orchestration/run-events";
import { shareStillWorks } from "./find-working-share";
import type { ShareRow } from "./share-row";

/**
 * How often a live viewer's stream reads the session's events and asks whether the link
 * still works. The reads are the same as a run follower's (in-flight events of this
 * process, stored ones of any instance); a third of a second is below what a reader
 * notices and two cheap statements per poll per viewer.
 */
const POLL_MS = 300;
const PAGE = 1000;

/** The event as the link may show it; null for what a viewer never gets. */
function shareable(event: TRunEvent, share: ShareRow): unknown {
  if (share.run_id !== null && event.run_id !== share.run_id) return null;
  // The paying account's balance is nobody else's business, costs shared or not.
  if (event.type === "credits.changed") return null;
  return share.show_costs ? event : hideCosts(event);
}

/**
 * Sends the session's run events after `after` as `run` messages until the viewer leaves
 * or the link stops working (revoked, expired, its session deleted), which is checked on
 * every poll: then one `end` message and the stream closes. Read-only: nothing a viewer
 * sends reaches the session.
 */
export async function streamShareEvents(
  deps: Pick<RunEventLogDeps, "db" | "events">,
  stream: SseStream,
  input: { share: ShareRow; after: number },
): Promise<void> {
  const { share } = input;
  const signal = stream.clientGone;
  let cursor = input.after;
  // Tells the viewer the stream is on (and the headers go out now, not with a first event).
  stream.send(SHARE_STREAM_EVENTS.open, { after: cursor });
  try {
    while (!signal.aborted) {
      if (!(await shareStillWorks(deps.db, share.id))) {
        stream.send(SHARE_STREAM_EVENTS.end, { reason: "gone" });
        return;
      }
      const page = await readRunEvents(deps, share.session_id, cursor, PAGE);
      for (const event of page.events) {
        cursor = event.seq;
        const data = shareable(event, share);
        if (data !== null) stream.send(SHARE_STREAM_EVENTS.run, data);
      }
      if (!page.has_more) await sleep(POLL_MS, undefined, { signal });
    }
  } catch (error) {
    if (!signal.aborted) throw error;
  } finally {
    stream.end();
  }
}
