import { CHAT_MESSAGE_MAX, type TChatMessage, type TModel } from "@cohort/contracts";
import { type FormEvent, type KeyboardEvent, memo, useId, useMemo, useRef, useState } from "react";
import { cn } from "../../components/cn";
import { FormButtons } from "../../components/form";
import { Pager } from "../../components/pager";
import { isApiError } from "../../lib/api/api-error";
import { type BranchTurn, versionLabel } from "./branch-timeline";
import { editMessage } from "./chat-api";
import { ForkComparison } from "./fork-comparison";
import { CollapsedRun, RunCard, UserMessage } from "./run-card";
import type { RunView } from "./run-state";

/**
 * The conversation's turns on the branch on screen (decision 070): each user message with a
 * ‹ 1/2 › pager between its versions and Edit in place; its answer with a pager between its
 * versions (regenerated answers, forks), and a fork beside the run it forked.
 */
export function BranchTurns({
  turns,
  models,
  sessionId,
  canStart,
  onShow,
  onEdited,
  onEditFailed,
}: {
  turns: readonly BranchTurn[];
  models: Map<string, TModel>;
  sessionId: string;
  canStart: boolean;
} & Omit<TurnHandlers, "setEditing">) {
  const [editing, setEditing] = useState<string | null>(null);
  const latestRunId = turns.at(-1)?.run?.id;
  // The page's handlers change every render; a turn reads the latest through this ref, so a
  // turn whose data did not change is not drawn again while another run streams (decision 077).
  const handlers = useRef({ onShow, onEdited, onEditFailed });
  handlers.current = { onShow, onEdited, onEditFailed };
  const stable = useMemo<TurnHandlers>(
    () => ({
      onShow: (kind, id) => handlers.current.onShow(kind, id),
      onEdited: (sent) => handlers.current.onEdited(sent),
      onEditFailed: (error) => handlers.current.onEditFailed(error),
      setEditing,
    }),
    [],
  );
  return (
    <>
      {turns.map((turn) => (
        <Turn
          key={turn.message.id}
          turn={turn}
          models={models}
          sessionId={sessionId}
          canStart={canStart}
          editing={editing === turn.message.id}
          latest={turn.run !== null && turn.run.id === latestRunId}
          handlers={stable}
        />
      ))}
    </>
  );
}

interface TurnHandlers {
  /** A version put on screen by a pager. */
  onShow(kind: "message" | "run", id: string): void;
  onEdited(sent: {
    runId: string;
    messageId: string;
    content: string;
    parentRunId: string | null;
  }): void;
  onEditFailed(error: unknown): void;
  setEditing(id: string | null): void;
}

interface TurnProps {
  turn: BranchTurn;
  models: Map<string, TModel>;
  sessionId: string;
  canStart: boolean;
  editing: boolean;
  latest: boolean;
  handlers: TurnHandlers;
}

const sameItems = <T,>(a: readonly T[], b: readonly T[]) =>
  a.length === b.length && a.every((item, i) => item === b[i]);

/** A turn is drawn again only when what it shows changed (the timeline builds new arrays). */
function sameTurn(a: TurnProps, b: TurnProps): boolean {
  return (
    a.turn.message === b.turn.message &&
    a.turn.run === b.turn.run &&
    sameItems(a.turn.runs, b.turn.runs) &&
    sameItems(a.turn.versions, b.turn.versions) &&
    a.models === b.models &&
    a.sessionId === b.sessionId &&
    a.canStart === b.canStart &&
    a.editing === b.editing &&
    a.latest === b.latest &&
    a.handlers === b.handlers
  );
}

const Turn = memo(function Turn({
  turn,
  models,
  sessionId,
  canStart,
  editing,
  latest,
  handlers,
}: TurnProps) {
  const { message, versions, runs, run } = turn;
  const { onShow, onEdited, onEditFailed, setEditing } = handlers;
  const index = versions.findIndex((m) => m.id === message.id);
  const pager = (
    <Pager
      index={index}
      count={versions.length}
      what="your message"
      buttonNames="position"
      testId="message-pager"
      onSelect={(i) => {
        const to = versions[i];
        if (to) onShow("message", to.id);
      }}
    />
  );
  return (
    <li
      // Earlier turns off screen are skipped when the page is laid out and painted (decision
      // 080): a streaming run then lays out its own growing text, not the whole history.
      className={cn(
        "grid grid-cols-1 gap-3",
        latest ? undefined : "[contain-intrinsic-size:auto_40rem] [content-visibility:auto]",
      )}
      data-testid="turn"
      data-turn-id={message.id}
    >
      {editing ? (
        <MessageEditor
          message={message}
          sessionId={sessionId}
          canStart={canStart}
          onCancel={() => setEditing(null)}
          onSent={(sent) => {
            setEditing(null);
            onEdited({ ...sent, parentRunId: message.parent_run_id ?? null });
          }}
          onFailed={onEditFailed}
        />
      ) : (
        <UserMessage
          message={message}
          onEdit={() => setEditing(message.id)}
          pager={versions.length > 1 ? pager : null}
        />
      )}
      {run ? (
        <AnswerVersion
          run={run}
          runs={runs}
          models={models}
          latest={latest}
          onShow={(id) => onShow("run", id)}
        />
      ) : null}
    </li>
  );
}, sameTurn);

