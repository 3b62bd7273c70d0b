import type {
  TRunEvent,
  TSessionDetailResponse,
  TSharedRunEvent,
  TSharedView,
} from "@cohort/contracts";
import { useEffect, useState } from "react";
import { isApiError } from "../../lib/api/api-error";
import { createFrameBatch } from "../../lib/dom/frame-batch";
import {
  applyRunEvents,
  type ConversationState,
  conversationFromDetail,
  EMPTY_CONVERSATION,
} from "../chat/run-state";
import { getSharedView, openShareStream } from "../share/share-api";

export type SharedLoad =
  | { status: "loading" }
  | { status: "missing" }
  | { status: "error"; message: string }
  | { status: "ready"; view: TSharedView };

/** After a stream stops: wait a little before asking again, so a failing stream cannot spin. */
const RETRY_AFTER_MS = 1_000;

/**
 * The chat screen's reducer reads a detail's messages, runs and last_seq only, so a shared
 * view goes through it as one. Its runs and events are the chat's with cost fields that may
 * be null (costs not shared): every view field the reducer fills from them takes null,
 * except the run total, which the shared page shows only with costs.
 */
function asDetail(view: TSharedView): TSessionDetailResponse {
  return {
    messages: view.messages,
    runs: view.runs,
    last_seq: view.last_seq,
  } as unknown as TSessionDetailResponse;
}

/**
 * A shared session or run: read once, and with a live link its run events after that over
 * server-sent events, applied once per animation frame. When the stream stops (the link
 * was revoked or expired, or the connection broke) the view is read again: a 404 shows
 * the link is gone; otherwise a new stream picks up from the fresh view.
 */
export function useSharedView(token: string) {
  const [load, setLoad] = useState<SharedLoad>({ status: "loading" });
  const [state, setState] = useState<ConversationState>(EMPTY_CONVERSATION);
  const [attempt, setAttempt] = useState(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` reads the view again
  useEffect(() => {
    const abort = new AbortController();
    let closeStream: (() => void) | null = null;
    let retry: ReturnType<typeof setTimeout> | null = null;
    let cursor = 0;
    const batch = createFrameBatch<TRunEvent>((events) =>
      setState((current) => applyRunEvents(current, events)),
    );
    const onEvent = (event: TSharedRunEvent) => {
      if (event.seq <= cursor) return;
      cursor = event.seq;
      batch.push(event as unknown as TRunEvent);
    };

    getSharedView(token, abort.signal).then(
      (view) => {
        const { state: initial, afterSeq } = conversationFromDetail(asDetail(view));
        cursor = afterSeq;
        setState(initial);
        setLoad({ status: "ready", view });
        if (!view.share.live) return;
        closeStream = openShareStream(token, afterSeq, {
          onEvent,
          onStop: () => {
            retry = setTimeout(() => setAttempt((n) => n + 1), RETRY_AFTER_MS);
          },
        });
      },
      (error: unknown) => {
        if (abort.signal.aborted) return;
        if (isApiError(error) && error.status === 404) setLoad({ status: "missing" });
        else setLoad({ status: "error", message: "The shared page could not be loaded." });
      },
    );
    return () => {
      abort.abort();
      closeStream?.();
      if (retry) clearTimeout(retry);
      batch.stop();
    };
  }, [token, attempt]);

  return { load, state, retry: () => setAttempt((n) => n + 1) };
}
