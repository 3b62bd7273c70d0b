import { cn } from "./cn";

/**
 * ‹ 1/2 › between the versions of one thing (decisions 068, 070): an edited message, a
 * regenerated or forked answer, in the team chat and in CoChat. A labelled group
 * ("Versions of …") of two buttons that say which version they show, and the position,
 * announced politely when it changes; the ends are disabled rather than wrapping. The caller
 * names what is paged and does the paging.
 */
export function Pager({
  index,
  count,
  what,
  onSelect,
  buttonNames = "versions",
  disabled = false,
  className,
  testId = "version-pager",
}: {
  /** The version shown, 0-based. */
  index: number;
  count: number;
  /** Names what is paged, for screen readers: "your message", "the answer". */
  what: string;
  onSelect(index: number): void;
  /**
   * How the buttons are named: "versions" says what they page ("Previous version of the
   * answer (1 of 2)"); "position" only where they go ("Previous (1 of 2)"), inside the group
   * that says the rest.
   */
  buttonNames?: "versions" | "position";
  disabled?: boolean;
  className?: string;
  testId?: string;
}) {
  if (count < 2) return null;
  const of = buttonNames === "versions" ? ` version of ${what}` : "";
  const button =
    "inline-flex size-7 items-center justify-center rounded-md text-base font-semibold text-ink-700 hover:bg-ink-100 hover:text-ink-950 focus-visible:outline-2 focus-visible:outline-brand-600 disabled:cursor-not-allowed disabled:text-ink-300 disabled:hover:bg-transparent";
  return (
    // biome-ignore lint/a11y/useSemanticElements: a small labelled control group, not a form field set
    <div
      role="group"
      aria-label={`Versions of ${what}`}
      data-testid={testId}
      className={cn("inline-flex items-center gap-0.5 text-xs text-ink-700", className)}
    >
      <button
        type="button"
        className={button}
        aria-label={`Previous${of} (${index} of ${count})`}
        disabled={disabled || index <= 0}
        onClick={() => onSelect(index - 1)}
      >
        <span aria-hidden="true">‹</span>
      </button>
      <span
        className="min-w-8 text-center font-semibold tabular-nums"
        aria-live="polite"
        data-testid="version-position"
      >
        {index + 1}/{count}
      </span>
      <button
        type="button"
        className={button}
        aria-label={`Next${of} (${index + 2} of ${count})`}
        disabled={disabled || index >= count - 1}
        onClick={() => onSelect(index + 1)}
      >
        <span aria-hidden="true">›</span>
      </button>
    </div>
  );
}