function AnswerVersion({
  run,
  runs,
  models,
  latest,
  onShow,
}: {
  run: RunView;
  runs: readonly RunView[];
  models: Map<string, TModel>;
  latest: boolean;
  onShow(runId: string): void;
}) {
  const [compare, setCompare] = useState(true);
  const index = runs.indexOf(run);
  const original = run.fork ? runs.find((r) => r.id === run.fork?.from_run_id) : undefined;
  const again = index > 0 && !run.fork;
  return (
    <div className="grid grid-cols-1 gap-2">
      {runs.length > 1 ? (
        <div
          className="flex flex-wrap items-center gap-2 text-xs text-ink-700"
          data-testid="answer-versions-bar"
        >
          <Pager
            index={index}
            count={runs.length}
            what="the answer"
            buttonNames="position"
            testId="answer-pager"
            onSelect={(i) => {
              const to = runs[i];
              if (to) onShow(to.id);
            }}
          />
          <span className="font-semibold text-ink-900" data-testid="answer-version-label">
            {versionLabel(run, runs)}
            {run.fork ? ` on ${models.get(run.fork.model)?.name ?? run.fork.model}` : ""}
          </span>
          {original ? (
            <button
              type="button"
              aria-expanded={compare}
              onClick={() => setCompare((v) => !v)}
              className="rounded-md px-2 py-0.5 font-semibold text-brand-700 hover:bg-brand-50"
            >
              {compare ? "Hide the comparison" : "Compare with the original"}
            </button>
          ) : null}
        </div>
      ) : null}
      {original && compare ? <ForkComparison original={original} fork={run} /> : null}
      {latest ? (
        <RunCard run={run} models={models} again={again} />
      ) : (
        <CollapsedRun run={run} models={models} again={again} />
      )}
    </div>
  );
}

function MessageEditor({
  message,
  sessionId,
  canStart,
  onCancel,
  onSent,
  onFailed,
}: {
  message: TChatMessage;
  sessionId: string;
  canStart: boolean;
  onCancel(): void;
  onSent(sent: { runId: string; messageId: string; content: string }): void;
  onFailed(error: unknown): void;
}) {
  const id = useId();
  const [text, setText] = useState(message.content);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const trimmed = text.trim();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!trimmed || busy) return;
    setBusy(true);
    setError(null);
    try {
      const started = await editMessage(sessionId, message.id, trimmed);
      onSent({ runId: started.run_id, messageId: started.message_id, content: trimmed });
    } catch (cause) {
      setError(isApiError(cause) ? cause.message : "The message could not be sent. Try again.");
      onFailed(cause);
    } finally {
      setBusy(false);
    }
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === "Escape") {
      event.preventDefault();
      onCancel();
    }
  };
  return (
    <form
      onSubmit={submit}
      className="ml-auto grid w-full max-w-[min(42rem,90%)] gap-2 rounded-2xl border border-brand-300 bg-white p-3"
      aria-label="Edit your message"
      data-testid="message-editor"
    >
      <label htmlFor={`${id}-text`} className="text-xs font-semibold text-ink-700">
        Your message — sending it starts a new branch; the original stays one page back
      </label>
      <textarea
        id={`${id}-text`}
        value={text}
        // biome-ignore lint/a11y/noAutofocus: the user asked to edit this very message
        autoFocus
        maxLength={CHAT_MESSAGE_MAX}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
        rows={Math.min(10, Math.max(2, text.split("\n").length))}
        className="w-full rounded-lg border border-ink-300 px-3 py-2 text-[15px] leading-6"
      />
      {error ? (
        <p role="alert" className="text-sm text-red-800" data-testid="edit-error">
          {error}
        </p>
      ) : null}
      <FormButtons onCancel={onCancel} disabled={!trimmed || busy || !canStart}>
        {busy ? "Sending…" : "Save and send"}
      </FormButtons>
    </form>
  );
}
