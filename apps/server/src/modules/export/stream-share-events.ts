import { SERVER_EVENTS, SHARE_STREAM_EVENTS, type TRunEvent } from "@cohort/contracts";
import type { Realtime } from "../../platform/realtime";
import { chatRoom, shareRoom, userRoom } from "../../platform/realtime-rooms";
import type { SseStream } from "../../platform/sse";
import { type RunEventLogDeps, readRunEvents } from "../orchestration/run-events";
import { shareStillWorks } from "./find-working-share";
import { shareEvent } from "./share-projection";
import type { ShareRow } from "./share-row";

/** Sent to a link's room when it is revoked: its streams on every instance end at once. */
export const SHARE_GONE = "share.gone";

/**
 * Whether the link still works (not revoked or expired, its creator still able to read the
 * session) is asked again before events go out when the last answer is older than this,
 * and on a quiet stream every IDLE_CHECK_MS: a link that lost its creator's access shows
 * nothing new after a second (decision 051). Revocation and the creator's own workspace
 * changes arrive through rooms and are checked at once.
 */
const EVENT_CHECK_MS = 1000;
const IDLE_CHECK_MS = 5000;
const PAGE = 1000;

export interface ShareStreamDeps extends Pick<RunEventLogDeps, "db" | "events"> {
  realtime: Pick<Realtime, "listenToRoom">;
}

/**
 * Sends the session's run events after `after` as `run` messages until the viewer leaves,
 * the server shuts down, or the link stops working: then one `end` message and the stream
 * closes. The events come
 * from the session's room, as a socket gets them (this process's at once, the other
 * instances' through the adapter's channel); the database is read only for the backlog
 * and to fill a gap in the numbers. Read-only: nothing a viewer sends reaches the session.
 */
export async function streamShareEvents(
  deps: ShareStreamDeps,
  stream: SseStream,
  input: { share: ShareRow; after: number; closing: AbortSignal },
): Promise<void> {
  const { share } = input;
  // The viewer left, or the server is shutting down (the page reconnects to another instance).
  const signal = AbortSignal.any([stream.clientGone, input.closing]);
  let cursor = input.after;
  let queued: TRunEvent[] = [];
  let recheck = false;
  let wake: (() => void) | null = null;
  const nudge = () => wake?.();
  /** Until an event, a recheck, the idle tick or the viewer leaving. */
  const waitForNews = () =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener("abort", done);
        wake = null;
        resolve();
      };
      const timer = setTimeout(done, IDLE_CHECK_MS);
      signal.addEventListener("abort", done, { once: true });
      wake = done;
    });
  const stops: (() => void)[] = [];
  const listen = async (room: string, listener: (event: string, payload: unknown) => void) => {
    stops.push(await deps.realtime.listenToRoom(room, listener));
  };

  try {
    // Listening first and reading the backlog after leaves no gap: an event is heard, read,
    // or both (the cursor drops the second copy).
    await listen(chatRoom(share.session_id), (event, payload) => {
      if (event !== SERVER_EVENTS.runEvent) return;
      queued.push(payload as TRunEvent);
      nudge();
    });
    await listen(shareRoom(share.id), (event) => {
      if (event !== SHARE_GONE) return;
      recheck = true;
      nudge();
    });
    if (share.created_by !== null) {
      await listen(userRoom(share.created_by), (event) => {
        if (event !== SERVER_EVENTS.workspaceChanged) return;
        recheck = true;
        nudge();
      });
    }
    // Tells the viewer the stream is on (and the headers go out now, not with a first event).
    stream.send(SHARE_STREAM_EVENTS.open, { after: cursor });

    const send = (event: TRunEvent) => {
      cursor = event.seq;
      const data = shareEvent(event, share);
      if (data !== null) stream.send(SHARE_STREAM_EVENTS.run, data);
    };
    /** Stored (and, send first, in flight) events after the cursor. */
    const catchUp = async () => {
      for (;;) {
        const page = await readRunEvents(deps, share.session_id, cursor, PAGE);
        for (const event of page.events) if (event.seq > cursor) send(event);
        if (!page.has_more) return;
      }
    };

    let checkedAt = Date.now();
    await catchUp();
    while (!signal.aborted) {
      if (queued.length === 0 && !recheck) {
        await waitForNews();
        if (signal.aborted) return;
      }
      const idle = queued.length === 0;
      if (recheck || idle || Date.now() - checkedAt >= EVENT_CHECK_MS) {
        recheck = false;
        if (!(await shareStillWorks(deps.db, share.id))) {
          stream.send(SHARE_STREAM_EVENTS.end, { reason: "gone" });
          return;
        }
        checkedAt = Date.now();
      }
      const batch = queued.sort((a, b) => a.seq - b.seq);
      queued = [];
      for (const event of batch) {
        if (event.seq <= cursor) continue;
        // A number skipped (an event this instance did not hear): the store has it.
        if (event.seq > cursor + 1) await catchUp();
        if (event.seq > cursor) send(event);
      }
    }
  } catch (error) {
    if (!signal.aborted) throw error;
  } finally {
    for (const stop of stops) stop();
    stream.end();
  }
}
