import { isRunActive, type TRunEvent, type TSession, type TToolApproval } from "@cohort/contracts";
import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import { isApiError } from "../../lib/api/api-error";
import { prefetchedOr } from "../../lib/api/boot-prefetch";
import { createFrameBatch } from "../../lib/dom/frame-batch";
import { socketSessionTransport } from "../../lib/realtime/realtime-client";
import { startSessionFeed } from "../../lib/realtime/session-feed";
import { useRealtimeConnection } from "../../lib/realtime/use-realtime";
import { logger } from "../../lib/telemetry/logger";
import { listApprovals } from "./approvals-api";
import { chatKeys, listEarlierRuns, listSessionEvents } from "./chat-api";
import {
  addSentMessage,
  applyApprovalDecision,
  applyRunEvents,
  type ConversationState,
  conversationFromDetail,
  EMPTY_CONVERSATION,
  mergeEarlierRuns,
  mergePendingApprovals,
} from "./run-state";
import { getSessionDetail, RUNS_PAGE, sessionOpenPrefetchKey } from "./session-detail-api";

export type ConversationLoad =
  | { status: "loading" }
  | { status: "missing" }
  | { status: "error"; message: string }
  | { status: "ready" };

/**
 * The runs older than those in full (decision 077): the run to read before, and how that
 * goes. Null: the page holds every run.
 */
export interface EarlierRuns {
  before: string;
  loading: boolean;
  error: string | null;
}

/**
 * One session's conversation, live: the stored detail first, then every run event after it
 * (HTTP backfill, then the socket room, resumed after reconnects). A reload mid-run replays
 * the run from its first event, so nothing streamed so far is lost. Events are applied once
 * per animation frame, however fast the tokens come.
 */
export function useConversation(sessionId: string) {
  useRealtimeConnection();
  const queryClient = useQueryClient();
  const [load, setLoad] = useState<ConversationLoad>({ status: "loading" });
  const [session, setSession] = useState<TSession | null>(null);
  const [state, setState] = useState<ConversationState>(EMPTY_CONVERSATION);
  const [attempt, setAttempt] = useState(0);
  const [earlier, setEarlier] = useState<EarlierRuns | null>(null);
  /** Bumped by every (re)load: a page of earlier runs asked for before it is dropped. */
  const generation = useRef(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` restarts the load (Retry)
  useEffect(() => {
    const abort = new AbortController();
    let stop: (() => void) | null = null;
    setLoad({ status: "loading" });
    setSession(null);
    setState(EMPTY_CONVERSATION);
    setEarlier(null);

    const batch = createFrameBatch<TRunEvent>((events) => {
      setState((current) => applyRunEvents(current, events));
      let ended = false;
      for (const event of events) {
        if (event.type === "credits.changed") {
          setSession((s) => (s ? { ...s, spent_credits: event.session_spent_credits } : s));
        }
        if (
          event.type === "run.completed" ||
          event.type === "run.failed" ||
          event.type === "run.cancelled"
        ) {
          ended = true;
        }
      }
      // The list shows recent activity; the profile's balance moved with the run.
      if (ended) void queryClient.invalidateQueries({ queryKey: chatKeys.sessions });
    });

    // Reads the session and follows it; again, in place, when the server lost the events
    // the page showed last (a crash of a one-process server mid-run: decision 048).
    // The first read may have been asked for while the page booted (decision 080).
    const open = () =>
      prefetchedOr(sessionOpenPrefetchKey(sessionId), () =>
        getSessionDetail(sessionId, abort.signal, RUNS_PAGE),
      ).then(
        (detail) => {
          if (abort.signal.aborted) return;
          batch.clear();
          generation.current += 1;
          const { state: initial, afterSeq } = conversationFromDetail(detail);
          setSession(detail.session);
          setState(initial);
          // The outlines come first (oldest first): the oldest run in full is the cursor.
          const oldestFull = detail.runs.find((run) => !run.outline);
          setEarlier(
            oldestFull && detail.runs.some((run) => run.outline)
              ? { before: oldestFull.id, loading: false, error: null }
              : null,
          );
          setLoad({ status: "ready" });
          // Requests still waiting (decision 059): also in the replayed events, but these are
          // read from the database, so a card survives even events a crash lost.
          if (detail.runs.some((run) => isRunActive(run.status))) {
            listApprovals(sessionId, abort.signal).then(
              ({ approvals }) => {
                if (!abort.signal.aborted) {
                  setState((current) => mergePendingApprovals(current, approvals));
                }
              },
              () => undefined,
            );
          }
          const feed = startSessionFeed({
            sessionId,
            afterSeq,
            fetchEvents: (after, signal) => listSessionEvents(sessionId, after, signal),
            transport: socketSessionTransport(),
            onEvents: (events) => batch.push(...events),
            onError: (error) => {
              logger.warn("Live updates for a session failed", {
                sessionId,
                cause: error instanceof Error ? error.message : String(error),
              });
            },
            onRewound: () => {
              if (!abort.signal.aborted) void open();
            },
          });
          stop = () => feed.stop();
        },
        (error: unknown) => {
          if (abort.signal.aborted) return;
          if (isApiError(error) && error.status === 404) setLoad({ status: "missing" });
          else {
            setLoad({
              status: "error",
              message: isApiError(error) ? error.message : "This session could not be loaded.",
            });
          }
        },
      );
    void open();

    return () => {
      abort.abort();
      stop?.();
      batch.stop();
    };
  }, [sessionId, attempt, queryClient]);

  const addSent = useCallback(
    (sent: {
      runId: string;
      messageId: string;
      content: string;
      /** The run the message follows (decision 070); absent: a message already known. */
      parentRunId?: string | null;
    }) => {
      setState((current) => {
        const next = addSentMessage(current, { ...sent, sessionId, at: new Date().toISOString() });
        const { parentRunId } = sent;
        if (parentRunId === undefined) return next;
        return {
          ...next,
          messages: next.messages.map((m) =>
            m.id === sent.messageId && m.parent_run_id === undefined
              ? { ...m, parent_run_id: parentRunId }
              : m,
          ),
        };
      });
    },
    [sessionId],
  );

  const retry = useCallback(() => setAttempt((n) => n + 1), []);

  /** Reads the next page of earlier runs in full (decision 077); one at a time. */
  const loadEarlier = useCallback(() => {
    if (!earlier || earlier.loading) return;
    const asked = generation.current;
    setEarlier({ ...earlier, loading: true, error: null });
    listEarlierRuns(sessionId, earlier.before).then(
      (page) => {
        if (asked !== generation.current) return;
        setState((current) => mergeEarlierRuns(current, page.runs));
        const first = page.runs[0];
        setEarlier(
          page.earlier && first ? { before: first.id, loading: false, error: null } : null,
        );
      },
      (error: unknown) => {
        if (asked !== generation.current) return;
        setEarlier({
          ...earlier,
          loading: false,
          error: isApiError(error) ? error.message : "The earlier runs could not be loaded.",
        });
      },
    );
  }, [earlier, sessionId]);

  /** An approval answered on this page: its card shows the outcome before the event comes. */
  const approvalDecided = useCallback((approval: TToolApproval) => {
    setState((current) => applyApprovalDecision(current, approval));
  }, []);

  return {
    load,
    session,
    setSession,
    state,
    addSent,
    retry,
    approvalDecided,
    earlier,
    loadEarlier,
  };
}
