import { SIMULATED_NOT_CHARGED } from "@cohort/contracts";
import { type KeyboardEvent, useEffect, useId, useRef, useState } from "react";
import { Button } from "../../components/button";
import { cn } from "../../components/cn";
import { CodeBlockContext, Markdown } from "../../components/markdown/markdown";
import { Pager } from "../../components/pager";
import { ArtifactCodeBlock } from "../artifacts/artifact-block";
import { CopyActions } from "../chat/copy-actions";
import { KeyRefusedLink } from "../chat/key-refused-link";
import { SimulatedBadge } from "./simulated-badge";
import type { Turn } from "./use-cochat";

function TypingDots() {
  return (
    <span className="inline-flex items-center gap-1 py-2" aria-hidden="true">
      {[0, 150, 300].map((delay) => (
        <span
          key={delay}
          className="size-1.5 animate-bounce rounded-full bg-ink-400"
          style={{ animationDelay: `${delay}ms` }}
        />
      ))}
    </span>
  );
}

/** What a message can do (decision 068); absent while an answer streams. */
export interface TurnActions {
  onRegenerate(index: number): void;
  onEdit(index: number, text: string): void;
  onShowVersion(messageId: string): void;
}

function TurnPager({
  turn,
  what,
  actions,
  busy,
}: {
  turn: Turn;
  what: string;
  actions: TurnActions;
  busy: boolean;
}) {
  if (!turn.id || turn.versionIds.length < 2) return null;
  return (
    <Pager
      index={turn.versionIds.indexOf(turn.id)}
      count={turn.versionIds.length}
      what={what}
      disabled={busy}
      onSelect={(i) => {
        const id = turn.versionIds[i];
        if (id) actions.onShowVersion(id);
      }}
    />
  );
}

/** Copy and Copy text as the team chat's, with a name for Copy text that starts as it does. */
function CopyButtons({ text, what }: { text: string; what: string }) {
  return (
    <CopyActions
      text={text}
      what={what}
      plainLabel={`Copy text of ${what}, without Markdown`}
      buttonClassName={actionButton}
    />
  );
}

const actionButton =
  "rounded-md px-1.5 py-0.5 text-xs font-semibold text-ink-600 hover:bg-ink-100 hover:text-ink-900 focus-visible:outline-2 focus-visible:outline-brand-600 disabled:opacity-50";

interface TurnProps {
  turn: Turn;
  index: number;
  actions: TurnActions | undefined;
  busy: boolean;
}

function AssistantTurn({ turn, index, actions, busy }: TurnProps) {
  return (
    <li className="flex min-w-0 gap-3" data-testid="cochat-answer" data-status={turn.status}>
      <span
        aria-hidden="true"
        className="mt-0.5 flex size-8 shrink-0 items-center justify-center rounded-full bg-gradient-to-br from-brand-500 to-brand-700 text-xs font-bold text-white shadow-sm"
      >
        Co
      </span>
      <div className="min-w-0 flex-1">
        <p className="flex flex-wrap items-center gap-1.5 text-xs font-semibold text-ink-700">
          <span className="sr-only">Answer from </span>
          {turn.modelName ?? "CoChat"}
          {turn.simulated ? <SimulatedBadge /> : null}
          {turn.simulated && turn.status === "complete" ? (
            // CoChat Unlimited spends no credits; a simulated answer says so beside it too.
            <span className="font-normal text-ink-500" data-testid="cochat-not-charged">
              {SIMULATED_NOT_CHARGED}
            </span>
          ) : null}
        </p>
        <div
          data-testid="cochat-answer-body"
          className="mt-1 rounded-2xl rounded-tl-md border border-ink-200 bg-white px-4 py-3 shadow-xs"
        >
          {turn.content ? (
            // Code a browser can show gets its Preview tab here too (decision 063).
            <CodeBlockContext.Provider value={ArtifactCodeBlock}>
              <Markdown text={turn.content} />
            </CodeBlockContext.Provider>
          ) : turn.status === "streaming" ? (
            <TypingDots />
          ) : null}
          {turn.status === "streaming" && turn.content ? (
            <span
              aria-hidden="true"
              className="ml-0.5 inline-block h-4 w-1.5 animate-pulse rounded-sm bg-brand-500 align-text-bottom"
            />
          ) : null}
          {turn.status === "stopped" ? (
            <p className="mt-2 text-xs font-medium text-ink-500">
              {turn.content
                ? "Stopped. The answer above is incomplete."
                : "Stopped before an answer arrived."}
            </p>
          ) : null}
          {turn.status === "failed" ? (
            <p
              className={cn(
                "rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800",
                turn.content ? "mt-3" : undefined,
              )}
            >
              {turn.error ?? "The answer failed. Please try again."}
              <KeyRefusedLink code={turn.errorCode} className="block text-red-900" />
            </p>
          ) : null}
        </div>
        {actions && turn.id && turn.status !== "streaming" ? (
          <div
            className="mt-1 flex flex-wrap items-center gap-1"
            data-testid="cochat-answer-actions"
          >
            <TurnPager turn={turn} what="the answer" actions={actions} busy={busy} />
            {turn.content ? <CopyButtons text={turn.content} what="the answer" /> : null}
            <button
              type="button"
              className={actionButton}
              disabled={busy}
              onClick={() => actions.onRegenerate(index)}
              aria-label="Regenerate the answer (keeps this version)"
            >
              Regenerate
            </button>
          </div>
        ) : null}
      </div>
    </li>
  );
}

