import { CHAT_MESSAGE_MAX, STEERING_MESSAGES } from "@cohort/contracts";
import {
  type FormEvent,
  type KeyboardEvent,
  type ReactNode,
  useEffect,
  useId,
  useState,
} from "react";
import { Button } from "../../components/button";
import { cn } from "../../components/cn";
import { SendButton, StopButton } from "../../components/composer-buttons";
import { useComposerTextarea } from "../../components/use-composer-textarea";

export interface ComposerProps {
  /** A run is going: the box is locked and Stop replaces Send. */
  running: boolean;
  /** Why sending is not possible now (paused session…); null when it is. */
  blockedReason: string | null;
  onSend(text: string): Promise<boolean>;
  onStop(): void;
  stopping: boolean;
  notice?: ReactNode;
  /**
   * Text put in the box from outside ("Edit" on a sent message): each new `key` replaces the
   * draft and focuses the box.
   */
  prefill?: { text: string; key: number } | null;
  /** Take the focus once the box is shown (a session just created). */
  autoFocus?: boolean;
  /** Under the box: what sending the draft would cost (the cost preview). */
  estimate?: (draft: string) => ReactNode;
  /**
   * While a run is going (decision 069): the box stays usable; Send queues the message for
   * the team's next step, "Send now" stops the run and starts a new one. Returns the text to
   * confirm with, or null when it failed.
   */
  onMessageDuringRun?: (text: string, mode: "queue" | "now") => Promise<string | null>;
}

/** The message box: Enter sends, Shift+Enter adds a line; Stop while a run is going. */
export function Composer({
  running,
  blockedReason,
  onSend,
  onStop,
  stopping,
  notice,
  prefill = null,
  autoFocus = false,
  estimate,
  onMessageDuringRun,
}: ComposerProps) {
  const [text, setText] = useState("");
  const [sending, setSending] = useState(false);
  const [confirmed, setConfirmed] = useState("");
  const hintId = useId();
  const steering = running && onMessageDuringRun !== undefined;
  const locked = (running && !steering) || sending || blockedReason !== null;

  const area = useComposerTextarea(text, locked);

  // biome-ignore lint/correctness/useExhaustiveDependencies: each new prefill key applies once
  useEffect(() => {
    if (!prefill) return;
    setText(prefill.text);
    const element = area.current;
    if (!element) return;
    element.focus();
    element.setSelectionRange(prefill.text.length, prefill.text.length);
  }, [prefill?.key]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: only when the box first shows
  useEffect(() => {
    if (autoFocus) area.current?.focus();
  }, []);

  /** `mode` only matters while a run works: queue the message, or "Send now". */
  const submit = async (event?: FormEvent, mode: "queue" | "now" = "queue") => {
    event?.preventDefault();
    const message = text.trim();
    if (!message || locked) return;
    setSending(true);
    setText("");
    if (steering && onMessageDuringRun) {
      const said = await onMessageDuringRun(message, mode);
      setSending(false);
      if (said === null) setText(message);
      else setConfirmed(said);
      return;
    }
    const ok = await onSend(message);
    setSending(false);
    if (!ok) setText(message);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void submit();
    }
  };

  return (
    <form onSubmit={submit} className="grid grid-cols-1 gap-2">
      {notice}
      <div
        className={cn(
          "flex items-end gap-2 rounded-2xl border bg-white p-2 shadow-lg shadow-ink-900/5 transition-colors",
          // Three buttons beside the box leave a phone no room to type: they go below it.
          steering && "flex-wrap justify-end sm:flex-nowrap",
          locked
            ? "border-ink-200"
            : "border-ink-300 focus-within:border-brand-500 focus-within:ring-4 focus-within:ring-brand-500/15",
        )}
      >
        <label htmlFor={`${hintId}-input`} className="sr-only">
          Message
        </label>
        <textarea
          id={`${hintId}-input`}
          data-testid="composer-input"
          ref={area}
          rows={1}
          value={text}
          maxLength={CHAT_MESSAGE_MAX}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={onKeyDown}
          disabled={locked}
          aria-describedby={hintId}
          placeholder={
            blockedReason ??
            (steering
              ? "Add a note for the team, or Send now to start over with it…"
              : running
                ? "The team is working… stop the run to send something else."
                : "Give the team a task…")
          }
          className={cn(
            steering && "basis-full sm:basis-0",
            "max-h-[200px] min-h-10 flex-1 resize-none bg-transparent px-2 py-2 text-[15px] leading-6 text-ink-950 outline-none placeholder:text-ink-400 disabled:cursor-not-allowed disabled:text-ink-500",
          )}
        />
        {steering ? (
          <>
            <Button
              type="submit"
              disabled={sending || text.trim() === ""}
              data-testid="composer-queue"
            >
              Send
            </Button>
            <Button
              type="button"
              variant="outline"
              disabled={sending || text.trim() === ""}
              onClick={() => void submit(undefined, "now")}
              data-testid="composer-send-now"
            >
              {STEERING_MESSAGES.sendNow}
            </Button>
          </>
        ) : null}
        {running ? (
          <StopButton onClick={onStop} disabled={stopping}>
            {stopping ? "Stopping…" : "Stop"}
          </StopButton>
        ) : (
          <SendButton disabled={locked || text.trim() === ""}>
            {sending ? "Sending…" : "Send"}
          </SendButton>
        )}
      </div>
      <div className="flex flex-wrap items-start justify-between gap-x-4 gap-y-1">
        <p id={hintId} className="hidden px-2 text-xs text-ink-500 sm:block">
          Enter to send · Shift+Enter for a new line
        </p>
        {estimate ? estimate(text) : null}
      </div>
      <p role="status" className="px-2 text-xs text-ink-600" data-testid="composer-queued">
        {steering ? confirmed : ""}
      </p>
    </form>
  );
}
