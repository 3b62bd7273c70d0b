import { MEMORY_TEXT_MAX } from "@cohort/contracts";
import { useId, useState } from "react";
import { Button } from "../../components/button";
import { inputClasses } from "../../components/form";

/** One memory line being edited: the Memory page and a run's proposals share it. */
export function MemoryEditForm({
  initial,
  busy,
  onSave,
  onCancel,
}: {
  initial: string;
  busy: boolean;
  onSave(text: string): void;
  onCancel(): void;
}) {
  const inputId = useId();
  const [text, setText] = useState(initial);
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        onSave(text);
      }}
      className="flex w-full flex-col gap-2 sm:flex-row"
    >
      <label htmlFor={inputId} className="sr-only">
        Memory text
      </label>
      <input
        id={inputId}
        className={inputClasses}
        value={text}
        maxLength={MEMORY_TEXT_MAX}
        onChange={(event) => setText(event.target.value)}
        // biome-ignore lint/a11y/noAutofocus: the user just asked to edit this line
        autoFocus
      />
      <div className="flex shrink-0 gap-2">
        <Button type="submit" size="sm" disabled={busy || text.trim() === ""}>
          Save
        </Button>
        <Button size="sm" variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
