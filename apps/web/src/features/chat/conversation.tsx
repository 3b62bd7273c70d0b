import {
  ERROR_CODES,
  RUN_ERROR_CODES,
  SCROLL_TO_BOTTOM_THRESHOLD_PX,
  SESSION_ERROR_CODES,
  type TModel,
  type TRunFork,
  type TSession,
} from "@cohort/contracts";
import { useQueryClient } from "@tanstack/react-query";
import { type ReactNode, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import { useLocation } from "react-router";
import { useAuth } from "../../auth/use-auth";
import { Button, ButtonLink } from "../../components/button";
import { PageSpinner } from "../../components/spinner";
import { isApiError } from "../../lib/api/api-error";
import { useDocumentMeta } from "../../lib/dom/use-document-meta";
import { AGREEMENT_STATUS_QUERY_KEY } from "../agreement/agreement-api";
import { ArtifactsPanelButton, ArtifactsProvider } from "../artifacts/artifacts-provider";
import { useShowSessionWorkspace } from "../workspaces/charged-workspace";
import { useReadOnlyReason } from "../workspaces/use-read-only-reason";
import { createBranchTimeline } from "./branch-timeline";
import { BranchTurns } from "./branch-turns";
import { cancelRun, regenerateRun, sendChatMessage, showBranch } from "./chat-api";
import { Composer } from "./composer";
import { ComposerEstimate, RunAgainDialog } from "./cost-estimate";
import {
  type CreditRefusal,
  creditRefusalOf,
  REFUSAL_TITLES,
  RefusalAction,
} from "./credit-refusal";
import { EarlierRunsLoader } from "./earlier-runs";
import { ForkDialog, type ForkTarget } from "./fork-dialog";
import { ApprovalActionsContext } from "./lane-tools";
import { UserMessage } from "./run-card";
import { activeRunOf, firstLoadedTurn, rerunGoing } from "./run-state";
import { SessionHeader } from "./session-header";
import { firstMessageOf } from "./start-from-message";
import { sendRunMessage } from "./steering-api";
import { type ChatActions, ChatActionsContext } from "./step-versions";
import { useConversation } from "./use-conversation";
import { useRunAnnouncements } from "./use-run-announcements";

interface SendFailure {
  message: string;
  /** Refused for money (decision 054): the limit that bit, and its action beside it. */
  refusal?: CreditRefusal;
}

function describeSendFailure(
  error: unknown,
  session: TSession | null,
  userId: string | undefined,
): SendFailure {
  if (!isApiError(error)) return { message: "The message could not be sent. Please try again." };
  const refusal = creditRefusalOf(error.code, error.details, session, userId);
  if (refusal) return { message: error.message, refusal };
  switch (error.code) {
    case ERROR_CODES.agreementRequired:
      return { message: "Please accept the updated User Agreement to keep using Cohort." };
    case RUN_ERROR_CODES.runInProgress:
      return {
        message:
          "The team is still working on the previous message. Stop it or wait for the answer.",
      };
    default:
      return { message: error.message };
  }
}

/** Keeps the newest output in view while the reader is at the bottom (the product limits: 50 px). */
function useStickToBottom(dependency: unknown) {
  const atBottom = useRef(true);
  useEffect(() => {
    const onScroll = () => {
      const { scrollHeight } = document.documentElement;
      atBottom.current =
        window.innerHeight + window.scrollY >= scrollHeight - SCROLL_TO_BOTTOM_THRESHOLD_PX;
    };
    window.addEventListener("scroll", onScroll, { passive: true });
    return () => window.removeEventListener("scroll", onScroll);
  }, []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: follows every content change
  useLayoutEffect(() => {
    if (atBottom.current) window.scrollTo({ top: document.documentElement.scrollHeight });
  }, [dependency]);
  return () => {
    atBottom.current = true;
  };
}

/**
 * Keeps the reader's place when earlier turns are put above the first one on screen (decision
 * 077): where that turn was is read before the change is drawn (the page still shows the old
 * turns while this renders), and the page scrolls by however far it moved.
 */
function useKeepPlace(firstTurnId: string | undefined) {
  const shown = useRef(firstTurnId);
  const place = useRef<{ id: string; top: number } | null>(null);
  if (shown.current !== firstTurnId) {
    const before = shown.current;
    const node = before ? document.querySelector(`[data-turn-id="${before}"]`) : null;
    place.current = before && node ? { id: before, top: node.getBoundingClientRect().top } : null;
    shown.current = firstTurnId;
  }
  useLayoutEffect(() => {
    const kept = place.current;
    place.current = null;
    if (!kept || firstTurnId === undefined) return;
    const node = document.querySelector(`[data-turn-id="${kept.id}"]`);
    if (node) window.scrollBy({ top: node.getBoundingClientRect().top - kept.top });
  }, [firstTurnId]);
}

export function Conversation({
  sessionId,
  models,
  leading,
}: {
  sessionId: string;
  models: Map<string, TModel>;
  leading?: ReactNode;
}) {
  const queryClient = useQueryClient();
  const { user } = useAuth();
  const conversation = useConversation(sessionId);
  const { load, session, state, earlier } = conversation;
  const viewerReason = useReadOnlyReason(session?.workspace_id);
  useShowSessionWorkspace(session?.workspace_id);
  const [pending, setPending] = useState<{ content: string; at: string } | null>(null);
  const [failure, setFailure] = useState<SendFailure | null>(null);
  const [stopping, setStopping] = useState(false);
  const [runAgain, setRunAgain] = useState<string | null>(null);
  const [prefill, setPrefill] = useState<{ text: string; key: number } | null>(null);
  const announcement = useRunAnnouncements(state);
  // The branch on screen (decision 070): versions picked on this page win over stored times.
  const [picks, setPicks] = useState<Record<string, number>>({});
  const [localForks, setLocalForks] = useState<Record<string, TRunFork>>({});
  const [forkTarget, setForkTarget] = useState<ForkTarget | null>(null);
  const pick = (...ids: string[]) =>
    setPicks((current) => {
      const top = Math.max(0, ...Object.values(current));
      const next = { ...current };
      ids.forEach((id, i) => {
        next[id] = top + 1 + i;
      });
      return next;
    });
  const [timeline] = useState(createBranchTimeline);
  const turns = useMemo(
    () => timeline(state, picks, localForks),
    [timeline, state, picks, localForks],
  );
  // A long session shows the turns whose runs it holds in full (decision 077).
  const firstShown = earlier ? firstLoadedTurn(turns) : 0;
  const shownTurns = useMemo(() => turns.slice(firstShown), [turns, firstShown]);
  useKeepPlace(shownTurns[0]?.message.id);
  // A step's re-run counts as work going on: the box waits, and Stop stops it.
  const active =
    activeRunOf(state) ?? Object.values(state.runs).find((run) => rerunGoing(run)) ?? null;
  // Set by the new-session dialog: the composer takes the focus once the session shows.
  const location = useLocation();
  const focusComposer = (location.state as { focusComposer?: boolean } | null)?.focusComposer;
  // A session started by typing in the empty chat: its message goes out once it has loaded.
  const firstMessage = useRef(firstMessageOf(location.state));
  const sendRef = useRef<((text: string) => Promise<boolean>) | null>(null);
  const pinToBottom = useStickToBottom(state);
  useDocumentMeta({ title: session ? `${session.title} · Cohort Chat` : "Cohort Chat" });

  const blockedReason = !session
    ? null
    : (viewerReason ??
      (session.status === "active"
        ? null
        : session.status === "paused"
          ? "This session is paused. Resume it to send a message."
          : session.status === "completed"
            ? "This session is complete. Reopen it to send a message."
            : "This session is archived. Restore it to send a message."));
  const canStart = active === null && blockedReason === null && pending === null;
  // The contexts' values change only when what they say changes: a new value would make React
  // visit every turn's tree on each streamed frame to find their readers (decision 077).
  const actions = useMemo<ChatActions | null>(
    () =>
      session && {
        sessionId: session.id,
        canStart,
        // Asked first, with the new run's estimated cost.
        regenerate: (runId) => setRunAgain(runId),
        edit: (text) => setPrefill((p) => ({ text, key: (p?.key ?? 0) + 1 })),
        session,
        onSessionChange: conversation.setSession,
        fork: (run, lane) => setForkTarget({ run, lane }),
      },
    [session, canStart, conversation.setSession],
  );
  const approvalActions = useMemo(
    () => ({
      sessionId,
      canDecide: viewerReason === null,
      onDecided: conversation.approvalDecided,
    }),
    [sessionId, viewerReason, conversation.approvalDecided],
  );

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new session starts clean
  useEffect(() => {
    setPending(null);
    setFailure(null);
    setStopping(false);
  }, [sessionId]);

  useEffect(() => {
    if (!active) setStopping(false);
  }, [active]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the session has loaded
  useEffect(() => {
    const text = firstMessage.current;
    if (!text || !session || !sendRef.current) return;
    firstMessage.current = null;
    window.history.replaceState({ ...window.history.state, usr: null }, "");
    const send = sendRef.current;
    void send(text).then((sent) => {
      if (!sent) setPrefill((p) => ({ text, key: (p?.key ?? 0) + 1 }));
    });
  }, [session?.id]);

  if (load.status === "loading") return <PageSpinner label="Loading the session…" />;
  if (load.status === "missing") {
    return (
      <div className="mx-auto grid max-w-md gap-3 px-6 py-16 text-center">
        <h1 className="text-xl font-bold text-ink-950">This session does not exist</h1>
        <p className="text-sm text-ink-600">It may have been deleted, or the link is wrong.</p>
        <ButtonLink to="/chat" variant="outline" className="justify-self-center">
          Back to your sessions
        </ButtonLink>
      </div>
    );
  }
  if (load.status === "error" || !session) {
    return (
      <div className="mx-auto grid max-w-md gap-3 px-6 py-16 text-center" role="alert">
        <h1 className="text-xl font-bold text-ink-950">The session could not be loaded</h1>
        <p className="text-sm text-ink-600">{load.status === "error" ? load.message : null}</p>
        <Button variant="outline" onClick={conversation.retry} className="justify-self-center">
          Try again
        </Button>
      </div>
    );
  }

  const send = async (text: string): Promise<boolean> => {
    setFailure(null);
    setPending({ content: text, at: new Date().toISOString() });
    pinToBottom();
    try {
      const { run_id, message_id } = await sendChatMessage(session.id, text);
      conversation.addSent({
        runId: run_id,
        messageId: message_id,
        content: text,
        parentRunId: turns.at(-1)?.run?.id ?? null,
      });
      setPending(null);
      return true;
    } catch (error) {
      setPending(null);
      setFailure(describeSendFailure(error, session, user?.id));
      if (isApiError(error) && error.code === ERROR_CODES.agreementRequired) {
        void queryClient.invalidateQueries({ queryKey: AGREEMENT_STATUS_QUERY_KEY });
      }
      if (isApiError(error) && error.code === SESSION_ERROR_CODES.sessionNotActive)
        conversation.retry();
      return false;
    }
  };

  sendRef.current = send;

  const regenerate = async (runId: string) => {
    setFailure(null);
    pinToBottom();
    try {
      const { run_id, message_id } = await regenerateRun(runId);
      const message = state.messages.find((m) => m.id === message_id);
      conversation.addSent({
        runId: run_id,
        messageId: message_id,
        content: message?.content ?? "",
      });
      pick(run_id);
    } catch (error) {
      setFailure(describeSendFailure(error, session, user?.id));
    }
  };

  const showVersion = (kind: "message" | "run", id: string) => {
    pick(id);
    showBranch(session.id, kind, id).catch((error: unknown) => {
      setFailure({
        message: isApiError(error)
          ? error.message
          : "That version could not be shown. Please try again.",
      });
    });
  };

  const stop = async () => {
    if (!active) return;
    setStopping(true);
    try {
      await cancelRun(active.id);
    } catch (error) {
      setStopping(false);
      setFailure({
        message: isApiError(error)
          ? error.message
          : "The run could not be stopped. Please try again.",
      });
    }
  };

  const coordinator = models.get(session.coordinator_model);

  return (
    <div
      className="flex min-h-[calc(100dvh-3.5rem)] flex-col lg:min-h-dvh"
      data-testid="conversation"
    >
      <div className="z-20 lg:sticky lg:top-0">
        <SessionHeader
          session={session}
          coordinator={coordinator}
          runActive={active !== null}
          onSessionChange={conversation.setSession}
          leading={leading}
        />
      </div>
      <div className="sr-only" aria-live="polite" aria-atomic="true" data-testid="run-announcer">
        {announcement}
      </div>
      <div className="mx-auto w-full max-w-5xl flex-1 px-3 py-5 sm:px-6">
        <ArtifactsProvider state={state}>
          <div className="mb-3 flex justify-end empty:hidden">
            <ArtifactsPanelButton />
          </div>
          {turns.length === 0 && !pending ? (
            <div className="mx-auto mt-6 max-w-xl rounded-3xl border border-dashed border-ink-300 bg-white/60 px-6 py-10 text-center">
              <h2 className="text-lg font-bold text-ink-950">What should the team work on?</h2>
              <p className="mt-2 text-sm leading-6 text-ink-600">
                Describe a task below. The coordinator splits it between the Strategist, Coder,
                Designer and Critic; you watch each of them work, live, and get one combined answer.
              </p>
            </div>
          ) : null}
          <ChatActionsContext.Provider value={actions}>
            <ApprovalActionsContext.Provider value={approvalActions}>
              <ol className="grid grid-cols-1 gap-6" aria-label="Conversation">
                {earlier && firstShown > 0 ? (
                  <EarlierRunsLoader
                    hiddenTurns={firstShown}
                    earlier={earlier}
                    onLoad={conversation.loadEarlier}
                  />
                ) : null}
                <BranchTurns
                  turns={shownTurns}
                  models={models}
                  sessionId={session.id}
                  canStart={canStart}
                  onShow={showVersion}
                  onEdited={(sent) => {
                    conversation.addSent(sent);
                    pick(sent.messageId, sent.runId);
                    pinToBottom();
                  }}
                  onEditFailed={(error) => {
                    if (isApiError(error) && error.code === SESSION_ERROR_CODES.sessionNotActive) {
                      conversation.retry();
                    }
                  }}
                />
                {pending ? (
                  <li>
                    <UserMessage
                      message={{ content: pending.content, created_at: pending.at }}
                      pending
                    />
                  </li>
                ) : null}
              </ol>
            </ApprovalActionsContext.Provider>
          </ChatActionsContext.Provider>
          <RunAgainDialog
            sessionId={session.id}
            runId={runAgain}
            onOpenChange={(open) => {
              if (!open) setRunAgain(null);
            }}
            onConfirm={(runId) => void regenerate(runId)}
          />
          <ForkDialog
            sessionId={session.id}
            target={forkTarget}
            models={models}
            onOpenChange={(open) => {
              if (!open) setForkTarget(null);
            }}
            onForked={({ runId, messageId, target, model }) => {
              setForkTarget(null);
              const message = state.messages.find((m) => m.id === messageId);
              conversation.addSent({ runId, messageId, content: message?.content ?? "" });
              setLocalForks((forks) => ({
                ...forks,
                [runId]: {
                  from_run_id: target.run.id,
                  step_id: target.lane.stepId,
                  model,
                  instructions: null,
                  rest: false,
                  rerun_steps: [],
                },
              }));
              pick(runId);
            }}
          />
        </ArtifactsProvider>
      </div>
      <div className="sticky bottom-0 z-10 bg-gradient-to-t from-ink-50 via-ink-50/95 to-ink-50/0 px-3 pt-4 pb-3 sm:px-6 sm:pb-5">
        <div className="mx-auto max-w-5xl">
          <Composer
            running={active !== null}
            blockedReason={blockedReason}
            onSend={send}
            onStop={stop}
            stopping={stopping}
            {...(active && !rerunGoing(active) && viewerReason === null
              ? {
                  onMessageDuringRun: async (text: string, mode: "queue" | "now") => {
                    try {
                      const said = await sendRunMessage(session.id, active.id, {
                        message: text,
                        mode,
                      });
                      return said.mode === "queue" ? said.message : "";
                    } catch (error) {
                      setFailure({
                        message: isApiError(error)
                          ? error.message
                          : "The message could not be sent.",
                      });
                      return null;
                    }
                  },
                }
              : {})}
            prefill={prefill}
            autoFocus={focusComposer === true}
            estimate={(draft) => (
              <ComposerEstimate
                sessionId={session.id}
                draftLength={draft.length}
                enabled={active === null && blockedReason === null}
              />
            )}
            notice={
              failure ? (
                <div
                  role="alert"
                  className="flex flex-wrap items-center justify-between gap-2 rounded-xl border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-900"
                  data-testid="send-error"
                >
                  <span>
                    {failure.refusal ? (
                      <span className="block font-semibold" data-testid="refusal-title">
                        {REFUSAL_TITLES[failure.refusal.limit]}
                      </span>
                    ) : null}
                    {failure.message}
                    {failure.refusal ? (
                      <RefusalAction
                        refusal={failure.refusal}
                        session={session}
                        onSessionChange={(updated) => {
                          conversation.setSession(updated);
                          setFailure(null);
                        }}
                      />
                    ) : null}
                  </span>
                  <button
                    type="button"
                    onClick={() => setFailure(null)}
                    className="rounded-md px-2 py-0.5 text-xs font-semibold hover:bg-red-100"
                  >
                    Dismiss
                  </button>
                </div>
              ) : null
            }
          />
        </div>
      </div>
    </div>
  );
}
