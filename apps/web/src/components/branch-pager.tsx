import { cn } from "./cn";

/**
 * ‹ 1/2 › between versions of one thing (a message's branches, an answer's versions):
 * two buttons and the position, announced politely when it changes. Generic: the caller
 * names what is paged (`label`) and does the paging.
 */
export function BranchPager({
  index,
  count,
  label,
  onPage,
  disabled = false,
  className,
  testId = "branch-pager",
}: {
  /** 0-based page shown. */
  index: number;
  count: number;
  /** What is paged, e.g. "Versions of your message". */
  label: string;
  onPage(index: number): void;
  disabled?: boolean;
  className?: string;
  testId?: string;
}) {
  if (count < 2) return null;
  const button =
    "inline-flex size-7 items-center justify-center rounded-md text-base font-semibold text-ink-700 hover:bg-ink-100 hover:text-ink-950 focus-visible:outline-2 focus-visible:outline-brand-600 disabled:cursor-not-allowed disabled:text-ink-300 disabled:hover:bg-transparent";
  return (
    // biome-ignore lint/a11y/useSemanticElements: a small labelled control group, not a form field set
    <div
      role="group"
      aria-label={label}
      data-testid={testId}
      className={cn("inline-flex items-center gap-0.5 text-xs text-ink-700", className)}
    >
      <button
        type="button"
        className={button}
        aria-label={`Previous (${index} of ${count})`}
        disabled={disabled || index <= 0}
        onClick={() => onPage(index - 1)}
      >
        ‹
      </button>
      <span className="min-w-8 text-center font-semibold tabular-nums" aria-live="polite">
        {index + 1}/{count}
      </span>
      <button
        type="button"
        className={button}
        aria-label={`Next (${index + 2} of ${count})`}
        disabled={disabled || index >= count - 1}
        onClick={() => onPage(index + 1)}
      >
        ›
      </button>
    </div>
  );
}
