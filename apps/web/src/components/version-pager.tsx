import { cn } from "./cn";

/**
 * ‹ 1/2 › between the versions of a message (decision 068): an edited question, a
 * regenerated answer. Two buttons that say which versions they show, and the position as
 * text; the ends are disabled rather than wrapping. Shared by CoChat and the team chat.
 */
export function VersionPager({
  index,
  count,
  what,
  onSelect,
  disabled = false,
  className,
}: {
  /** The version shown, 0-based. */
  index: number;
  count: number;
  /** Names what is paged, for screen readers: "your message", "the answer". */
  what: string;
  onSelect(index: number): void;
  disabled?: boolean;
  className?: string;
}) {
  if (count < 2) return null;
  const button =
    "flex size-6 items-center justify-center rounded-md text-ink-600 hover:bg-ink-100 hover:text-ink-900 focus-visible:outline-2 focus-visible:outline-brand-600 disabled:opacity-40 disabled:hover:bg-transparent";
  return (
    <fieldset
      data-testid="version-pager"
      className={cn(
        "m-0 inline-flex items-center gap-0.5 border-0 p-0 text-xs text-ink-600",
        className,
      )}
    >
      <legend className="sr-only">Versions of {what}</legend>
      <button
        type="button"
        className={button}
        disabled={disabled || index <= 0}
        onClick={() => onSelect(index - 1)}
        aria-label={`Previous version of ${what} (${index} of ${count})`}
      >
        <span aria-hidden="true">‹</span>
      </button>
      <span className="min-w-8 text-center font-medium tabular-nums" data-testid="version-position">
        {index + 1}/{count}
      </span>
      <button
        type="button"
        className={button}
        disabled={disabled || index >= count - 1}
        onClick={() => onSelect(index + 1)}
        aria-label={`Next version of ${what} (${index + 2} of ${count})`}
      >
        <span aria-hidden="true">›</span>
      </button>
    </fieldset>
  );
}