function EditForm({
  initial,
  onSave,
  onCancel,
}: {
  initial: string;
  onSave(text: string): void;
  onCancel(): void;
}) {
  const [text, setText] = useState(initial);
  const area = useRef<HTMLTextAreaElement>(null);
  const id = useId();
  useEffect(() => {
    const element = area.current;
    if (!element) return;
    element.focus();
    element.setSelectionRange(element.value.length, element.value.length);
  }, []);
  const save = () => {
    if (text.trim()) onSave(text.trim());
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === "Escape") {
      event.preventDefault();
      onCancel();
    } else if (event.key === "Enter" && (event.metaKey || event.ctrlKey)) {
      event.preventDefault();
      save();
    }
  };
  return (
    <form
      className="w-full max-w-[85%] rounded-2xl border border-brand-300 bg-white p-2 shadow-sm"
      onSubmit={(event) => {
        event.preventDefault();
        save();
      }}
      data-testid="cochat-edit-form"
    >
      <label htmlFor={id} className="sr-only">
        Edit your message
      </label>
      <textarea
        id={id}
        ref={area}
        value={text}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
        rows={Math.min(8, Math.max(2, text.split("\n").length))}
        className="block w-full resize-y rounded-lg border-0 px-2 py-1.5 text-[15px] leading-6 text-ink-950 focus:outline-2 focus:outline-brand-600"
      />
      <div className="mt-2 flex items-center justify-end gap-2">
        <span className="mr-auto px-1 text-xs text-ink-500">
          Saving sends it as a new version; the earlier one stays a page away.
        </span>
        <Button size="sm" variant="ghost" type="button" onClick={onCancel}>
          Cancel
        </Button>
        <Button size="sm" type="submit" disabled={!text.trim() || text.trim() === initial}>
          Save and send
        </Button>
      </div>
    </form>
  );
}

function UserTurn({ turn, index, actions, busy }: TurnProps) {
  const [editing, setEditing] = useState(false);
  const editButton = useRef<HTMLButtonElement>(null);
  const wasEditing = useRef(false);
  useEffect(() => {
    // Back on the Edit button after Cancel, so the keyboard keeps its place.
    if (wasEditing.current && !editing) editButton.current?.focus();
    wasEditing.current = editing;
  }, [editing]);
  return (
    <li className="flex flex-col items-end" data-testid="cochat-question">
      {editing && actions ? (
        <EditForm
          initial={turn.content}
          onCancel={() => setEditing(false)}
          onSave={(text) => {
            wasEditing.current = false;
            setEditing(false);
            actions.onEdit(index, text);
          }}
        />
      ) : (
        <div className="max-w-[85%] rounded-2xl rounded-tr-md bg-brand-600 px-4 py-2.5 text-[15px] leading-6 whitespace-pre-wrap text-white shadow-sm">
          <span className="sr-only">You: </span>
          {turn.content}
        </div>
      )}
      {actions && turn.id && !editing ? (
        <div className="mt-1 flex items-center gap-1" data-testid="cochat-question-actions">
          <TurnPager turn={turn} what="your message" actions={actions} busy={busy} />
          <CopyButtons text={turn.content} what="your message" />
          <button
            ref={editButton}
            type="button"
            className={actionButton}
            disabled={busy}
            onClick={() => setEditing(true)}
            aria-label="Edit your message"
          >
            Edit
          </button>
        </div>
      ) : null}
    </li>
  );
}

/** The conversation: the user's messages on the right, CoChat's Markdown answers on the left. */
export function MessageList({
  turns,
  busy,
  actions,
}: {
  turns: readonly Turn[];
  busy: boolean;
  actions?: TurnActions;
}) {
  return (
    <ol aria-label="Conversation" aria-busy={busy} className="flex flex-col gap-6">
      {turns.map((turn, index) =>
        turn.role === "user" ? (
          <UserTurn key={turn.key} turn={turn} index={index} actions={actions} busy={busy} />
        ) : (
          <AssistantTurn key={turn.key} turn={turn} index={index} actions={actions} busy={busy} />
        ),
      )}
    </ol>
  );
}
