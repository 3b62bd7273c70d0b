import { COCHAT_MESSAGE_MAX_CHARS } from "@cohort/contracts";
import { type FormEvent, type KeyboardEvent, useId, useState } from "react";
import { cn } from "../../components/cn";
import { SendButton, StopButton } from "../../components/composer-buttons";
import { useComposerTextarea } from "../../components/use-composer-textarea";

/** The message box: Enter sends, Shift+Enter adds a line; Stop while an answer streams. */
export function CochatComposer({
  streaming,
  disabled,
  onSend,
  onStop,
}: {
  streaming: boolean;
  disabled: boolean;
  onSend(text: string): void;
  onStop(): void;
}) {
  const [text, setText] = useState("");
  const hintId = useId();
  const locked = streaming || disabled;

  const area = useComposerTextarea(text, locked);

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    const message = text.trim();
    if (!message || locked) return;
    setText("");
    onSend(message);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      submit();
    }
  };

  return (
    <form onSubmit={submit} className="grid gap-1.5">
      <div
        className={cn(
          "flex items-end gap-2 rounded-2xl border bg-white p-2 shadow-lg shadow-ink-900/5 transition-colors",
          locked
            ? "border-ink-200"
            : "border-ink-300 focus-within:border-brand-500 focus-within:ring-4 focus-within:ring-brand-500/15",
        )}
      >
        <label htmlFor={`${hintId}-input`} className="sr-only">
          Message CoChat
        </label>
        <textarea
          id={`${hintId}-input`}
          ref={area}
          rows={1}
          value={text}
          maxLength={COCHAT_MESSAGE_MAX_CHARS}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={onKeyDown}
          disabled={disabled}
          readOnly={streaming}
          aria-describedby={hintId}
          placeholder={streaming ? "CoChat is answering…" : "Message CoChat…"}
          className="max-h-[200px] min-h-10 flex-1 resize-none bg-transparent px-2 py-2 text-[15px] leading-6 text-ink-950 outline-none placeholder:text-ink-400 disabled:cursor-not-allowed"
        />
        {streaming ? (
          <StopButton onClick={onStop}>Stop</StopButton>
        ) : (
          <SendButton disabled={locked || text.trim() === ""}>Send</SendButton>
        )}
      </div>
      <p id={hintId} className="hidden px-2 text-xs text-ink-500 sm:block">
        Enter to send · Shift+Enter for a new line · CoChat Unlimited: no credits used
      </p>
    </form>
  );
}
